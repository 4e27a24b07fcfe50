// libcurl plumbing shared by the measured engine and the side channels to the server: global
// initialisation, header lists, the configuration of an easy handle (kept per slot and reused, so
// its connection stays alive), and the mapping from curl's result codes to llmperf's failure
// kinds.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/record.h"

namespace llmperf {

// Must be called once before any other thread starts (curl_global_init is not thread-safe).
void init_transport();

// A curl_slist of "Name: value" header lines, freed with the object.
class CurlHeaders {
 public:
  explicit CurlHeaders(const std::vector<std::string>& lines);
  ~CurlHeaders();
  CurlHeaders(const CurlHeaders&) = delete;
  CurlHeaders& operator=(const CurlHeaders&) = delete;
  curl_slist* list = nullptr;
};

// Options shared by every easy handle of a run.
struct TransportOptions {
  std::string url;
  curl_slist* headers = nullptr;   // owned by the caller; must outlive the handles
  int64_t connect_timeout_ms = 0;  // 0: no limit
  int64_t total_timeout_ms = 0;    // 0: no limit
  bool insecure = false;
  std::string cacert;    // CA bundle file (--cacert); empty: curl's default store
  bool verbose = false;  // curl's own trace on stderr (--debug)
};

// Configures `easy` for `options`; callbacks and their user data are set by the caller.
void configure_easy(CURL* easy, const TransportOptions& options, char* error_buffer);

// A transfer that ended with `code`: the failure kind and a readable message.
struct TransportVerdict {
  ErrorKind kind = ErrorKind::kNone;
  std::string message;
};
TransportVerdict classify_transfer(CURL* easy, CURLcode code, const char* error_buffer,
                                   const std::string& url);

// What classify_transfer reads from the handle, as values: the OS error of a failed connect
// (CURLINFO_OS_ERRNO, 0 for none) and whether a connection was ever made.
TransportVerdict classify_curl_result(CURLcode code, long os_errno, bool connected,
                                      const std::string& detail, const std::string& url);

}  // namespace llmperf

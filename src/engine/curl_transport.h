// The curl side of one request slot: an easy handle configured once per slot and reused for
// every request it carries (keeping its connection alive), and the mapping from curl's result
// codes to llmperf's failure kinds.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <string>

#include "core/config.h"
#include "core/record.h"

namespace llmperf {

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

}  // namespace llmperf

// libcurl plumbing shared by the measured engine and the side channels to the server: global
// initialisation, header lists, the configuration of an easy handle (kept per slot and reused, so
// its connection stays alive), and the mapping from curl's result codes to llmperf's failure
// kinds.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "http/transfer_phases.h"

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
  bool verbose = false;  // curl's own trace on stderr; off always: it would print the API key
  HttpMode http_mode = HttpMode::kHttp1;   // HTTP/1.1, or HTTP/2 (ALPN or prior knowledge)
  int64_t max_streams_per_connection = 0;  // HTTP/2 streams per connection; 0: the server's limit
};

// Connections idle for this long or longer are not reused, whatever the server advertises:
// servers close idle connections after a few seconds (cpp-httplib in llama.cpp, uvicorn in vLLM
// and SGLang, Node.js, Apache: 5 s; gunicorn: 2 s), and a request sent into a connection the
// server is closing at that moment is lost. Reusing only below 2 s keeps 3 s of margin on the 5 s
// servers; a fresh connection costs what vLLM's benchmark client pays on every request.
inline constexpr int64_t kMaxIdleReuseS = 2;

// CURLOPT_MAXAGE_CONN for a server that advertised `Keep-Alive: timeout=N` (nullopt: none) so
// that a connection is reused only while idle below min(N - 1, kMaxIdleReuseS) seconds. curl
// compares whole seconds of idle time: a connection idle t seconds is reused while floor(t) <=
// the value, i.e. while t < value + 1.
long reuse_max_age_s(std::optional<int64_t> advertised_timeout_s);

// libcurl before 8.17.0 counts its transparent retries of dead reused connections per easy
// handle, never per request, and fails the sixth with "Connection died, tried 5 times before
// giving up" (curl's fix: "transfer: reset retry count on each request"). True when the running
// libcurl does that, so a reused handle must be reset before each request.
bool retry_count_per_handle();

// libcurl before 8.0.0 breaks an h2c (HTTP/2 prior knowledge) connection it reuses: the second
// stream fails with "Error in the HTTP2 framing layer" (curl issue 10634, fixed in 8.0.0). With
// such a libcurl, --http2-prior-knowledge gives each request a connection of its own.
bool h2c_reuse_broken();

// Configures a worker's multi handle for options.http_mode: HTTP/1.1 never pipelines; HTTP/2
// multiplexes streams over a connection (CURLPIPE_MULTIPLEX), at most max_streams_per_connection
// at once, or the server's limit when that is 0 (curl's own cap of 100 is lifted).
void configure_multi(CURLM* multi, const TransportOptions& options);

// Configures `easy` for `options`; callbacks and their user data are set by the caller.
void configure_easy(CURL* easy, const TransportOptions& options, char* error_buffer);

// A transfer that ended with `code`: the failure kind and a readable message.
struct TransportVerdict {
  ErrorKind kind = ErrorKind::kNone;
  std::string message;
  // The request went out on a reused connection that died before any response byte came back:
  // the server had closed it (an idle timeout) and never saw the request, so sending it again on
  // a fresh connection is safe.
  bool resendable = false;
};
TransportVerdict classify_transfer(CURL* easy, CURLcode code, const char* error_buffer,
                                   const std::string& url);

// What a transfer left on its handle, as values: read once per request, at its end
// (read_transfer_facts), for classify_curl_result and the record's HTTP phases.
struct TransferFacts {
  CURLcode code = CURLE_OK;
  long os_errno = 0;              // OS error of a failed connect (CURLINFO_OS_ERRNO), 0: none
  bool connected = false;         // a connection was made or reused
  bool response_started = false;  // a header or body byte of the response came back
  bool reused = false;            // no new connection was made (CURLINFO_NUM_CONNECTS == 0)
  CurlTimes times;                // curl's cumulative marks of the transfer
  long http_version = 0;          // CURLINFO_HTTP_VERSION (0: no response)

  // The transfer's phases, connection and HTTP version (transfer_phases.h).
  HttpPhases phases() const {
    return phases_from_curl_times(times, !reused, http_version_from_curl(http_version));
  }
};
// Reads the facts of the transfer that ended with `code` from `easy` (a dozen curl_easy_getinfo).
TransferFacts read_transfer_facts(CURL* easy, CURLcode code);
// classify_transfer of facts already read.
TransportVerdict classify_transfer(const TransferFacts& facts, const char* error_buffer,
                                   const std::string& url);
TransportVerdict classify_curl_result(const TransferFacts& facts, const std::string& detail,
                                      const std::string& url);

}  // namespace llmperf

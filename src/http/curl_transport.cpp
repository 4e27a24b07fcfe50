// Global set-up, header lists, easy-handle configuration and curl result classification (see
// curl_transport.h).
#include "http/curl_transport.h"

#include <fmt/format.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace llmperf {

void init_transport() {
  const CURLcode code = curl_global_init(CURL_GLOBAL_ALL);
  if (code != CURLE_OK) {
    throw std::runtime_error(std::string("curl_global_init: ") + curl_easy_strerror(code));
  }
}

CurlHeaders::CurlHeaders(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    curl_slist* next = curl_slist_append(list, line.c_str());
    if (next == nullptr) {
      curl_slist_free_all(list);
      throw std::runtime_error("curl_slist_append failed");
    }
    list = next;
  }
}

CurlHeaders::~CurlHeaders() { curl_slist_free_all(list); }

void configure_easy(CURL* easy, const TransportOptions& options, char* error_buffer) {
  curl_easy_setopt(easy, CURLOPT_URL, options.url.c_str());
  curl_easy_setopt(easy, CURLOPT_POST, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, options.headers);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  // One request per connection at a time: HTTP/1.1, as the Python clients and vLLM's benchmark do.
  curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0L : 1L);
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0L : 2L);
  if (!options.cacert.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, options.cacert.c_str());
  curl_easy_setopt(easy, CURLOPT_VERBOSE, options.verbose ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "llmperf/0.1.0");
}

TransportVerdict classify_transfer(CURL* easy, CURLcode code, const char* error_buffer,
                                   const std::string& url) {
  if (code == CURLE_OK) return {};
  const std::string detail = (error_buffer != nullptr && error_buffer[0] != '\0')
                                 ? error_buffer
                                 : curl_easy_strerror(code);
  long os_errno = 0;
  curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &os_errno);
  curl_off_t connect_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  return classify_curl_result(code, os_errno, connect_us != 0, detail, url);
}

TransportVerdict classify_curl_result(CURLcode code, long os_errno, bool connected,
                                      const std::string& detail, const std::string& url) {
  switch (code) {
    case CURLE_OK:
      return {};
    case CURLE_COULDNT_CONNECT:
      if (os_errno == ECONNREFUSED) {
        return {ErrorKind::kConnectRefused, fmt::format("connection refused by {}", url)};
      }
      if (os_errno == ECONNRESET) {
        // The handshake reached a listener that closed before accepting (a server shutting
        // down): no request was sent, as with a refusal.
        return {ErrorKind::kConnectRefused,
                fmt::format("connection reset by {} while connecting", url)};
      }
      return {ErrorKind::kTransport,
              fmt::format("could not connect to {}: {} ({})", url, detail,
                          os_errno != 0
                              ? std::generic_category().message(static_cast<int>(os_errno))
                              : std::string("no OS error"))};
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return {ErrorKind::kResolve, fmt::format("could not resolve host: {}", detail)};
    case CURLE_OPERATION_TIMEDOUT:
      if (!connected) {
        return {ErrorKind::kConnectTimeout, fmt::format("connect timeout: {}", detail)};
      }
      return {ErrorKind::kTimeoutTotal, fmt::format("total timeout: {}", detail)};
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
      return {ErrorKind::kStreamTruncated,
              fmt::format("connection ended before the response was complete: {}", detail)};
    default:
      return {ErrorKind::kTransport,
              fmt::format("{} (curl error {})", detail, static_cast<int>(code))};
  }
}

}  // namespace llmperf

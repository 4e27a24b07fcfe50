// Global set-up, header lists, easy-handle configuration and curl result classification (see
// curl_transport.h).
#include "http/curl_transport.h"

#include "core/text.h"

#include <fmt/format.h>

#include <algorithm>
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

long reuse_max_age_s(std::optional<int64_t> advertised_timeout_s) {
  int64_t below_s = kMaxIdleReuseS;
  if (advertised_timeout_s) below_s = std::min(below_s, *advertised_timeout_s - 1);
  // Reused while idle < below_s: while floor(idle) <= below_s - 1. Below 1 s curl cannot go: 0
  // reuses a connection idle less than a second.
  return static_cast<long>(std::max<int64_t>(0, below_s - 1));
}

bool retry_count_per_handle() {
  return curl_version_info(CURLVERSION_NOW)->version_num < 0x081100;  // 8.17.0
}

bool h2c_reuse_broken() {
  return curl_version_info(CURLVERSION_NOW)->version_num < 0x080000;  // 8.0.0
}

void configure_multi(CURLM* multi, const TransportOptions& options) {
  if (options.http_mode == HttpMode::kHttp1 ||
      (options.http_mode == HttpMode::kHttp2PriorKnowledge && h2c_reuse_broken())) {
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_NOTHING));
    return;
  }
  curl_multi_setopt(multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
  // curl opens another connection once one carries this many streams (or the server's own
  // SETTINGS_MAX_CONCURRENT_STREAMS, when lower).
  constexpr long kServersLimit = 0x7fffffff;
  curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS,
                    options.max_streams_per_connection > 0
                        ? static_cast<long>(options.max_streams_per_connection)
                        : kServersLimit);
}

void configure_easy(CURL* easy, const TransportOptions& options, char* error_buffer) {
  curl_easy_setopt(easy, CURLOPT_URL, options.url.c_str());
  curl_easy_setopt(easy, CURLOPT_POST, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, options.headers);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_MAXAGE_CONN, reuse_max_age_s(std::nullopt));
  // One request per connection at a time: HTTP/1.1, as the Python clients and vLLM's benchmark do;
  // or HTTP/2, whose requests wait for a connection that can carry one more stream rather than
  // open their own (CURLOPT_PIPEWAIT).
  switch (options.http_mode) {
    case HttpMode::kHttp1:
      curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
      break;
    case HttpMode::kHttp2:
      curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
      curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
      break;
    case HttpMode::kHttp2PriorKnowledge:
      curl_easy_setopt(easy, CURLOPT_HTTP_VERSION,
                       static_cast<long>(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE));
      if (h2c_reuse_broken()) {
        curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);  // see h2c_reuse_broken
      } else {
        curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
      }
      break;
  }
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0L : 1L);
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0L : 2L);
  if (!options.cacert.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, options.cacert.c_str());
  curl_easy_setopt(easy, CURLOPT_VERBOSE, options.verbose ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "llmperf/0.1.0");
}

TransferFacts read_transfer_facts(CURL* easy, CURLcode code) {
  TransferFacts facts;
  facts.code = code;
  curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &facts.os_errno);
  curl_off_t connect_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  facts.connected = connect_us != 0;
  long header_bytes = 0;
  curl_easy_getinfo(easy, CURLINFO_HEADER_SIZE, &header_bytes);
  curl_off_t body_bytes = 0;
  curl_easy_getinfo(easy, CURLINFO_SIZE_DOWNLOAD_T, &body_bytes);
  facts.response_started = header_bytes > 0 || body_bytes > 0;
  long connects = 0;
  curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
  facts.reused = connects == 0;
  CurlTimes& t = facts.times;
  const auto mark = [easy](CURLINFO info, int64_t& us) {
    curl_off_t value = 0;
    curl_easy_getinfo(easy, info, &value);
    us = static_cast<int64_t>(value);
  };
  mark(CURLINFO_NAMELOOKUP_TIME_T, t.namelookup_us);
  t.connect_us = static_cast<int64_t>(connect_us);
  mark(CURLINFO_APPCONNECT_TIME_T, t.appconnect_us);
  mark(CURLINFO_PRETRANSFER_TIME_T, t.pretransfer_us);
  mark(CURLINFO_STARTTRANSFER_TIME_T, t.starttransfer_us);
  mark(CURLINFO_TOTAL_TIME_T, t.total_us);
  curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &facts.http_version);
  return facts;
}

TransportVerdict classify_transfer(const TransferFacts& facts, const char* error_buffer,
                                   const std::string& url) {
  if (facts.code == CURLE_OK) return {};
  const std::string detail = (error_buffer != nullptr && error_buffer[0] != '\0')
                                 ? error_buffer
                                 : curl_easy_strerror(facts.code);
  return classify_curl_result(facts, detail, url);
}

TransportVerdict classify_transfer(CURL* easy, CURLcode code, const char* error_buffer,
                                   const std::string& url) {
  if (code == CURLE_OK) return {};
  return classify_transfer(read_transfer_facts(easy, code), error_buffer, url);
}

TransportVerdict classify_curl_result(const TransferFacts& facts, const std::string& detail,
                                      const std::string& given_url) {
  const std::string url = url_without_userinfo(given_url);  // messages never show credentials
  const long os_errno = facts.os_errno;
  switch (facts.code) {
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
      if (!facts.connected) {
        return {ErrorKind::kConnectTimeout, fmt::format("connect timeout: {}", detail)};
      }
      return {ErrorKind::kTimeoutTotal, fmt::format("total timeout: {}", detail)};
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
      if (!facts.response_started) {
        return {ErrorKind::kNoResponse,
                fmt::format("no response: the {} connection was closed before any response byte "
                            "arrived: {}",
                            facts.reused ? "reused" : "new", detail),
                facts.reused};
      }
      [[fallthrough]];
    case CURLE_PARTIAL_FILE:
      return {ErrorKind::kStreamTruncated,
              fmt::format("connection ended before the response was complete: {}", detail)};
    default:
      return {ErrorKind::kTransport,
              fmt::format("{} (curl error {})", detail, static_cast<int>(facts.code))};
  }
}

}  // namespace llmperf

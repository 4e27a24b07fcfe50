// The HTTP phases of one request as libcurl timed them (DNS lookup, TCP connect, TLS handshake,
// request sent, wait for the first byte, receive), whether its connection was new or reused, and
// the HTTP version it was carried by. A part of RequestRecord, read once per request at its end.
#pragma once

#include <cstdint>
#include <string_view>

namespace llmperf {

// The HTTP version the client asks for: HTTP/1.1 (one request per connection at a time), HTTP/2
// over TLS negotiated by ALPN (--http2; HTTP/1.1 when the server declines), or HTTP/2 in clear
// text without negotiation (h2c, --http2-prior-knowledge).
enum class HttpMode : uint8_t { kHttp1, kHttp2, kHttp2PriorKnowledge };

// The HTTP version a response came back with (CURLINFO_HTTP_VERSION).
enum class HttpVersion : uint8_t { kUnknown, kHttp10, kHttp11, kHttp2, kHttp3 };

// "http/1.0", "http/1.1", "h2", "h3" (ALPN's names), "" for kUnknown.
std::string_view http_version_name(HttpVersion version);
// The inverse of http_version_name; kUnknown for any other text.
HttpVersion http_version_from_name(std::string_view name);

// Each phase stands alone (they are differences of curl's cumulative times) and they add up to
// curl's total time of the transfer. A phase that did not happen is 0: DNS, connect and TLS on a
// reused connection, TLS over plain HTTP. All in nanoseconds (curl measures microseconds).
struct HttpPhases {
  bool measured = false;  // false: curl did not finish the transfer (aborted), nothing below is set
  bool new_connection = false;  // the request opened a connection (CURLINFO_NUM_CONNECTS > 0)
  HttpVersion version = HttpVersion::kUnknown;
  int64_t dns_ns = 0;      // name lookup (NAMELOOKUP)
  int64_t connect_ns = 0;  // TCP connect (CONNECT - NAMELOOKUP)
  int64_t tls_ns = 0;      // TLS handshake (APPCONNECT - CONNECT)
  // From the connection being ready until curl was about to send the request (PRETRANSFER -
  // APPCONNECT, or - CONNECT without TLS): curl's protocol set-up, the request's "sent" mark.
  int64_t send_ns = 0;
  // Request upload and the server's time to its first response byte (STARTTRANSFER - PRETRANSFER).
  int64_t wait_ns = 0;
  int64_t receive_ns = 0;  // first response byte to the last (TOTAL - STARTTRANSFER)

  int64_t total_ns() const { return dns_ns + connect_ns + tls_ns + send_ns + wait_ns + receive_ns; }
};

}  // namespace llmperf

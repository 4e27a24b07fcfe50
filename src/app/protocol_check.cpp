// Warns when a run that asked for HTTP/2 was answered in HTTP/1.x (see protocol_check.h).
#include "app/protocol_check.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "http/curl_transport.h"

namespace llmperf {

std::string http_version_fallback(HttpMode asked, const RunSummary& summary) {
  if (asked == HttpMode::kHttp1) return "";
  const bool tls = asked == HttpMode::kHttp2;  // --http2 (ALPN), else --http2-prior-knowledge
  int64_t http1 = 0;
  int64_t total = 0;
  for (const auto& [name, count] : summary.http.protocols) {
    total += count;
    if (name == "http/1.1" || name == "http/1.0") http1 += count;
  }
  if (http1 == 0) return "";
  return fmt::format(
      "{} asked for HTTP/2, but the server answered {} of {} requests in HTTP/1.1{}; the records' "
      "http_version says which",
      tls ? "--http2" : "--http2-prior-knowledge", http1, total,
      tls
          ? " (it did not offer h2 in the TLS handshake's ALPN, or the URL is http://: "
            "use --http2-prior-knowledge for h2c)"
          : "");
}

void warn_http_version_fallback(HttpMode asked, const RunSummary& summary) {
  const std::string warning = http_version_fallback(asked, summary);
  if (!warning.empty()) spdlog::warn("{}", warning);
  if (asked == HttpMode::kHttp2PriorKnowledge && h2c_reuse_broken()) {
    spdlog::warn(
        "--http2-prior-knowledge: this libcurl ({}) breaks h2c connections it reuses (curl issue "
        "10634, fixed in 8.0.0), so each request had a connection of its own: no multiplexing",
        curl_version_info(CURLVERSION_NOW)->version);
  }
}

}  // namespace llmperf

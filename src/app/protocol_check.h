// The HTTP version a run actually used against the one it asked for: --http2 is negotiated by
// ALPN, and a server (or a proxy in front of it) that does not offer h2 answers in HTTP/1.1.
#pragma once

#include <string>

#include "core/http_phases.h"
#include "metrics/metrics.h"

namespace llmperf {

// The warning to give when --http2 or --http2-prior-knowledge was asked (`asked`: the request
// settings' mode) and responses of the run came back in HTTP/1.x ("" when none did, or HTTP/2 was
// not asked for).
std::string http_version_fallback(HttpMode asked, const RunSummary& summary);

// Logs http_version_fallback's warning, once per run, when there is one; and, with
// --http2-prior-knowledge on a libcurl that cannot reuse h2c connections, that it did not.
void warn_http_version_fallback(HttpMode asked, const RunSummary& summary);

}  // namespace llmperf

// The HTTP phases of a run (RunSummary::http) as the reports show them: summary.json's "http"
// block, the text summary's one line (and its table under --verbose), and report.html's stacked
// chart of the phase means, new vs reused connections. Private to src/report/.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "metrics/metrics.h"

namespace llmperf::report_detail {

// summary.json's "http": connections, protocols and a distribution per phase (ms) for new and
// reused connections; null when no request has phases (a run rebuilt from an older file).
nlohmann::ordered_json http_json(const RunSummary& summary);

// "HTTP phases (mean ms, dns/connect/tls/send/wait/receive): new 12: ... · reused 988: ... ·
// http/1.1 1000\n"; "" when no request has phases.
std::string http_phases_line(const RunSummary& summary);

// A table of every phase (mean, P50, P99 in ms), new vs reused connections; "" when none.
std::string http_phases_table(const RunSummary& summary);

// An inline SVG: one horizontal bar per kind of connection, stacked by phase mean (ms); "" when
// no request has phases.
std::string http_phases_svg(const RunSummary& summary);

}  // namespace llmperf::report_detail

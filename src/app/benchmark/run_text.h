// A run's block for a terminal, assembled from the report stage's renderers in this order: the
// text summary, the load, the server, goodput and --slo, --baseline FILE, --baseline db:FILE, the
// length warning, the early stop and the Pushgateway.
#pragma once

#include <string>

#include "app/benchmark.h"
#include "report/report.h"

namespace llmperf {

std::string render_run_text(const ReportOptions& report, const RunResult& run);

}  // namespace llmperf

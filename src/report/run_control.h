// Reports of how runs were controlled: a run stopped early (--max-errors, --max-error-rate,
// --stop-on-saturation) and the repeats of a run (--num-runs) with their confidence intervals.
#pragma once

#include <string>

#include "report/report.h"

namespace llmperf {

// The line that ends a stopped run's text ("Stopped early: ..."); "" when it ran to the end.
std::string render_stopped_early_text(const RunInfo& info);

}  // namespace llmperf

// What each stage below the plan takes of a Config, worked out here so that none of them sees the
// whole Config: the reports' options (with summary.json's config block and the credentials to
// scrub), what every run's summary shares and the identity that the shards of a benchmark share.
// (The engine's share, request_settings, and the prepare stage's, prepare_sections, are
// run_plan.h's; the verdicts', verdict_plan.h's.) Pure: no I/O.
#pragma once

#include <string>

#include "core/config.h"
#include "metrics/metrics.h"
#include "report/report.h"

namespace llmperf {

// The report options of a run of `config`, with what its benchmark resolved before the first run
// (run_plan.h's plan_benchmark: the model, a trace's -n and rate); the one-argument form takes the
// flags as given.
ReportOptions report_options(const Config& config, const ResolvedFlags& resolved);
inline ReportOptions report_options(const Config& config) {
  return report_options(config, as_given(config));
}

// What every run's summary shares: --percentiles, --goodput, --ignore-eos, the URLs, whether
// cancelled requests count, and the ramp-up's segments. Each run adds whether it is open-loop and
// its origin.
MetricsOptions metrics_options(const Config& config);

// The identity of a benchmark that shards share: a hash of its config block (without where its
// outputs go) and --start-at, as 16 hex digits.
std::string benchmark_run_id(const Config& config, const ResolvedFlags& resolved);

}  // namespace llmperf

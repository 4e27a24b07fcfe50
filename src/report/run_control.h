// Reports of how runs were controlled: a run stopped early (--max-errors, --max-error-rate,
// --stop-on-saturation) and the repeats of a run (--num-runs) with their confidence intervals.
#pragma once

#include <string>

#include "report/report.h"
#include "verdict/repeats.h"

namespace llmperf {

// The line that ends a stopped run's text ("Stopped early: ..."); "" when it ran to the end.
std::string render_stopped_early_text(const RunInfo& info);

// summary.json's "repeats" block: key -> {"n", "mean", "ci95_low", "ci95_high", "cv", "noisy",
// "values"}, means and bounds rounded to 6 significant digits.
std::string repeats_json(const std::vector<RepeatedMetric>& metrics);

// Writes `dir`/summary.json for a run repeated --num-runs times: the last repeat's summary (`last`,
// its run.output_dir set to `dir`) with the "repeats" block.
void write_repeats_summary(const ReportOptions& options, const std::string& dir,
                           const SweepRow& last, const std::vector<RepeatedMetric>& metrics);

// The text of one repeated run: a table of each key metric's mean, 95 % interval and CV over the
// repeats, noisy ones flagged (CV above 5 %). `title` names the run, e.g. "parallel 4".
std::string render_repeats_text(const std::string& title, size_t repeats,
                                const std::vector<RepeatedMetric>& metrics);

}  // namespace llmperf

// Reports of how runs were controlled: a run stopped early (--max-errors, --max-error-rate,
// --stop-on-saturation) and the repeats of a run (--num-runs) with their confidence intervals.
#pragma once

#include <string>

#include "report/report.h"
#include "verdict/repeats.h"
#include "verdict/slo.h"

namespace llmperf {

// A run repeated --num-runs times: where its repeats are, its key metrics over them and its --slo
// verdict on their intervals (verdict/slo.h: evaluate_slos_on_repeats).
struct RepeatedRun {
  std::string name;                     // the run's name, e.g. "parallel_4_number_100"
  std::string output_dir;               // <run dir>: its summary.json, repeat_<k>/ below it
  size_t first_run = 0;                 // index of its first repeat among the benchmark's runs
  size_t count = 0;                     // repeats that ran
  std::vector<RepeatedMetric> metrics;  // key metrics: mean, 95 % interval, CV
  RunVerdict verdict;                   // --slo on the intervals (no results without --slo)
};

// The sweep's table of repeated runs: one column per run, one row per key metric, each cell
// "mean ± half-width of the 95 % interval" with the CV, noisy ones marked; for the closing text.
std::string render_repeats_sweep_text(const std::vector<RepeatedRun>& runs);

// Writes sweep_repeats.json (per run: name, output_dir, repeats, and per key metric n, mean,
// ci95_low, ci95_high, cv, noisy), sweep_repeats.csv (one line per run and metric) and
// sweep_repeats.md (render_repeats_sweep_text's table) into `dir`.
void write_repeats_sweep_outputs(const std::string& dir, const std::vector<RepeatedRun>& runs);

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

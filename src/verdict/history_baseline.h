// Regression detection against a run history (`--baseline db:FILE`): a run's metric is judged
// against the same metric in the last N comparable runs of the history database, not against one
// earlier run. Pure: the runs are read by store/history_reader.h, the current run's figures come
// from report/files/summary_figures.h, and the text is rendered in report/history/.
//
// The rule, per metric:
//   baseline  = the median of the history's values
//   MAD       = the median absolute deviation from that median, scaled by 1.4826 so that it
//               estimates the standard deviation of normally distributed noise (k then reads as
//               "k sigmas": k = 3 flags about 3 runs in 1000 of pure noise)
//   band      = baseline ± max(k × MAD, floor), floor = max(kMinRelativeBand × |baseline|,
//               the metric's absolute floor): a history of identical values (MAD 0) would
//               otherwise fail any change at all
//   verdict   = regression when the value is outside the band on the worse side (above it for
//               latencies, below it for throughputs: higher_is_better in verdict/slo.h),
//               improved outside on the better side, ok inside; not judged with fewer than
//               kMinHistoryRuns values or without a current value
// Issue 27's example (30 runs of p99 TTFT 200 ms ± 5 % noise: 210 ms passes, 260 ms fails) holds
// both with and without the 1.4826 factor (uniform ±5 % noise: MAD ≈ 5 ms, band ±15 or ±22 ms;
// normal noise of σ = 10 ms: MAD ≈ 6.7 ms, band ±20 or ±30 ms); the factor is kept so that k means
// the same as in the statistics literature and ordinary noise rarely fails a build.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/history_entry.h"
#include "verdict/metric_verdict.h"

namespace llmperf {

inline constexpr int kDefaultBaselineRuns = 10;    // --baseline-runs: the last N matching runs
inline constexpr double kDefaultNoiseK = 3;         // --noise-k: band half-width in MADs
inline constexpr int kMinHistoryRuns = 3;           // fewer matching runs: not judged
inline constexpr double kMadScale = 1.4826;         // MAD -> standard deviation (normal noise)
inline constexpr double kMinRelativeBand = 0.02;    // the band is at least ±2 % of the median

// What `--baseline` names: a summary.json (the one-run comparison of verdict/baseline.h) or,
// with the "db:" prefix, a history database.
struct BaselineSource {
  bool history = false;  // "db:FILE"
  std::string path;      // the summary.json or the database file
};

// Parses --baseline's text: "db:FILE" (FILE not empty) or a summary.json path. Throws
// std::invalid_argument naming --baseline for "db:" without a file or text with a control
// character.
BaselineSource parse_baseline_source(std::string_view text);

// The median of `values` (not empty; NaN when empty).
double median_of(std::vector<double> values);

// The scaled median absolute deviation from `center` (kMadScale × median |v - center|).
double scaled_mad(const std::vector<double>& values, double center);

// One value of the history: the run it came from and its value.
struct HistoryValue {
  std::string run_id;      // the run's id in the database
  std::string started_at;  // ISO-8601 UTC
  double value = 0;        // in the metric's unit
};

// The judgement of one metric.
struct HistoryJudgement {
  std::string metric;             // "ttft.p99", "output_throughput"
  std::string unit;               // "ms", "tok/s", "" (fractions)
  bool higher_is_better = false;  // direction of "better"
  std::optional<double> current;  // this run's value
  size_t runs = 0;                // history values the band came from
  double median = 0;              // the baseline
  double mad = 0;                 // scaled MAD
  double half_width = 0;          // max(k × MAD, floor)
  double k = kDefaultNoiseK;
  std::string first_run_id, last_run_id;          // the oldest and newest run of the history
  std::string first_started_at, last_started_at;  // their start times
  MetricVerdict verdict = MetricVerdict::kNotJudged;
  std::string text;  // one line naming the metric, the value, the band and the runs
};

// Parameters of the judgement (--baseline-runs, --noise-k).
struct HistoryBaselineOptions {
  int runs = kDefaultBaselineRuns;  // the last N matching runs
  double k = kDefaultNoiseK;        // band half-width in scaled MADs
};

// The band's smallest half-width for the figure named `metric` ("error_rate", "ttft.p99"): 0.01
// (one point) for a fraction of the catalogue, 0 otherwise.
double history_absolute_floor(std::string_view metric);

// Judges `current` against `history` (oldest first; only the last options.runs are used) for a
// metric named as --slo names it. `absolute_floor` is the smallest band half-width in the
// metric's unit (0.01 for fractions such as error_rate: one point).
HistoryJudgement judge_against_history(const std::string& metric, const std::string& unit,
                                       const std::vector<HistoryValue>& history,
                                       std::optional<double> current,
                                       const HistoryBaselineOptions& options,
                                       double absolute_floor = 0);

// Whether more of the metric is better ("output_throughput", "qps", "success_rate": yes); by
// verdict/slo.h's higher_is_better, false for names it does not know.
bool metric_higher_is_better(const std::string& metric);

// One run's judgement against the history database.
struct HistoryComparison {
  std::string run_name;  // the run within its benchmark, e.g. "parallel_8_number_100"
  std::string db_path;   // the history database
  std::string match;     // which runs were compared, e.g. "name smoke, tags env=staging"
  std::vector<HistoryJudgement> rows;
  std::string error;       // the database could not be read: why (no rows then)
  bool regressed() const;  // any row is a regression, or the database could not be read
};

// The metrics --baseline db: judges, as --slo names them: those the summary.json baseline
// compares (qps, output_throughput, latency/ttft/tpot/itl mean and p99, error_rate).
const std::vector<std::string>& history_baseline_metrics();

// This run's figures (by name, "ttft.p99" -> value and unit) judged against the history's `runs`
// (oldest first), one row per metric of history_baseline_metrics(): each metric's stored values
// and unit, this run's unit where it has the figure; fractions (error_rate, success_rate) with a
// floor of one point.
std::vector<HistoryJudgement> judge_run_against_history(
    const std::vector<HistoryEntry>& runs, const std::map<std::string, HistoryEntryFigure>& current,
    const HistoryBaselineOptions& options);

}  // namespace llmperf

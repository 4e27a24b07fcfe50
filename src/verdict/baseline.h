// Baseline comparison (`--baseline PATH/summary.json [--tolerance 10%]`): compares a run's key
// metrics with those of a stored llmperf summary.json (read by report's load_baseline). A metric
// regresses when it is worse than the baseline by more than the tolerance, relative to the baseline
// value (QPS and output throughput: higher is better; latency, TTFT, TPOT and ITL mean and p99:
// lower is better). The error rate is compared in percentage points instead (a relative change from
// 0 % means nothing): it regresses when it rises by more than tolerance x 10 points, i.e. 1 point
// at 10 %. A value exactly at the tolerance is ok. A metric missing on either side is shown as "-"
// and not judged.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "metrics/metrics.h"
#include "verdict/metric_verdict.h"

namespace llmperf {

inline constexpr double kDefaultTolerance = 0.10;  // --tolerance default (10 %)

// The compared metrics of one run, in summary.json's units; absent when the run lacks them.
struct KeyMetrics {
  std::optional<double> qps;                 // successful requests / window (req/s)
  std::optional<double> output_throughput;   // output tokens / window (tok/s)
  std::optional<double> latency_mean_s;      // E2E latency mean (s)
  std::optional<double> latency_p99_s;       // E2E latency p99 (s)
  std::optional<double> ttft_mean_ms;        // TTFT mean (ms)
  std::optional<double> ttft_p99_ms;         // TTFT p99 (ms)
  std::optional<double> tpot_mean_ms;        // TPOT mean (ms)
  std::optional<double> tpot_p99_ms;         // TPOT p99 (ms)
  std::optional<double> itl_mean_ms;         // ITL mean (ms)
  std::optional<double> itl_p99_ms;          // ITL p99 (ms)
  std::optional<double> error_rate_percent;  // failed / total x 100 (%)
};

// A stored run read back from its summary.json (report's load_baseline).
struct BaselineSummary {
  std::string path;         // the file it was read from
  std::string description;  // e.g. "parallel 8, number 100, 2026-11-21T12:48:33Z"
  KeyMetrics metrics;       // its key metrics
  // Its "repeats" (a run made with --num-runs): key -> 95 % interval of the mean (verdict/
  // repeats.h); empty otherwise.
  std::map<std::string, std::pair<double, double>> repeat_intervals;
};

// KeyMetrics' field for key_figures()[i] (metrics/catalogue.h: each figure's name, label, unit
// and direction): the one map between the two.
std::optional<double>& key_metric(KeyMetrics& metrics, size_t i);
const std::optional<double>& key_metric(const KeyMetrics& metrics, size_t i);

// The key metrics of a run just measured (p99 only when 99 is among summary.percentiles).
KeyMetrics key_metrics(const RunSummary& summary);

// Parses --tolerance: "10%" or a fraction "0.1" (0 to 1). Throws std::invalid_argument naming
// --tolerance and the text.
double parse_tolerance(const std::string& text);

// One compared metric.
struct BaselineRow {
  std::string metric;              // display name with unit, e.g. "TTFT p99 (ms)"
  std::optional<double> baseline;  // the stored run's value
  std::optional<double> current;   // this run's value
  std::optional<double> change;    // relative change in % (or points for the error rate)
  bool change_in_points = false;   // `change` is in percentage points (error rate)
  bool higher_is_better = false;   // direction of "better"
  MetricVerdict verdict = MetricVerdict::kNotJudged;
};

struct BaselineComparison {
  std::string baseline_path;             // where the baseline came from
  std::string baseline_description;      // BaselineSummary::description
  double tolerance = kDefaultTolerance;  // allowed relative worsening (0.1 = 10 %)
  std::vector<BaselineRow> rows;         // in a fixed order: throughput first, then latencies
  bool regressed() const;                // any row is a regression
};

// Compares `current` with the baseline, metric by metric (pure).
BaselineComparison compare_to_baseline(const BaselineSummary& baseline, const RunSummary& current,
                                       double tolerance_fraction);

// The same, for key metrics already taken (the means of repeated runs).
BaselineComparison compare_key_metrics(const BaselineSummary& baseline, const KeyMetrics& current,
                                       double tolerance_fraction);

}  // namespace llmperf

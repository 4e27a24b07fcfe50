// Repeated runs (--num-runs K), pure: each key metric's mean across the K repeats of a run, its 95
// % confidence interval (Student t) and coefficient of variation, and the baseline verdict on
// intervals. The key metrics are the ones --baseline compares (verdict/baseline.h).
//   Interval verdict: a metric regresses (or improves) only when the rule of baseline.h, applied
//   to the means, says so AND the two 95 % intervals do not overlap. The baseline's interval is
//   its summary.json's "repeats" interval when it has one (a run made with --num-runs); otherwise
//   its single value, an interval of width 0: the current interval must then lie wholly on the
//   worse side of that value.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "metrics/stats/confidence.h"
#include "verdict/baseline.h"

namespace llmperf {

// A metric whose coefficient of variation across repeats is above this is flagged noisy.
inline constexpr double kNoisyCv = 0.05;

// One key metric across the repeats.
struct RepeatedMetric {
  std::string key;             // summary.json's "repeats" key, e.g. "ttft_p99_ms"
  std::string label;           // display name with unit, e.g. "TTFT p99 (ms)"
  MeanInterval interval;       // mean, 95 % interval and CV over the repeats that have it
  std::vector<double> values;  // each repeat's value, in run order
  bool noisy() const { return interval.cv > kNoisyCv; }
};

// The key metrics of `repeats` (one KeyMetrics per repeat, in run order), in baseline.h's order;
// a metric missing from every repeat is left out, one missing from some uses the others.
std::vector<RepeatedMetric> repeated_metrics(const std::vector<KeyMetrics>& repeats);

// The means as KeyMetrics (for the interval verdict and the text).
KeyMetrics repeated_means(const std::vector<RepeatedMetric>& metrics);

// Judges the repeated metrics against the baseline on intervals (the rule above). `intervals` of
// the baseline come from its "repeats" (key -> interval; empty: none).
BaselineComparison compare_repeats_to_baseline(const BaselineSummary& baseline,
                                               const std::vector<RepeatedMetric>& current,
                                               double tolerance_fraction);

}  // namespace llmperf

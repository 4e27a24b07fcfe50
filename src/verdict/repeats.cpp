// Repeated runs (see repeats.h).
#include "verdict/repeats.h"

#include <array>
#include <optional>

namespace llmperf {
namespace {

// The key metrics in baseline.cpp's order (its rows come out in this order too).
struct RepeatKey {
  std::optional<double> KeyMetrics::*field;
  const char* key;
  const char* label;
};
constexpr std::array<RepeatKey, 11> kRepeatKeys = {{
    {&KeyMetrics::qps, "qps", "QPS (req/s)"},
    {&KeyMetrics::output_throughput, "output_throughput_tok_s", "Output throughput (tok/s)"},
    {&KeyMetrics::latency_mean_s, "latency_mean_s", "Latency mean (s)"},
    {&KeyMetrics::latency_p99_s, "latency_p99_s", "Latency p99 (s)"},
    {&KeyMetrics::ttft_mean_ms, "ttft_mean_ms", "TTFT mean (ms)"},
    {&KeyMetrics::ttft_p99_ms, "ttft_p99_ms", "TTFT p99 (ms)"},
    {&KeyMetrics::tpot_mean_ms, "tpot_mean_ms", "TPOT mean (ms)"},
    {&KeyMetrics::tpot_p99_ms, "tpot_p99_ms", "TPOT p99 (ms)"},
    {&KeyMetrics::itl_mean_ms, "itl_mean_ms", "ITL mean (ms)"},
    {&KeyMetrics::itl_p99_ms, "itl_p99_ms", "ITL p99 (ms)"},
    {&KeyMetrics::error_rate_percent, "error_rate_percent", "Error rate (%)"},
}};

}  // namespace

std::vector<RepeatedMetric> repeated_metrics(const std::vector<KeyMetrics>& repeats) {
  std::vector<RepeatedMetric> out;
  for (const RepeatKey& k : kRepeatKeys) {
    RepeatedMetric metric{k.key, k.label, {}, {}};
    for (const KeyMetrics& run : repeats) {
      if (const std::optional<double>& v = run.*(k.field)) metric.values.push_back(*v);
    }
    if (metric.values.empty()) continue;
    metric.interval = mean_interval(metric.values);
    out.push_back(std::move(metric));
  }
  return out;
}

KeyMetrics repeated_means(const std::vector<RepeatedMetric>& metrics) {
  KeyMetrics means;
  for (const RepeatedMetric& metric : metrics) {
    for (const RepeatKey& k : kRepeatKeys) {
      if (metric.key == k.key) means.*(k.field) = metric.interval.mean;
    }
  }
  return means;
}

BaselineComparison compare_repeats_to_baseline(const BaselineSummary& baseline,
                                               const std::vector<RepeatedMetric>& current,
                                               double tolerance_fraction) {
  BaselineComparison comparison =
      compare_key_metrics(baseline, repeated_means(current), tolerance_fraction);
  for (size_t i = 0; i < comparison.rows.size() && i < kRepeatKeys.size(); ++i) {
    BaselineRow& row = comparison.rows[i];
    if (row.verdict != MetricVerdict::kRegression && row.verdict != MetricVerdict::kImproved) {
      continue;
    }
    const std::string key = kRepeatKeys[i].key;
    double low = *row.baseline;  // the baseline's single value, unless it has an interval
    double high = *row.baseline;
    if (const auto it = baseline.repeat_intervals.find(key);
        it != baseline.repeat_intervals.end()) {
      low = it->second.first;
      high = it->second.second;
    }
    for (const RepeatedMetric& metric : current) {
      if (metric.key != key) continue;
      const bool overlap = metric.interval.ci95_low <= high && low <= metric.interval.ci95_high;
      if (overlap) row.verdict = MetricVerdict::kOk;  // within the noise of the two
    }
  }
  return comparison;
}

}  // namespace llmperf

// Repeated runs (see repeats.h).
#include "verdict/repeats.h"

#include <cstddef>
#include <optional>
#include <string>

#include "metrics/catalogue.h"

namespace llmperf {

std::vector<RepeatedMetric> repeated_metrics(const std::vector<KeyMetrics>& repeats) {
  std::vector<RepeatedMetric> out;
  for (size_t i = 0; i < key_figures().size(); ++i) {
    const KeyFigure& figure = key_figures()[i];
    RepeatedMetric metric{figure_key(figure), figure_label(figure), {}, {}};
    for (const KeyMetrics& run : repeats) {
      if (const std::optional<double>& v = key_metric(run, i)) metric.values.push_back(*v);
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
    for (size_t i = 0; i < key_figures().size(); ++i) {
      if (metric.key == figure_key(key_figures()[i])) key_metric(means, i) = metric.interval.mean;
    }
  }
  return means;
}

BaselineComparison compare_repeats_to_baseline(const BaselineSummary& baseline,
                                               const std::vector<RepeatedMetric>& current,
                                               double tolerance_fraction) {
  BaselineComparison comparison =
      compare_key_metrics(baseline, repeated_means(current), tolerance_fraction);
  for (size_t i = 0; i < comparison.rows.size() && i < key_figures().size(); ++i) {
    BaselineRow& row = comparison.rows[i];
    if (row.verdict != MetricVerdict::kRegression && row.verdict != MetricVerdict::kImproved) {
      continue;
    }
    const std::string key = figure_key(key_figures()[i]);
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

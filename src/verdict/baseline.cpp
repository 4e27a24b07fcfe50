// Baseline comparison: judging a run's key metrics against a stored run's within a tolerance. The
// rules are in baseline.h; the stored run is read by report's load_baseline (report/files/summary_file.cpp) and
// the table is rendered in report/text/verdict_text.cpp.
#include "verdict/baseline.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

constexpr double kEpsilon = 1e-9;           // slack so a change exactly at the tolerance is ok
constexpr double kPointsPerTolerance = 10;  // error rate: allowed points = tolerance x 10

// KeyMetrics' fields in key_figures() order.
constexpr std::optional<double> KeyMetrics::*kFields[] = {
    &KeyMetrics::qps,          &KeyMetrics::output_throughput, &KeyMetrics::latency_mean_s,
    &KeyMetrics::latency_p99_s, &KeyMetrics::ttft_mean_ms,     &KeyMetrics::ttft_p99_ms,
    &KeyMetrics::tpot_mean_ms, &KeyMetrics::tpot_p99_ms,       &KeyMetrics::itl_mean_ms,
    &KeyMetrics::itl_p99_ms,   &KeyMetrics::error_rate_percent,
};
static_assert(std::size(kFields) == kKeyFigureCount);

BaselineRow compare_row(const KeyFigure& figure, std::optional<double> base,
                        std::optional<double> now, double tolerance) {
  const MetricInfo& metric = figure_metric(figure);
  BaselineRow row;
  row.metric = figure_label(figure);
  row.baseline = base;
  row.current = now;
  row.change_in_points = metric.kind == MetricKind::kFraction;  // judged in percentage points
  row.higher_is_better = metric.higher_is_better;
  if (!base || !now) return row;

  // `worse` > 0 means the current run is worse; both it and `allowed` are in the same scale.
  double worse = 0;
  double allowed = 0;
  if (row.change_in_points) {
    row.change = *now - *base;
    worse = *row.change;
    allowed = tolerance * kPointsPerTolerance;
  } else if (*base != 0) {
    const double relative = (*now - *base) / std::fabs(*base);
    row.change = relative * 100;
    worse = row.higher_is_better ? -relative : relative;
    allowed = tolerance;
  } else {
    // No relative change from 0: any difference counts fully.
    const double diff = *now - *base;
    worse = row.higher_is_better ? -diff : diff;
    allowed = 0;
  }
  if (worse > allowed + kEpsilon) {
    row.verdict = MetricVerdict::kRegression;
  } else if (-worse > allowed + kEpsilon) {
    row.verdict = MetricVerdict::kImproved;
  } else {
    row.verdict = MetricVerdict::kOk;
  }
  return row;
}

}  // namespace

bool BaselineComparison::regressed() const {
  return std::any_of(rows.begin(), rows.end(),
                     [](const BaselineRow& r) { return r.verdict == MetricVerdict::kRegression; });
}

std::optional<double>& key_metric(KeyMetrics& metrics, size_t i) { return metrics.*kFields[i]; }

const std::optional<double>& key_metric(const KeyMetrics& metrics, size_t i) {
  return metrics.*kFields[i];
}

KeyMetrics key_metrics(const RunSummary& s) {
  KeyMetrics m;
  for (size_t i = 0; i < key_figures().size(); ++i) {
    key_metric(m, i) = key_figure_value(key_figures()[i], s);
  }
  return m;
}

double parse_tolerance(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--tolerance '{}': {}", text, why));
  };
  std::string_view digits = text;
  const bool percent = !digits.empty() && digits.back() == '%';
  if (percent) digits.remove_suffix(1);
  double value = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    throw fail("expected a percentage such as 10% or a fraction such as 0.1");
  }
  if (value < 0) throw fail("must not be negative");
  if (percent) return value / 100;
  if (value > 1) {
    throw fail(
        fmt::format("a plain number is a fraction from 0 to 1; write {}% for percent", digits));
  }
  return value;
}

BaselineComparison compare_to_baseline(const BaselineSummary& baseline, const RunSummary& current,
                                       double tolerance_fraction) {
  return compare_key_metrics(baseline, key_metrics(current), tolerance_fraction);
}

BaselineComparison compare_key_metrics(const BaselineSummary& baseline, const KeyMetrics& now,
                                       double tolerance_fraction) {
  BaselineComparison comparison;
  comparison.baseline_path = baseline.path;
  comparison.baseline_description = baseline.description;
  comparison.tolerance = tolerance_fraction;
  for (size_t i = 0; i < key_figures().size(); ++i) {
    comparison.rows.push_back(compare_row(key_figures()[i], key_metric(baseline.metrics, i),
                                          key_metric(now, i), tolerance_fraction));
  }
  return comparison;
}

}  // namespace llmperf

// Baseline comparison: judging a run's key metrics against a stored run's within a tolerance. The
// rules are in baseline.h; the stored run is read by report's load_baseline (report/files/summary_file.cpp) and
// the table is rendered in report/text/verdict_text.cpp.
#include "verdict/baseline.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace llmperf {
namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;
constexpr double kEpsilon = 1e-9;           // slack so a change exactly at the tolerance is ok
constexpr double kPointsPerTolerance = 10;  // error rate: allowed points = tolerance x 10

// One compared metric: where it lives in KeyMetrics, its display name and direction.
struct KeyMetricDef {
  std::optional<double> KeyMetrics::*field;
  const char* label;
  bool higher_is_better;
  bool in_points;  // judged by absolute change in percentage points
};

constexpr KeyMetricDef kKeyMetrics[] = {
    {&KeyMetrics::qps, "QPS (req/s)", true, false},
    {&KeyMetrics::output_throughput, "Output throughput (tok/s)", true, false},
    {&KeyMetrics::latency_mean_s, "Latency mean (s)", false, false},
    {&KeyMetrics::latency_p99_s, "Latency p99 (s)", false, false},
    {&KeyMetrics::ttft_mean_ms, "TTFT mean (ms)", false, false},
    {&KeyMetrics::ttft_p99_ms, "TTFT p99 (ms)", false, false},
    {&KeyMetrics::tpot_mean_ms, "TPOT mean (ms)", false, false},
    {&KeyMetrics::tpot_p99_ms, "TPOT p99 (ms)", false, false},
    {&KeyMetrics::itl_mean_ms, "ITL mean (ms)", false, false},
    {&KeyMetrics::itl_p99_ms, "ITL p99 (ms)", false, false},
    {&KeyMetrics::error_rate_percent, "Error rate (%)", false, true},
};

std::optional<double> finite(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<double> mean_of(const Distribution& d, double unit) {
  if (d.empty()) return std::nullopt;
  return finite(d.mean / unit);
}

std::optional<double> p99_of(const Distribution& d, const std::vector<double>& percentiles,
                             double unit) {
  if (d.empty()) return std::nullopt;
  for (size_t i = 0; i < percentiles.size() && i < d.percentiles.size(); ++i) {
    if (percentiles[i] == 99) return finite(d.percentiles[i] / unit);
  }
  return std::nullopt;
}

BaselineRow compare_row(const KeyMetricDef& def, std::optional<double> base,
                        std::optional<double> now, double tolerance) {
  BaselineRow row;
  row.metric = def.label;
  row.baseline = base;
  row.current = now;
  row.change_in_points = def.in_points;
  row.higher_is_better = def.higher_is_better;
  if (!base || !now) return row;

  // `worse` > 0 means the current run is worse; both it and `allowed` are in the same scale.
  double worse = 0;
  double allowed = 0;
  if (def.in_points) {
    row.change = *now - *base;
    worse = *row.change;
    allowed = tolerance * kPointsPerTolerance;
  } else if (*base != 0) {
    const double relative = (*now - *base) / std::fabs(*base);
    row.change = relative * 100;
    worse = def.higher_is_better ? -relative : relative;
    allowed = tolerance;
  } else {
    // No relative change from 0: any difference counts fully.
    const double diff = *now - *base;
    worse = def.higher_is_better ? -diff : diff;
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

KeyMetrics key_metrics(const RunSummary& s) {
  KeyMetrics m;
  if (s.window_ns > 0) {
    m.qps = finite(s.qps);
    m.output_throughput = finite(s.output_throughput);
  }
  const auto& p = s.percentiles;
  m.latency_mean_s = mean_of(s.latency_ns, kNsPerS);
  m.latency_p99_s = p99_of(s.latency_ns, p, kNsPerS);
  m.ttft_mean_ms = mean_of(s.ttft_ns, kNsPerMs);
  m.ttft_p99_ms = p99_of(s.ttft_ns, p, kNsPerMs);
  m.tpot_mean_ms = mean_of(s.tpot_ns, kNsPerMs);
  m.tpot_p99_ms = p99_of(s.tpot_ns, p, kNsPerMs);
  m.itl_mean_ms = mean_of(s.itl_ns, kNsPerMs);
  m.itl_p99_ms = p99_of(s.itl_ns, p, kNsPerMs);
  if (s.total > 0) {
    m.error_rate_percent = static_cast<double>(s.failed) / static_cast<double>(s.total) * 100;
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
  for (const KeyMetricDef& def : kKeyMetrics) {
    comparison.rows.push_back(
        compare_row(def, baseline.metrics.*(def.field), now.*(def.field), tolerance_fraction));
  }
  return comparison;
}

}  // namespace llmperf

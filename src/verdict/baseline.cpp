// Baseline comparison: reading key metrics back from a stored summary.json ("llmperf.summary/1",
// written by report/summary_json.cpp) and judging a run against them within a tolerance. The rules
// are in baseline.h; the table is rendered in report/verdict_text.cpp.
#include "verdict/baseline.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "verdict/summary_schema.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

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

// A finite number at object[key], or nullopt (missing, null, not a number).
std::optional<double> number_at(const Json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return finite(it->get<double>());
}

// metrics.<name>.mean and metrics.<name>.percentiles.p99 of a summary.json.
void read_distribution(const Json& metrics, const char* name, std::optional<double>& mean,
                       std::optional<double>& p99) {
  if (!metrics.is_object()) return;
  auto it = metrics.find(name);
  if (it == metrics.end() || !it->is_object()) return;
  mean = number_at(*it, "mean");
  auto points = it->find("percentiles");
  if (points != it->end()) p99 = number_at(*points, "p99");
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
    row.verdict = BaselineVerdict::kRegression;
  } else if (-worse > allowed + kEpsilon) {
    row.verdict = BaselineVerdict::kImproved;
  } else {
    row.verdict = BaselineVerdict::kOk;
  }
  return row;
}

}  // namespace

bool BaselineComparison::regressed() const {
  return std::any_of(rows.begin(), rows.end(), [](const BaselineRow& r) {
    return r.verdict == BaselineVerdict::kRegression;
  });
}

BaselineSummary load_baseline(const std::string& path) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--baseline '{}': {}", path, why));
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fail("cannot open the file (give the path of a run's summary.json)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw fail("cannot read the file");

  Json j;
  try {
    j = Json::parse(text.str());
  } catch (const Json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw fail(fmt::format("not valid JSON ({})", e.what()));
  }
  if (!j.is_object() || !j.contains("schema")) {
    throw fail(
        fmt::format("not an llmperf summary.json (no \"schema\"; expected \"{}\")",
                    kSummarySchema));
  }
  const Json& schema = j["schema"];
  if (!schema.is_string() || schema.get<std::string>() != kSummarySchema) {
    throw fail(
        fmt::format("unsupported schema {} (expected \"{}\")", schema.dump(), kSummarySchema));
  }

  BaselineSummary baseline;
  baseline.path = path;
  KeyMetrics& m = baseline.metrics;
  m.qps = number_at(j, "qps");
  m.output_throughput = number_at(j, "output_throughput_tok_s");
  const Json metrics = j.value("metrics", Json::object());
  read_distribution(metrics, "latency_s", m.latency_mean_s, m.latency_p99_s);
  read_distribution(metrics, "ttft_ms", m.ttft_mean_ms, m.ttft_p99_ms);
  read_distribution(metrics, "tpot_ms", m.tpot_mean_ms, m.tpot_p99_ms);
  read_distribution(metrics, "itl_ms", m.itl_mean_ms, m.itl_p99_ms);
  const Json requests = j.value("requests", Json::object());
  const auto total = number_at(requests, "total");
  const auto failed = number_at(requests, "failed");
  if (total && failed && *total > 0) m.error_rate_percent = *failed / *total * 100;

  const Json run = j.value("run", Json::object());
  if (run.is_object()) {
    std::vector<std::string> parts;
    if (auto p = number_at(run, "parallel")) parts.push_back(fmt::format("parallel {}", *p));
    if (auto r = number_at(run, "rate")) parts.push_back(fmt::format("rate {}", *r));
    if (auto n = number_at(run, "number")) parts.push_back(fmt::format("number {}", *n));
    auto started = run.find("started_at");
    if (started != run.end() && started->is_string()) parts.push_back(started->get<std::string>());
    for (const std::string& part : parts) {
      if (!baseline.description.empty()) baseline.description += ", ";
      baseline.description += part;
    }
  }
  return baseline;
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
  BaselineComparison comparison;
  comparison.baseline_path = baseline.path;
  comparison.baseline_description = baseline.description;
  comparison.tolerance = tolerance_fraction;
  const KeyMetrics now = key_metrics(current);
  for (const KeyMetricDef& def : kKeyMetrics) {
    comparison.rows.push_back(
        compare_row(def, baseline.metrics.*(def.field), now.*(def.field), tolerance_fraction));
  }
  return comparison;
}

}  // namespace llmperf

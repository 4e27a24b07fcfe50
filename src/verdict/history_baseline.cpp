// Regression detection against a run history: median, scaled MAD and the noise band (the rules
// are in history_baseline.h).
#include "verdict/history_baseline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "verdict/slo.h"

namespace llmperf {
namespace {

constexpr double kHistoryEpsilon = 1e-9;  // relative slack: a value exactly on the band is inside

// "212.3 ms", "0.012", "5123 tok/s".
std::string history_value_text(double value, const std::string& unit) {
  const std::string number = fmt::format("{:.4g}", value);
  return unit.empty() ? number : fmt::format("{} {}", number, unit);
}

}  // namespace

BaselineSource parse_baseline_source(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw std::invalid_argument("--baseline: the path contains a control character");
    }
  }
  BaselineSource source;
  if (text.starts_with("db:")) {
    source.history = true;
    source.path = std::string(text.substr(3));
    if (source.path.empty()) {
      throw std::invalid_argument(
          "--baseline db: names no file: give the history database, e.g. --baseline "
          "db:history.db");
    }
  } else {
    source.path = std::string(text);
  }
  return source;
}

double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double scaled_mad(const std::vector<double>& values, double center) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double v : values) deviations.push_back(std::fabs(v - center));
  return kMadScale * median_of(std::move(deviations));
}

bool metric_higher_is_better(const std::string& metric) {
  try {
    return higher_is_better(parse_metric(metric, "--baseline db:"));
  } catch (const std::invalid_argument&) {
    return false;
  }
}

HistoryJudgement judge_against_history(const std::string& metric, const std::string& unit,
                                       const std::vector<HistoryValue>& history,
                                       std::optional<double> current,
                                       const HistoryBaselineOptions& options,
                                       double absolute_floor) {
  HistoryJudgement j;
  j.metric = metric;
  j.unit = unit;
  j.k = options.k;
  j.higher_is_better = metric_higher_is_better(metric);
  if (current && std::isfinite(*current)) j.current = current;
  const size_t take = std::min(history.size(), static_cast<size_t>(std::max(options.runs, 0)));
  const std::vector<HistoryValue> used(history.end() - static_cast<ptrdiff_t>(take), history.end());
  j.runs = used.size();
  if (!used.empty()) {
    j.first_run_id = used.front().run_id;
    j.last_run_id = used.back().run_id;
    j.first_started_at = used.front().started_at;
    j.last_started_at = used.back().started_at;
  }
  const std::string now = j.current ? history_value_text(*j.current, unit) : "-";
  if (used.size() < static_cast<size_t>(kMinHistoryRuns)) {
    j.text = fmt::format("{} = {}: not judged, {} matching run(s) in the history (at least {})",
                         metric, now, used.size(), kMinHistoryRuns);
    return j;
  }
  std::vector<double> values;
  for (const HistoryValue& v : used) values.push_back(v.value);
  j.median = median_of(values);
  j.mad = scaled_mad(values, j.median);
  const double floor = std::max(kMinRelativeBand * std::fabs(j.median), absolute_floor);
  j.half_width = std::max(options.k * j.mad, floor);
  const std::string band = fmt::format(
      "{} ± {} (median ± {:g} × MAD{}) of {} runs, {} .. {} ({} .. {})",
      history_value_text(j.median, unit), history_value_text(j.half_width, unit), options.k,
      j.half_width > options.k * j.mad ? ", at its floor" : "", j.runs, j.first_run_id,
      j.last_run_id, j.first_started_at, j.last_started_at);
  if (!j.current) {
    j.text = fmt::format("{} = -: not judged, this run has no value; band {}", metric, band);
    return j;
  }
  const double slack = kHistoryEpsilon * std::max(1.0, std::fabs(j.median));
  const double above = *j.current - (j.median + j.half_width);
  const double below = (j.median - j.half_width) - *j.current;
  if (above > slack) {
    j.verdict = j.higher_is_better ? MetricVerdict::kImproved : MetricVerdict::kRegression;
  } else if (below > slack) {
    j.verdict = j.higher_is_better ? MetricVerdict::kRegression : MetricVerdict::kImproved;
  } else {
    j.verdict = MetricVerdict::kOk;
  }
  const char* word = j.verdict == MetricVerdict::kRegression ? "REGRESSION, outside"
                     : j.verdict == MetricVerdict::kImproved ? "improved, outside"
                                                             : "ok, inside";
  j.text = fmt::format("{} = {}: {} {}", metric, now, word, band);
  return j;
}

bool HistoryComparison::regressed() const {
  return !error.empty() || std::any_of(rows.begin(), rows.end(), [](const HistoryJudgement& row) {
    return row.verdict == MetricVerdict::kRegression;
  });
}

const std::vector<std::string>& history_baseline_metrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> names;
    for (const KeyFigure& figure : key_figures()) names.push_back(figure_name(figure));
    return names;
  }();
  return metrics;
}

std::vector<HistoryJudgement> judge_run_against_history(
    const std::vector<HistoryEntry>& runs, const std::map<std::string, HistoryEntryFigure>& current,
    const HistoryBaselineOptions& options) {
  std::vector<HistoryJudgement> rows;
  for (const std::string& metric : history_baseline_metrics()) {
    std::vector<HistoryValue> values;
    std::string unit;
    for (const HistoryEntry& run : runs) {
      const auto it = run.figures.find(metric);
      if (it == run.figures.end() || !it->second.value) continue;
      values.push_back({run.run_id, run.started_at, *it->second.value});
      unit = it->second.unit;
    }
    const auto figure = current.find(metric);
    if (figure != current.end()) unit = figure->second.unit;
    rows.push_back(judge_against_history(
        metric, unit, values, figure != current.end() ? figure->second.value : std::nullopt,
        options, history_absolute_floor(metric)));
  }
  return rows;
}

double history_absolute_floor(std::string_view metric) {
  const std::optional<KeyFigure> figure = figure_named(metric);
  return figure && figure_metric(*figure).kind == MetricKind::kFraction ? 0.01 : 0;
}

}  // namespace llmperf

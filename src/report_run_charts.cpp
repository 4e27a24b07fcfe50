// The per-run charts of report.html, derived from the records alone: TTFT, ITL and latency
// distributions (CDFs), a timeline of completed requests, output tokens/s and requests in flight
// over the run (binned), and failures by kind. Times are shown from the run's first send.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report_internal.h"
#include "report_views.h"

namespace llmperf::report_detail {
namespace {

constexpr size_t kCdfPoints = 400;        // a CDF polyline is thinned to about this many points
constexpr size_t kTimelinePoints = 4000;  // the completion scatter is thinned to this many
constexpr int kBins = 60;                 // time bins for the over-the-run charts

bool measured(const RequestRecord& r) { return !r.warmup && r.sent_ns >= 0; }

svg::Series cdf_series(std::string name, std::vector<double> values) {
  svg::Series s;
  s.name = std::move(name);
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n == 0) return s;
  const size_t stride = std::max<size_t>(1, n / kCdfPoints);
  for (size_t i = 0; i < n; i += stride) {
    s.x.push_back(values[i]);
    s.y.push_back(100.0 * static_cast<double>(i + 1) / static_cast<double>(n));
  }
  if (s.x.back() != values.back() || s.y.back() != 100.0) {
    s.x.push_back(values.back());
    s.y.push_back(100.0);
  }
  return s;
}

svg::ChartSpec cdf_chart(const std::string& title, const std::string& x_label,
                         std::vector<double> values, const std::string& empty_text) {
  svg::ChartSpec chart;
  chart.title = title;
  chart.x_label = x_label;
  chart.y_label = "Share of samples (%)";
  chart.y_from_zero = true;
  chart.empty_text = empty_text;
  svg::Series s = cdf_series(x_label, std::move(values));
  if (!s.x.empty()) chart.series.push_back(std::move(s));
  return chart;
}

// Values thinned to at most `limit` by taking every k-th.
template <typename T>
std::vector<T> thin(const std::vector<T>& values, size_t limit) {
  if (values.size() <= limit) return values;
  std::vector<T> out;
  const double step = static_cast<double>(values.size()) / static_cast<double>(limit);
  for (size_t i = 0; i < limit; ++i) {
    out.push_back(values[static_cast<size_t>(static_cast<double>(i) * step)]);
  }
  return out;
}

struct Timebase {
  int64_t start_ns = 0;  // first send among measured requests
  int64_t end_ns = 0;    // last end among measured requests
  bool valid() const { return end_ns > start_ns; }
  double seconds(int64_t t) const { return static_cast<double>(t - start_ns) / kNsPerS; }
};

Timebase timebase(const std::vector<RequestRecord>& records) {
  Timebase tb{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  for (const auto& r : records) {
    if (!measured(r)) continue;
    tb.start_ns = std::min(tb.start_ns, r.sent_ns);
    tb.end_ns = std::max(tb.end_ns, std::max(r.end_ns, r.sent_ns));
  }
  if (tb.start_ns > tb.end_ns) return Timebase{};
  return tb;
}

svg::ChartSpec over_run_chart(const std::string& title, const std::string& y_label) {
  svg::ChartSpec chart;
  chart.title = title;
  chart.x_label = "Time since first request (s)";
  chart.y_label = y_label;
  return chart;
}

// A step series over the bins, closed at the end of the last bin.
svg::Series bin_series(const std::string& name, const std::vector<double>& values, double bin_s) {
  svg::Series s;
  s.name = name;
  s.kind = svg::SeriesKind::kStep;
  for (size_t i = 0; i < values.size(); ++i) {
    s.x.push_back(static_cast<double>(i) * bin_s);
    s.y.push_back(values[i]);
  }
  if (!values.empty()) {
    s.x.push_back(static_cast<double>(values.size()) * bin_s);
    s.y.push_back(values.back());
  }
  return s;
}

void add_over_run_charts(const std::vector<RequestRecord>& records, const Timebase& tb,
                         std::vector<svg::ChartSpec>& charts) {
  svg::ChartSpec tokens = over_run_chart("Output tokens/s over the run", "Output tokens/s");
  svg::ChartSpec flight = over_run_chart("Requests in flight over the run", "Requests in flight");
  if (!tb.valid()) {
    charts.push_back(std::move(tokens));
    charts.push_back(std::move(flight));
    return;
  }
  const int64_t span = tb.end_ns - tb.start_ns;
  const int64_t bin_ns = std::max<int64_t>(1, (span + kBins - 1) / kBins);
  const size_t bins = static_cast<size_t>((span + bin_ns - 1) / bin_ns);
  std::vector<double> token_count(bins, 0), busy_ns(bins, 0);
  auto bin_of = [&](int64_t t) {
    int64_t b = (t - tb.start_ns) / bin_ns;
    return static_cast<size_t>(std::clamp<int64_t>(b, 0, static_cast<int64_t>(bins) - 1));
  };
  for (const auto& r : records) {
    if (!measured(r)) continue;
    if (r.output_tokens > 0) {
      if (!r.chunk_ns.empty()) {
        const double per_chunk =
            static_cast<double>(r.output_tokens) / static_cast<double>(r.chunk_ns.size());
        for (int64_t t : r.chunk_ns) token_count[bin_of(t)] += per_chunk;
      } else if (r.end_ns >= 0) {
        token_count[bin_of(r.end_ns)] += static_cast<double>(r.output_tokens);
      }
    }
    if (r.end_ns < r.sent_ns) continue;
    for (size_t b = bin_of(r.sent_ns); b < bins; ++b) {
      const int64_t lo = tb.start_ns + static_cast<int64_t>(b) * bin_ns;
      const int64_t hi = lo + bin_ns;
      if (lo >= r.end_ns) break;
      busy_ns[b] += static_cast<double>(std::min(hi, r.end_ns) - std::max(lo, r.sent_ns));
    }
  }
  const double bin_s = static_cast<double>(bin_ns) / kNsPerS;
  for (auto& v : token_count) v /= bin_s;
  for (auto& v : busy_ns) v /= static_cast<double>(bin_ns);
  tokens.series.push_back(bin_series("Output tokens/s", token_count, bin_s));
  flight.series.push_back(bin_series("In flight (time-averaged)", busy_ns, bin_s));
  charts.push_back(std::move(tokens));
  charts.push_back(std::move(flight));
}

svg::ChartSpec timeline_chart(const std::vector<RequestRecord>& records, const Timebase& tb) {
  svg::ChartSpec chart = over_run_chart("Completed requests", "Latency (s)");
  chart.x_label = "Completion time since first request (s)";
  std::vector<std::pair<double, double>> ok, failed;
  for (const auto& r : records) {
    if (!measured(r) || r.end_ns < r.sent_ns) continue;
    const std::pair<double, double> point{tb.seconds(r.end_ns),
                                          static_cast<double>(r.end_ns - r.sent_ns) / kNsPerS};
    (r.ok() ? ok : failed).push_back(point);
  }
  for (auto* set : {&ok, &failed}) {
    if (set->empty()) continue;
    svg::Series s;
    s.name = set == &ok ? "Succeeded" : "Failed";
    s.kind = svg::SeriesKind::kPoints;
    for (const auto& [x, y] : thin(*set, kTimelinePoints)) {
      s.x.push_back(x);
      s.y.push_back(y);
    }
    chart.series.push_back(std::move(s));
  }
  return chart;
}

}  // namespace

std::vector<svg::ChartSpec> run_charts(const RunSummary& summary,
                                       const std::vector<RequestRecord>& records) {
  std::vector<double> ttft_ms, itl_ms, latency_s;
  for (const auto& r : records) {
    if (!measured(r) || !r.ok() || r.end_ns < r.sent_ns) continue;
    latency_s.push_back(static_cast<double>(r.end_ns - r.sent_ns) / kNsPerS);
    if (!r.stream) continue;
    if (r.first_content_ns >= r.sent_ns) {
      ttft_ms.push_back(static_cast<double>(r.first_content_ns - r.sent_ns) / kNsPerMs);
    }
    for (size_t i = 1; i < r.chunk_ns.size(); ++i) {
      itl_ms.push_back(static_cast<double>(r.chunk_ns[i] - r.chunk_ns[i - 1]) / kNsPerMs);
    }
  }
  const char* stream_only = "No streamed output (TTFT and ITL apply to streams only)";
  std::vector<svg::ChartSpec> charts;
  charts.push_back(
      cdf_chart("TTFT distribution (CDF)", "TTFT (ms)", std::move(ttft_ms), stream_only));
  charts.push_back(cdf_chart("ITL distribution (CDF)", "ITL (ms)", std::move(itl_ms), stream_only));
  charts.push_back(cdf_chart("Latency distribution (CDF)", "Latency (s)", std::move(latency_s),
                             "No successful requests"));
  const Timebase tb = timebase(records);
  charts.push_back(timeline_chart(records, tb));
  add_over_run_charts(records, tb, charts);

  svg::ChartSpec failures;
  failures.title = "Failures by kind";
  failures.x_label = "Failure kind";
  failures.y_label = "Requests";
  failures.empty_text = "No failed requests";
  failures.integer_y = true;
  for (const auto& [kind, count] : summary.failures_by_kind) {
    failures.bars.push_back({kind, static_cast<double>(count)});
  }
  charts.push_back(std::move(failures));
  return charts;
}

}  // namespace llmperf::report_detail

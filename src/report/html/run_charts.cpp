// The per-run charts of report.html, drawn from the run's trace (RunTrace, gathered by
// SummaryBuilder): TTFT, ITL and latency distributions (CDFs), a timeline of completed requests,
// output tokens/s and requests in flight over the run (binned) with the server's own view beside
// them where its /metrics were read, and failures by kind. Times are shown from the run's first
// send.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/internal.h"
#include "report/views.h"

namespace llmperf::report_detail {
namespace {

constexpr size_t kTimelinePoints = 4000;  // the completion scatter is thinned to this many
constexpr int64_t kBins = 60;             // about this many bins in the over-the-run charts

// A CDF polyline from values at RunTrace::cdf_points(), divided by `unit`.
svg::Series cdf_series(std::string name, const std::vector<double>& quantiles_ns, double unit) {
  svg::Series s;
  s.name = std::move(name);
  const std::vector<double>& points = RunTrace::cdf_points();
  for (size_t i = 0; i < quantiles_ns.size() && i < points.size(); ++i) {
    s.x.push_back(quantiles_ns[i] / unit);
    s.y.push_back(points[i]);
  }
  return s;
}

svg::ChartSpec cdf_chart(const std::string& title, const std::string& x_label,
                         const std::vector<double>& quantiles_ns, double unit,
                         const std::string& empty_text) {
  svg::ChartSpec chart;
  chart.title = title;
  chart.x_label = x_label;
  chart.y_label = "Share of samples (%)";
  chart.y_from_zero = true;
  chart.empty_text = empty_text;
  svg::Series s = cdf_series(x_label, quantiles_ns, unit);
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

Timebase timebase(const RunTrace& trace) {
  Timebase tb{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  for (const auto& r : trace.requests) {
    tb.start_ns = std::min(tb.start_ns, r.sent_ns);
    tb.end_ns = std::max(tb.end_ns, r.end_ns);
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

// A step series: values[i] from starts_s[i] to the next start, closed at `end_s`.
svg::Series step_series(const std::string& name, const std::vector<double>& starts_s,
                        const std::vector<double>& values, double end_s) {
  svg::Series s;
  s.name = name;
  s.kind = svg::SeriesKind::kStep;
  s.x = starts_s;
  s.y = values;
  if (!values.empty()) {
    s.x.push_back(end_s);
    s.y.push_back(values.back());
  }
  return s;
}

// The server's own view from its /metrics scrapes, on the same time axis: requests running and
// waiting beside the client's requests in flight, its generated tokens/s (counter differences
// between scrapes) beside the client's output tokens/s, and its KV-cache usage.
void add_server_series(const ServerSummary& server, const Timebase& tb, svg::ChartSpec& tokens,
                       svg::ChartSpec& flight, std::vector<svg::ChartSpec>& charts) {
  const std::vector<ServerPoint>& points = server.timeline;
  if (points.size() < 2 || !tb.valid()) return;
  svg::Series running{"Server: running", {}, {}, svg::SeriesKind::kLine, "4 3", {}};
  svg::Series waiting{"Server: waiting", {}, {}, svg::SeriesKind::kLine, "1 3", {}};
  svg::Series rate{"Server: generated tokens/s", {}, {}, svg::SeriesKind::kStep, "4 3", {}};
  svg::Series kv{"KV-cache usage", {}, {}, svg::SeriesKind::kLine, "", {}};
  for (size_t i = 0; i < points.size(); ++i) {
    const ServerPoint& p = points[i];
    const double t = tb.seconds(p.t_ns);
    if (p.running) {
      running.x.push_back(t);
      running.y.push_back(*p.running);
    }
    if (p.waiting) {
      waiting.x.push_back(t);
      waiting.y.push_back(*p.waiting);
    }
    if (p.kv_usage) {
      kv.x.push_back(t);
      kv.y.push_back(*p.kv_usage * 100);
    }
    if (i + 1 < points.size()) {
      const ServerPoint& next = points[i + 1];
      if (p.generation_tokens && next.generation_tokens && next.t_ns > p.t_ns &&
          *next.generation_tokens >= *p.generation_tokens) {
        rate.x.push_back(t);
        rate.y.push_back((*next.generation_tokens - *p.generation_tokens) /
                         (static_cast<double>(next.t_ns - p.t_ns) / kNsPerS));
      }
    }
  }
  if (!rate.x.empty()) {
    rate.x.push_back(tb.seconds(points.back().t_ns));
    rate.y.push_back(rate.y.back());
    tokens.series.push_back(std::move(rate));
  }
  if (!running.x.empty()) flight.series.push_back(std::move(running));
  if (!waiting.x.empty()) flight.series.push_back(std::move(waiting));
  if (!kv.x.empty()) {
    svg::ChartSpec chart = over_run_chart("Server KV-cache usage", "KV-cache usage (%)");
    chart.series.push_back(std::move(kv));
    charts.push_back(std::move(chart));
  }
}

// Output tokens/s and time-averaged requests in flight, in about kBins bins over the run. A chart
// bin is a whole number of the trace's token bins (so none is split); each value is divided by
// the part of its bin that lies inside the run.
void add_over_run_charts(const RunTrace& trace, const ServerSummary& server, const Timebase& tb,
                         std::vector<svg::ChartSpec>& charts) {
  svg::ChartSpec tokens = over_run_chart("Output tokens/s over the run", "Output tokens/s");
  svg::ChartSpec flight = over_run_chart("Requests in flight over the run", "Requests in flight");
  const TimeBins& fine = trace.output_tokens;
  if (tb.valid()) {
    const int64_t w = fine.width_ns();
    const int64_t first = std::max<int64_t>(0, (tb.start_ns - fine.origin_ns()) / w);
    const int64_t span = tb.end_ns - (fine.origin_ns() + first * w);
    const int64_t group = std::max<int64_t>(1, (span + kBins * w - 1) / (kBins * w));
    const int64_t width = group * w;
    const auto bins = static_cast<size_t>((span + width - 1) / width);
    std::vector<double> starts_s, tokens_per_s, in_flight;
    std::vector<int64_t> lo(bins), hi(bins);
    for (size_t b = 0; b < bins; ++b) {
      const int64_t bin_start = fine.origin_ns() + first * w + static_cast<int64_t>(b) * width;
      lo[b] = std::max(bin_start, tb.start_ns);
      hi[b] = std::min(bin_start + width, tb.end_ns);
      starts_s.push_back(tb.seconds(lo[b]));
      double count = 0;
      for (int64_t i = first + static_cast<int64_t>(b) * group;
           i < first + static_cast<int64_t>(b + 1) * group &&
           i < static_cast<int64_t>(fine.sums().size());
           ++i) {
        count += fine.sums()[static_cast<size_t>(i)];
      }
      tokens_per_s.push_back(hi[b] > lo[b] ? count / (static_cast<double>(hi[b] - lo[b]) / kNsPerS)
                                           : 0.0);
    }
    std::vector<double> busy_ns(bins, 0);
    for (const auto& r : trace.requests) {
      for (size_t b = 0; b < bins; ++b) {
        if (lo[b] >= r.end_ns) break;
        if (hi[b] > r.sent_ns) {
          busy_ns[b] += static_cast<double>(std::min(hi[b], r.end_ns) - std::max(lo[b], r.sent_ns));
        }
      }
    }
    for (size_t b = 0; b < bins; ++b) {
      in_flight.push_back(hi[b] > lo[b] ? busy_ns[b] / static_cast<double>(hi[b] - lo[b]) : 0.0);
    }
    const double end_s = tb.seconds(tb.end_ns);
    tokens.series.push_back(step_series("Output tokens/s", starts_s, tokens_per_s, end_s));
    flight.series.push_back(step_series("In flight (time-averaged)", starts_s, in_flight, end_s));
  }
  std::vector<svg::ChartSpec> server_charts;
  add_server_series(server, tb, tokens, flight, server_charts);
  charts.push_back(std::move(tokens));
  charts.push_back(std::move(flight));
  for (svg::ChartSpec& chart : server_charts) charts.push_back(std::move(chart));
}

// A ramp-up's knee: the median TTFT and latency of the requests planned in each span of the run
// against the rate the schedule asked for there.
svg::ChartSpec ramp_chart(const std::vector<RateSegment>& segments) {
  svg::ChartSpec chart;
  chart.title = "Latency against the arrival rate (ramp-up)";
  chart.x_label = "Requested rate (req/s)";
  chart.y_label = "P50 (ms)";
  svg::Series ttft{"P50 TTFT", {}, {}, svg::SeriesKind::kLine, "", {}};
  svg::Series latency{"P50 latency", {}, {}, svg::SeriesKind::kLine, "4 3", {}};
  for (const RateSegment& seg : segments) {
    if (seg.ttft_p50_ns) {
      ttft.x.push_back(seg.planned_rate);
      ttft.y.push_back(*seg.ttft_p50_ns / kNsPerMs);
    }
    if (seg.latency_p50_ns) {
      latency.x.push_back(seg.planned_rate);
      latency.y.push_back(*seg.latency_p50_ns / kNsPerMs);
    }
  }
  if (!ttft.x.empty()) chart.series.push_back(std::move(ttft));
  if (!latency.x.empty()) chart.series.push_back(std::move(latency));
  return chart;
}

// --multi-turn: how the first token's wait changes as a conversation's history grows.
svg::ChartSpec turns_chart(const RunSummary& summary) {
  svg::ChartSpec chart;
  chart.title = "TTFT by turn of the conversation";
  chart.x_label = "Turn (0 = first)";
  chart.y_label = "TTFT (ms)";
  svg::Series mean{"Mean TTFT", {}, {}, svg::SeriesKind::kLine, "", {}};
  svg::Series p99{"P99 TTFT", {}, {}, svg::SeriesKind::kLine, "4 3", {}};
  const auto i99 = percentile_index(summary.percentiles, 99);
  for (const TurnStats& t : summary.sessions.turns) {
    if (t.ttft_ns.empty()) continue;
    mean.x.push_back(t.turn);
    mean.y.push_back(t.ttft_ns.mean / kNsPerMs);
    if (i99) {
      p99.x.push_back(t.turn);
      p99.y.push_back(*percentile_in(t.ttft_ns, *i99, kNsPerMs));
    }
  }
  if (!mean.x.empty()) chart.series.push_back(std::move(mean));
  if (!p99.x.empty()) chart.series.push_back(std::move(p99));
  return chart;
}

svg::ChartSpec timeline_chart(const RunTrace& trace, const Timebase& tb) {
  svg::ChartSpec chart = over_run_chart("Completed requests", "Latency (s)");
  chart.x_label = "Completion time since first request (s)";
  std::vector<std::pair<double, double>> ok, failed;
  for (const auto& r : trace.requests) {
    const std::pair<double, double> point{tb.seconds(r.end_ns),
                                          static_cast<double>(r.end_ns - r.sent_ns) / kNsPerS};
    (r.ok ? ok : failed).push_back(point);
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

std::vector<svg::ChartSpec> run_charts(const RunSummary& summary, const RunTrace& trace) {
  const char* stream_only = "No streamed output (TTFT and ITL apply to streams only)";
  std::vector<svg::ChartSpec> charts;
  if (!summary.pooling) {  // embeddings and rerank generate nothing
    charts.push_back(cdf_chart("TTFT distribution (CDF)", "TTFT (ms)", trace.ttft_cdf_ns, kNsPerMs,
                               stream_only));
    charts.push_back(
        cdf_chart("ITL distribution (CDF)", "ITL (ms)", trace.itl_cdf_ns, kNsPerMs, stream_only));
  }
  charts.push_back(cdf_chart("Latency distribution (CDF)", "Latency (s)", trace.latency_cdf_ns,
                             kNsPerS, "No successful requests"));
  const Timebase tb = timebase(trace);
  charts.push_back(timeline_chart(trace, tb));
  if (!summary.rate_segments.empty()) charts.push_back(ramp_chart(summary.rate_segments));
  if (!summary.sessions.empty()) charts.push_back(turns_chart(summary));
  add_over_run_charts(trace, summary.server, tb, charts);

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

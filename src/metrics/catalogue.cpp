// The catalogue of metrics (catalogue.h): the table, and how each metric is read from a summary.
#include "metrics/catalogue.h"

#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace llmperf {
namespace {

using K = MetricKind;
using C = MetricClock;
using S = RunSummary;

// name, label, unit, kind, higher is better, stream only, clock, from the send, from the plan.
constexpr MetricInfo kCatalogue[] = {
    {"ttft", "TTFT", "ms", K::kTime, false, true, C::kUserSees, &S::ttft_ns,
     &S::ttft_from_planned_ns},
    {"ttfat", "TTFAT", "ms", K::kTime, false, true, C::kUserSees, &S::ttfat_ns,
     &S::ttfat_from_planned_ns},
    {"ttfb", "TTFB", "ms", K::kTime, false, false, C::kUserSees, &S::ttfb_ns,
     &S::ttfb_from_planned_ns},
    {"tpot", "TPOT", "ms", K::kTime, false, true, C::kNone, &S::tpot_ns},
    {"itl", "ITL", "ms", K::kTime, false, true, C::kNone, &S::itl_ns},
    {"latency", "Latency", "s", K::kTime, false, false, C::kUserSees, &S::latency_ns,
     &S::latency_from_planned_ns},
    // The same times on a clock the name says.
    {"ttft_from_send", "TTFT from the send", "ms", K::kTime, false, true, C::kFromSend,
     &S::ttft_ns},
    {"ttfat_from_send", "TTFAT from the send", "ms", K::kTime, false, true, C::kFromSend,
     &S::ttfat_ns},
    {"ttfb_from_send", "TTFB from the send", "ms", K::kTime, false, false, C::kFromSend,
     &S::ttfb_ns},
    {"latency_from_send", "Latency from the send", "s", K::kTime, false, false, C::kFromSend,
     &S::latency_ns},
    {"ttft_from_planned", "TTFT from the planned send", "ms", K::kTime, false, true,
     C::kFromPlanned, &S::ttft_from_planned_ns},
    {"ttfat_from_planned", "TTFAT from the planned send", "ms", K::kTime, false, true,
     C::kFromPlanned, &S::ttfat_from_planned_ns},
    {"ttfb_from_planned", "TTFB from the planned send", "ms", K::kTime, false, false,
     C::kFromPlanned, &S::ttfb_from_planned_ns},
    {"latency_from_planned", "Latency from the planned send", "s", K::kTime, false, false,
     C::kFromPlanned, &S::latency_from_planned_ns},
    {"input_tokens", "Input tokens", "tokens", K::kTokens, false, false, C::kNone,
     &S::input_tokens},
    {"output_tokens", "Output tokens", "tokens", K::kTokens, false, false, C::kNone,
     &S::output_tokens},
    {"qps", "QPS", "req/s", K::kReqRate, true},
    {"goodput", "Goodput", "req/s", K::kReqRate, true},
    {"output_throughput", "Output throughput", "tok/s", K::kTokRate, true},
    {"total_throughput", "Total throughput", "tok/s", K::kTokRate, true},
    {"error_rate", "Error rate", "", K::kFraction, false},
    {"success_rate", "Success rate", "", K::kFraction, true},
    {"good_fraction", "Good fraction", "", K::kFraction, true},
    {"failed", "Failed", "", K::kCount, false},
    // Client against the server's /metrics: the relative difference of the totals.
    {"token_mismatch", "Token mismatch", "", K::kFraction, false},
    {"request_mismatch", "Request mismatch", "", K::kFraction, false},
    // Requests that missed a length they were built to have (LengthMisses).
    {"length_miss", "Length miss", "", K::kFraction, false},
    // Open loop: the share of sends that found every slot busy (the server fell behind the rate).
    {"cap_reached", "Cap reached", "", K::kFraction, false},
    // Open loop: the rate the server sustained over the rate the schedule asked for
    // (RunSummary::sustained_rate / scheduled_rate).
    {"rate_sustained", "Rate sustained", "", K::kFraction, true},
};

constexpr KeyFigure kKeyFigures[] = {
    {"qps", ""},         {"output_throughput", ""}, {"latency", "mean"}, {"latency", "p99"},
    {"ttft", "mean"},    {"ttft", "p99"},           {"tpot", "mean"},    {"tpot", "p99"},
    {"itl", "mean"},     {"itl", "p99"},            {"error_rate", ""},
};

static_assert(std::size(kKeyFigures) == kKeyFigureCount);

constexpr KeyFigure kStudyFigures[] = {
    {"ttft", "p50"},    {"ttft", "p99"},    {"itl", "p50"},           {"itl", "p99"},
    {"tpot", "p50"},    {"tpot", "p99"},    {"latency", "p50"},       {"latency", "p99"},
    {"output_throughput", ""},              {"total_throughput", ""}, {"qps", ""},
};

MetricReading unavailable(std::string why) { return {std::nullopt, std::move(why), {}}; }

MetricReading read_distribution(const MetricInfo& metric, const MetricStat& stat,
                                const RunSummary& s, bool from_send) {
  const std::string name(metric.name);
  if (metric.stream_only && !s.streamed) {
    return unavailable("the run did not stream (non-stream requests have no " + name + ")");
  }
  if (metric.clock == C::kFromPlanned && !open_loop_run(s)) {
    return unavailable("only an open-loop run (--rate, a trace) has a planned send");
  }
  const bool from_planned = !from_send && metric.clock == C::kUserSees && open_loop_run(s);
  const Distribution& d = from_planned ? s.*(metric.planned) : s.*(metric.dist);
  if (d.empty()) return unavailable("no successful request has a " + name + " value");
  const std::string note = from_planned ? "from the planned send" : "";
  if (stat.text == "mean") return {d.mean, {}, note};
  if (stat.text == "std") return {d.std, {}, note};
  if (stat.text == "min") return {d.min, {}, note};
  if (stat.text == "max") return {d.max, {}, note};
  for (size_t i = 0; i < s.percentiles.size() && i < d.percentiles.size(); ++i) {
    if (s.percentiles[i] == stat.percentile) return {d.percentiles[i], {}, note};
  }
  return unavailable(stat.text + " not computed; add it to --percentiles");
}

MetricReading read_server_mismatch(const std::string& name, const RunSummary& s) {
  if (!s.server.available) {
    return unavailable(s.server.unavailable_reason.empty()
                           ? "the server's /metrics were not read"
                           : "the server's /metrics were not read: " + s.server.unavailable_reason);
  }
  const std::optional<double> mismatch =
      name == "token_mismatch" ? s.server.token_mismatch() : s.server.request_mismatch();
  if (!mismatch) {
    return unavailable(name == "token_mismatch"
                           ? "the server exports no token counters, or usage was missing"
                           : "the server exports no finished-request counter");
  }
  return {*mismatch, {}, {}};
}

MetricReading read_run_level(const MetricInfo& metric, const RunSummary& s) {
  const std::string name(metric.name);
  const bool needs_goodput = name == "goodput" || name == "good_fraction";
  if (needs_goodput && !s.goodput_enabled) return unavailable("add --goodput to compute it");
  const bool needs_window = metric.kind == K::kReqRate || metric.kind == K::kTokRate;
  if (needs_window && s.window_ns <= 0) return unavailable("the run window is empty");
  const auto total = static_cast<double>(s.total);
  double value = 0;
  if (name == "token_mismatch" || name == "request_mismatch") {
    const MetricReading reading = read_server_mismatch(name, s);
    if (!reading.value) return reading;
    value = *reading.value;
  } else if (name == "length_miss") {
    const std::optional<double> share = s.length_misses.share();
    if (!share) {
      return unavailable("no successful request had a length target that usage could verify");
    }
    value = *share;
  } else if (name == "cap_reached") {
    if (s.open_loop.sends == 0) return unavailable("only an open-loop run (--rate) has it");
    value = s.open_loop.cap_reached_share();
  } else if (name == "rate_sustained") {
    if (!open_loop_run(s)) return unavailable("only an open-loop run (--rate, a trace) has it");
    if (s.scheduled_rate <= 0) return unavailable("the schedule planned fewer than two sends");
    if (s.succeeded < 2) return unavailable("fewer than two requests succeeded");
    value = s.sustained_rate / s.scheduled_rate;
    return {value, {},
            fmt::format("the server sustained {:.3g} of the {:.3g} req/s asked", s.sustained_rate,
                        s.scheduled_rate)};
  } else if (name == "qps") {
    value = s.qps;
  } else if (name == "goodput") {
    value = s.goodput_rps;
  } else if (name == "output_throughput") {
    value = s.output_throughput;
  } else if (name == "total_throughput") {
    value = s.total_throughput;
  } else if (name == "error_rate") {
    value = static_cast<double>(s.failed) / total;
  } else if (name == "success_rate") {
    value = static_cast<double>(s.succeeded) / total;
  } else if (name == "good_fraction") {
    value = s.good_fraction;
  } else if (name == "failed") {
    value = static_cast<double>(s.failed);
  }
  if (!std::isfinite(value)) return unavailable("the value is not finite");
  return {value, {}, {}};
}

// A time's base unit (ns) per unit of the metric ("ms", "s"); 1 for every other kind.
double nanoseconds_per_unit(const MetricInfo& metric) {
  if (metric.kind != K::kTime) return 1;
  return metric.unit == "s" ? 1e9 : 1e6;
}

}  // namespace

std::span<const MetricInfo> metric_catalogue() { return kCatalogue; }

const MetricInfo* find_metric_info(std::string_view name) {
  const std::string_view canonical = name == "e2el" ? "latency" : name;
  for (const MetricInfo& metric : kCatalogue) {
    if (canonical == metric.name) return &metric;
  }
  return nullptr;
}

std::string metric_names() {
  std::string out;
  for (const MetricInfo& metric : kCatalogue) {
    if (!out.empty()) out += ", ";
    out += metric.name;
  }
  return out;
}

bool open_loop_run(const RunSummary& summary) { return summary.open_loop.sends > 0; }

bool reads_from_planned_send(const MetricInfo& metric, const RunSummary& summary) {
  return metric.clock == C::kFromPlanned ||
         (metric.clock == C::kUserSees && open_loop_run(summary));
}

MetricReading read_metric(const MetricInfo& metric, const MetricStat& stat,
                          const RunSummary& summary, bool from_send) {
  if (summary.total <= 0) return unavailable("the run measured no requests");
  if (metric.per_request()) return read_distribution(metric, stat, summary, from_send);
  return read_run_level(metric, summary);
}

std::span<const KeyFigure> key_figures() { return kKeyFigures; }

std::span<const KeyFigure> study_figures() { return kStudyFigures; }

const MetricInfo& figure_metric(const KeyFigure& figure) {
  return *find_metric_info(figure.metric);  // every key figure names a catalogue metric
}

std::string figure_name(const KeyFigure& figure) {
  return figure.stat.empty() ? std::string(figure.metric)
                             : fmt::format("{}.{}", figure.metric, figure.stat);
}

std::string figure_label(const KeyFigure& figure) {
  const MetricInfo& metric = figure_metric(figure);
  const std::string_view unit = metric.kind == K::kFraction ? "%" : metric.unit;
  const std::string head = figure.stat.empty() ? std::string(metric.label)
                                               : fmt::format("{} {}", metric.label, figure.stat);
  return unit.empty() ? head : fmt::format("{} ({})", head, unit);
}

std::string figure_key(const KeyFigure& figure) {
  const MetricInfo& metric = figure_metric(figure);
  std::string key(figure.metric);
  if (!figure.stat.empty()) key += fmt::format("_{}", figure.stat);
  if (metric.kind == K::kFraction) return key + "_percent";
  if (metric.kind == K::kReqRate) return key;  // "qps": a rate's key names no unit
  if (metric.unit.empty()) return key;
  std::string unit(metric.unit);
  for (char& c : unit) {
    if (c == '/') c = '_';
  }
  return key + "_" + unit;
}

double to_figure_unit(const KeyFigure& figure, double value) {
  return figure_metric(figure).kind == K::kFraction ? value * 100 : value;
}

std::optional<double> key_figure_value(const KeyFigure& figure, const RunSummary& summary) {
  const MetricInfo& metric = figure_metric(figure);
  MetricStat stat{std::string(figure.stat), 0};
  if (figure.stat.size() > 1 && figure.stat.front() == 'p') {
    stat.percentile = std::stod(std::string(figure.stat.substr(1)));
  }
  const MetricReading reading = read_metric(metric, stat, summary, /*from_send=*/true);
  if (!reading.value) return std::nullopt;
  const double value = *reading.value / nanoseconds_per_unit(metric);
  if (!std::isfinite(value)) return std::nullopt;
  return to_figure_unit(figure, value);
}

}  // namespace llmperf

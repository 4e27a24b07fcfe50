// The catalogue of metrics (catalogue.h): the table, and how each metric is read from a summary.
#include "metrics/catalogue.h"

#include <cmath>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace llmperf {
namespace {

using K = MetricKind;
using C = MetricClock;
using M = Metric;
using S = RunSummary;

MetricReading unavailable(std::string why) { return {std::nullopt, std::move(why), {}}; }

// A run-level value, unless it is not finite.
MetricReading finite_value(double value) {
  if (!std::isfinite(value)) return unavailable("the value is not finite");
  return {value, {}, {}};
}

// A rate over the run window.
MetricReading window_rate(const S& s, double value) {
  if (s.window_ns <= 0) return unavailable("the run window is empty");
  return finite_value(value);
}

MetricReading goodput_off() { return unavailable("add --goodput to compute it"); }

// Each run-level metric's reader: the value in its base unit, or why the run lacks it (a summary
// with no measured request never gets here).
template <double S::*field>
MetricReading read_window_rate(const S& s) {
  return window_rate(s, s.*field);
}
MetricReading read_goodput(const S& s) {
  return s.goodput_enabled ? window_rate(s, s.goodput_rps) : goodput_off();
}
MetricReading read_error_rate(const S& s) {
  return finite_value(static_cast<double>(s.failed) / static_cast<double>(s.total));
}
MetricReading read_success_rate(const S& s) {
  return finite_value(static_cast<double>(s.succeeded) / static_cast<double>(s.total));
}
MetricReading read_good_fraction(const S& s) {
  return s.goodput_enabled ? finite_value(s.good_fraction) : goodput_off();
}
MetricReading read_failed(const S& s) { return finite_value(static_cast<double>(s.failed)); }

MetricReading server_unread(const S& s) {
  return unavailable(s.server.unavailable_reason.empty()
                         ? "the server's /metrics were not read"
                         : "the server's /metrics were not read: " + s.server.unavailable_reason);
}
MetricReading read_token_mismatch(const S& s) {
  if (!s.server.available) return server_unread(s);
  const std::optional<double> mismatch = s.server.token_mismatch();
  if (!mismatch) return unavailable("the server exports no token counters, or usage was missing");
  return finite_value(*mismatch);
}
MetricReading read_request_mismatch(const S& s) {
  if (!s.server.available) return server_unread(s);
  const std::optional<double> mismatch = s.server.request_mismatch();
  if (!mismatch) return unavailable("the server exports no finished-request counter");
  return finite_value(*mismatch);
}
MetricReading read_length_miss(const S& s) {
  const std::optional<double> share = s.length_misses.share();
  if (!share) {
    return unavailable("no successful request had a length target that usage could verify");
  }
  return finite_value(*share);
}
MetricReading read_cap_reached(const S& s) {
  if (s.open_loop.sends == 0) return unavailable("only an open-loop run (--rate) has it");
  return finite_value(s.open_loop.cap_reached_share());
}
MetricReading read_rate_sustained(const S& s) {
  if (!open_loop_run(s)) return unavailable("only an open-loop run (--rate, a trace) has it");
  if (s.scheduled_rate <= 0) return unavailable("the schedule planned fewer than two sends");
  if (s.succeeded < 2) return unavailable("fewer than two requests succeeded");
  return {s.sustained_rate / s.scheduled_rate,
          {},
          fmt::format("the server sustained {:.3g} of the {:.3g} req/s asked", s.sustained_rate,
                      s.scheduled_rate)};
}

// A per-request time: stream only or not, its clock, and where the summary holds it.
constexpr MetricInfo time_metric(M id, std::string_view name, std::string_view label,
                                 std::string_view unit, bool stream_only, C clock,
                                 Distribution S::*dist, Distribution S::*planned = nullptr) {
  MetricInfo m;
  m.id = id;
  m.name = name;
  m.label = label;
  m.unit = unit;
  m.kind = K::kTime;
  m.stream_only = stream_only;
  m.clock = clock;
  m.dist = dist;
  m.planned = planned;
  return m;
}

constexpr MetricInfo with_alias(MetricInfo m, std::string_view alias) {
  m.alias = alias;
  return m;
}

constexpr MetricInfo with_short_label(MetricInfo m, std::string_view short_label) {
  m.short_label = short_label;
  return m;
}

constexpr MetricInfo defined(MetricInfo m, std::string_view definition) {
  m.definition = definition;
  return m;
}

// A run-level metric: its kind, direction and reader.
constexpr MetricInfo run_metric(M id, std::string_view name, std::string_view label,
                                std::string_view unit, K kind, bool higher_is_better,
                                MetricReading (*read)(const S&)) {
  MetricInfo m;
  m.id = id;
  m.name = name;
  m.label = label;
  m.unit = unit;
  m.kind = kind;
  m.higher_is_better = higher_is_better;
  m.read = read;
  return m;
}

constexpr MetricInfo with_value(MetricInfo m, double S::*value) {
  m.value = value;
  return m;
}

// A rate over the run window that the summary holds in `field`.
template <double S::*field>
constexpr MetricInfo window_metric(M id, std::string_view name, std::string_view label,
                                   std::string_view unit, K kind) {
  return with_value(run_metric(id, name, label, unit, kind, true, read_window_rate<field>), field);
}

constexpr MetricInfo token_metric(M id, std::string_view name, std::string_view label,
                                  Distribution S::*dist) {
  MetricInfo m;
  m.id = id;
  m.name = name;
  m.label = label;
  m.unit = "tokens";
  m.kind = K::kTokens;
  m.dist = dist;
  return m;
}

constexpr MetricInfo kCatalogue[] = {
    defined(time_metric(M::kTtft, "ttft", "TTFT", "ms", true, C::kUserSees, &S::ttft_ns,
                        &S::ttft_from_planned_ns),
            "first output-carrying chunk (reasoning included) minus the actual send time "
            "(stream only)"),
    defined(time_metric(M::kTtfat, "ttfat", "TTFAT", "ms", true, C::kUserSees, &S::ttfat_ns,
                        &S::ttfat_from_planned_ns),
            "first chunk carrying answer output (not reasoning) minus the actual send time "
            "(stream only); equals ttft for streams that do not reason"),
    defined(time_metric(M::kTtfb, "ttfb", "TTFB", "ms", false, C::kUserSees, &S::ttfb_ns,
                        &S::ttfb_from_planned_ns),
            "first response byte minus the actual send time"),
    defined(time_metric(M::kTpot, "tpot", "TPOT", "ms", true, C::kNone, &S::tpot_ns),
            "(latency - ttft) / (output_tokens - 1) per request with output_tokens > 1"),
    defined(time_metric(M::kItl, "itl", "ITL", "ms", true, C::kNone, &S::itl_ns),
            "gaps between consecutive output-carrying chunks, pooled across requests"),
    defined(with_short_label(
                with_alias(time_metric(M::kLatency, "latency", "Latency", "s", false, C::kUserSees,
                                       &S::latency_ns, &S::latency_from_planned_ns),
                           "e2el"),
                "Lat"),
            "last response byte minus the actual send time (end-to-end)"),
    // The same times on a clock the name says.
    time_metric(M::kTtftFromSend, "ttft_from_send", "TTFT from the send", "ms", true, C::kFromSend,
                &S::ttft_ns),
    time_metric(M::kTtfatFromSend, "ttfat_from_send", "TTFAT from the send", "ms", true,
                C::kFromSend, &S::ttfat_ns),
    time_metric(M::kTtfbFromSend, "ttfb_from_send", "TTFB from the send", "ms", false, C::kFromSend,
                &S::ttfb_ns),
    time_metric(M::kLatencyFromSend, "latency_from_send", "Latency from the send", "s", false,
                C::kFromSend, &S::latency_ns),
    time_metric(M::kTtftFromPlanned, "ttft_from_planned", "TTFT from the planned send", "ms", true,
                C::kFromPlanned, &S::ttft_from_planned_ns),
    time_metric(M::kTtfatFromPlanned, "ttfat_from_planned", "TTFAT from the planned send", "ms",
                true, C::kFromPlanned, &S::ttfat_from_planned_ns),
    time_metric(M::kTtfbFromPlanned, "ttfb_from_planned", "TTFB from the planned send", "ms", false,
                C::kFromPlanned, &S::ttfb_from_planned_ns),
    time_metric(M::kLatencyFromPlanned, "latency_from_planned", "Latency from the planned send",
                "s", false, C::kFromPlanned, &S::latency_from_planned_ns),
    token_metric(M::kInputTokens, "input_tokens", "Input tokens", &S::input_tokens),
    token_metric(M::kOutputTokens, "output_tokens", "Output tokens", &S::output_tokens),
    defined(window_metric<&S::qps>(M::kQps, "qps", "QPS", "req/s", K::kReqRate),
            "successful requests / window"),
    with_value(
        run_metric(M::kGoodput, "goodput", "Goodput", "req/s", K::kReqRate, true, read_goodput),
        &S::goodput_rps),
    defined(with_short_label(
                window_metric<&S::output_throughput>(M::kOutputThroughput, "output_throughput",
                                                     "Output throughput", "tok/s", K::kTokRate),
                "Output"),
            "sum of output tokens of successful requests / window"),
    defined(with_short_label(
                window_metric<&S::total_throughput>(M::kTotalThroughput, "total_throughput",
                                                    "Total throughput", "tok/s", K::kTokRate),
                "Total"),
            "sum of input and output tokens of successful requests / window"),
    run_metric(M::kErrorRate, "error_rate", "Error rate", "", K::kFraction, false, read_error_rate),
    run_metric(M::kSuccessRate, "success_rate", "Success rate", "", K::kFraction, true,
               read_success_rate),
    run_metric(M::kGoodFraction, "good_fraction", "Good fraction", "", K::kFraction, true,
               read_good_fraction),
    run_metric(M::kFailed, "failed", "Failed", "", K::kCount, false, read_failed),
    // Client against the server's /metrics: the relative difference of the totals.
    run_metric(M::kTokenMismatch, "token_mismatch", "Token mismatch", "", K::kFraction, false,
               read_token_mismatch),
    run_metric(M::kRequestMismatch, "request_mismatch", "Request mismatch", "", K::kFraction, false,
               read_request_mismatch),
    // Requests that missed a length they were built to have (LengthMisses).
    run_metric(M::kLengthMiss, "length_miss", "Length miss", "", K::kFraction, false,
               read_length_miss),
    // Open loop: the share of sends that found every slot busy (the server fell behind the rate).
    run_metric(M::kCapReached, "cap_reached", "Cap reached", "", K::kFraction, false,
               read_cap_reached),
    // Open loop: the rate the server sustained over the rate the schedule asked for
    // (RunSummary::sustained_rate / scheduled_rate).
    run_metric(M::kRateSustained, "rate_sustained", "Rate sustained", "", K::kFraction, true,
               read_rate_sustained),
};

// Metric's values index the table; each entry is a per-request metric or has a reader.
constexpr bool catalogue_in_order() {
  for (size_t i = 0; i < std::size(kCatalogue); ++i) {
    if (static_cast<size_t>(kCatalogue[i].id) != i) return false;
    if ((kCatalogue[i].dist == nullptr) == (kCatalogue[i].read == nullptr)) return false;
  }
  return true;
}
static_assert(catalogue_in_order());
static_assert(std::size(kCatalogue) == static_cast<size_t>(Metric::kRateSustained) + 1);

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

}  // namespace

std::span<const MetricInfo> metric_catalogue() { return kCatalogue; }

double base_per_unit(const MetricInfo& metric) {
  if (metric.kind != K::kTime) return 1;
  return metric.unit == "s" ? 1e9 : 1e6;
}

const MetricInfo& metric_info(Metric metric) { return kCatalogue[static_cast<size_t>(metric)]; }

const MetricInfo* find_metric_info(std::string_view name) {
  for (const MetricInfo& metric : kCatalogue) {
    if (name == metric.name || (!metric.alias.empty() && name == metric.alias)) return &metric;
  }
  return nullptr;
}

std::string metric_key_in(Metric metric, std::string_view stat, std::string_view unit) {
  std::string key(metric_info(metric).name);
  if (!stat.empty()) key += fmt::format("_{}", stat);
  if (unit.empty()) return key;
  key += '_';
  for (const char c : unit) key += c == '/' ? '_' : c;
  return key;
}

std::string metric_key(Metric metric, std::string_view stat) {
  const MetricInfo& info = metric_info(metric);
  const bool named_unit = info.kind == K::kTime || info.kind == K::kTokRate;
  return metric_key_in(metric, stat, named_unit ? info.unit : "");
}

const std::string& metric_key(Metric metric) {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const MetricInfo& info : kCatalogue) out.push_back(metric_key(info.id, {}));
    return out;
  }();
  return keys[static_cast<size_t>(metric)];
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
  return metric.read(summary);
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

std::optional<KeyFigure> figure_named(std::string_view name) {
  const size_t dot = name.find('.');
  const MetricInfo* metric = find_metric_info(name.substr(0, dot));
  if (metric == nullptr) return std::nullopt;
  return KeyFigure{metric->name, dot == std::string_view::npos ? "" : name.substr(dot + 1)};
}

std::string figure_key(const KeyFigure& figure) {
  const MetricInfo& metric = figure_metric(figure);
  if (metric.kind == K::kFraction) return metric_key_in(metric.id, figure.stat, "percent");
  return metric_key(metric.id, figure.stat);
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
  const double value = *reading.value / base_per_unit(metric);
  if (!std::isfinite(value)) return std::nullopt;
  return to_figure_unit(figure, value);
}

}  // namespace llmperf

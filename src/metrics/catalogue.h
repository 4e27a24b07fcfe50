// The one catalogue of llmperf's metrics: each metric once, with its name as the --slo grammar
// writes it, its label and unit, which direction is better, which send its time counts from, and
// how to read it from a RunSummary. The SLO grammar, the baseline, repeats and the history judge
// by it; the key figures below are the statistics they compare.
// Adding a metric means adding one entry to the table in catalogue.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "metrics/metrics.h"

namespace llmperf {

// What kind of value a metric is: it decides the statistics and units it takes.
enum class MetricKind {
  kTime,      // per-request distribution in ns; a statistic and a time unit required
  kTokens,    // per-request distribution of token counts; a statistic required
  kReqRate,   // run-level req/s
  kTokRate,   // run-level tok/s
  kFraction,  // run-level fraction in [0, 1]
  kCount,     // run-level count
};

// Which send a time is measured from. In an open-loop run a request may wait for a free slot
// (--parallel) or for the client after its planned send; the latency a user of the server sees
// counts that wait, so the plain names read from the planned send there.
enum class MetricClock {
  kNone,         // not a time from a send
  kUserSees,     // from the planned send in an open-loop run, from the send otherwise
  kFromSend,     // always from the actual send (`ttft_from_send`)
  kFromPlanned,  // always from the planned send (`ttft_from_planned`); open loop only
};

struct MetricInfo {
  std::string_view name;   // as --slo writes it: "ttft", "output_throughput"
  std::string_view label;  // as tables head it: "TTFT", "Output throughput"
  std::string_view unit;   // the unit summary.json and the tables give it in: "ms", "tok/s", ""
  MetricKind kind = MetricKind::kCount;
  bool higher_is_better = false;
  bool stream_only = false;  // only streamed requests have it (TTFT, TPOT, ITL)
  MetricClock clock = MetricClock::kNone;
  Distribution RunSummary::*dist = nullptr;     // per-request metrics: from the send
  Distribution RunSummary::*planned = nullptr;  // the same time from the planned send, if any

  bool per_request() const { return dist != nullptr; }
};

// Every metric, in the order the SLO grammar lists them.
std::span<const MetricInfo> metric_catalogue();

// The metric named `name` ("e2el" is latency's other name); nullptr when there is none.
const MetricInfo* find_metric_info(std::string_view name);

// "ttft, ttfat, ...": every name, for error messages.
std::string metric_names();

// An open-loop run: its requests had planned send times.
bool open_loop_run(const RunSummary& summary);

// Whether `metric` reads its time from the planned send in this run.
bool reads_from_planned_send(const MetricInfo& metric, const RunSummary& summary);

// A statistic of a per-request metric: "mean", "std", "min", "max" or a percentile; empty for a
// run-level metric.
struct MetricStat {
  std::string text;       // "mean", "p99", "p99.9", or ""
  double percentile = 0;  // for "pNN"
};

// A metric's value in its base unit (ns, tokens, req/s, tok/s, fraction, count), or why the run
// does not have it.
struct MetricReading {
  std::optional<double> value;  // absent when unavailable
  std::string why;              // the reason when unavailable
  std::string note;             // what the value means, when its name alone does not say
};

// Reads `stat` of `metric` from `summary`. `from_send` reads every time from the actual send,
// whatever the metric's clock (what summary.json's distributions hold).
MetricReading read_metric(const MetricInfo& metric, const MetricStat& stat,
                          const RunSummary& summary, bool from_send = false);

// The key figures: the statistics --baseline compares, --num-runs gives intervals for and the
// history judges, in their tables' order.
struct KeyFigure {
  std::string_view metric;  // a catalogue name
  std::string_view stat;    // "mean", "p99", or "" for a run-level metric
};
std::span<const KeyFigure> key_figures();
inline constexpr size_t kKeyFigureCount = 11;  // key_figures().size()

// The figures `llmperf tune` records for each trial (its ledger's "metrics", the study's tables and
// fronts), read as --slo reads them: times in ms from the send a user sees.
std::span<const KeyFigure> study_figures();

// "latency.mean", "qps": the figure as --slo and the history name it.
std::string figure_name(const KeyFigure& figure);
// "Latency mean (s)", "Error rate (%)": its label in the baseline's and the repeats' tables, in
// the unit of key_figure_value (fractions in percent).
std::string figure_label(const KeyFigure& figure);
// "latency_mean_s", "qps", "output_throughput_tok_s", "error_rate_percent": its key in
// summary.json's "repeats".
std::string figure_key(const KeyFigure& figure);
// The figure's metric (always in the catalogue).
const MetricInfo& figure_metric(const KeyFigure& figure);
// Its value in a run just measured, in the label's unit, from the actual send; absent when the run
// lacks it (a percentile not among summary.percentiles, no streamed request, ...).
std::optional<double> key_figure_value(const KeyFigure& figure, const RunSummary& summary);
// A stored value in the metric's unit (summary.json's) to the label's unit: fractions to percent.
double to_figure_unit(const KeyFigure& figure, double value);

}  // namespace llmperf

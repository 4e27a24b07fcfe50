// The one catalogue of llmperf's metrics: each metric once, with its name as the --slo grammar
// writes it, its keys in llmperf's JSON files (metric_key), its label and unit, which direction is
// better, which send its time counts from, how to read it from a RunSummary, and its definition.
// The SLO grammar, the baseline, repeats and the history judge by it; summary.json, requests.jsonl,
// the sweep's and the study's tables, compare, the history's figures and the Pushgateway name
// their metrics by it (Metric below), so that no other file spells a metric's name. The key
// figures below are the statistics they compare.
// Adding a metric means adding one entry to the table in catalogue.cpp (and its Metric below).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "metrics/metric_id.h"
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

struct MetricReading;

struct MetricInfo {
  Metric id{};
  std::string_view name;   // as --slo writes it: "ttft", "output_throughput"
  std::string_view alias;  // another name --slo and --goodput take (vLLM's "e2el"), or ""
  std::string_view label;  // as tables head it: "TTFT", "Output throughput"
  std::string_view short_label;  // where a column is narrow ("Lat", "Output"); "" means label
  std::string_view unit;  // the unit summary.json and the tables give it in: "ms", "tok/s", ""
  MetricKind kind = MetricKind::kCount;
  bool higher_is_better = false;
  bool stream_only = false;  // only streamed requests have it (TTFT, TPOT, ITL)
  MetricClock clock = MetricClock::kNone;
  Distribution RunSummary::*dist = nullptr;     // per-request metrics: from the send
  Distribution RunSummary::*planned = nullptr;  // the same time from the planned send, if any
  // Run-level metrics: the value, or why the run lacks it, in the base unit.
  MetricReading (*read)(const RunSummary&) = nullptr;
  // Run-level metrics the summary holds as one number (qps, the throughputs): that number, as the
  // tables print it whatever the run (read checks the run has it).
  double RunSummary::*value = nullptr;
  std::string_view definition;  // summary.json's "metric_definitions" entry, or ""

  bool per_request() const { return dist != nullptr; }
  std::string_view narrow_label() const { return short_label.empty() ? label : short_label; }
};

// Every metric, in the order the SLO grammar lists them.
std::span<const MetricInfo> metric_catalogue();

// The metric `metric` names.
const MetricInfo& metric_info(Metric metric);

// How many of the metric's base unit (ns, for times) make one of its unit: 1e6 for ms, 1e9 for s,
// 1 for every other kind.
double base_per_unit(const MetricInfo& metric);

// The metric named `name` (or its alias: "e2el" is latency's other name); nullptr when none.
const MetricInfo* find_metric_info(std::string_view name);

// A metric's key in llmperf's JSON files and tables: its name, then the statistic, then the unit
// the value is in ("/" as "_"). A time names its unit, a throughput "tok_s"; a rate in req/s, a
// count, a fraction and a token count name none:
//   metric_key(Metric::kTtft)                 "ttft_ms"        (summary.json's "metrics")
//   metric_key(Metric::kTtft, "p99")          "ttft_p99_ms"
//   metric_key(Metric::kLatency, "avg")       "latency_avg_s"  (the sweep's table)
//   metric_key(Metric::kOutputThroughput)     "output_throughput_tok_s"
//   metric_key(Metric::kQps)                  "qps"
const std::string& metric_key(Metric metric);  // made once: for a key written per record
std::string metric_key(Metric metric, std::string_view stat);
// The same in another unit ("" for none): metric_key_in(Metric::kLatency, "p50", "ms") is
// "latency_p50_ms", metric_key_in(Metric::kGoodput, "", "req/s") "goodput_req_s".
std::string metric_key_in(Metric metric, std::string_view stat, std::string_view unit);

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
// The figure `name` names ("ttft.p99", "qps"; as figure_name writes it) when its metric is in the
// catalogue (its stat is not checked): its metric is the catalogue's name, its stat a view into
// `name`.
std::optional<KeyFigure> figure_named(std::string_view name);
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

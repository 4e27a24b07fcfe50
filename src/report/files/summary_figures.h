// A run's summary.json as figures: one (metric, statistic, value, unit) per number, named as
// --slo names them, in summary.json's units. The history database stores a run as these rows
// (store/history_schema.h: table figures), and `--baseline db:` compares a run's figures with the
// history's, so both go through this one function. Names and units are the catalogue's
// (metrics/catalogue.h); a new distribution of summary.json (summary_metric_keys()) gives figures
// with no change here and no schema change.
//   per-request distributions: the catalogue's from the send: latency (s), ttft, ttfat, ttfb, tpot,
//     itl (ms), input_tokens, output_tokens (tokens), each with statistic mean, std, min, max and
//     every percentile kept (p50, p99, p99.9 ...)
//   run-level values, statistic "": qps, goodput (req/s), output_throughput, total_throughput,
//     peak_output_throughput (tok/s), error_rate, success_rate (fractions), duration (s),
//     peak_concurrency
//   counts, metric "requests" with statistic total, succeeded, failed, cancelled; metric
//     "tokens" with statistic input_total, output_total
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/summary_file.h"

namespace llmperf {

// One number of a run.
struct SummaryFigure {
  std::string metric;            // "ttft", "output_throughput", "requests"
  std::string statistic;         // "p99", "mean", "" (run-level values), "failed"
  std::optional<double> value;   // null: the run has the metric but no value (no TTFT sample)
  std::string unit;              // "ms", "s", "tokens", "req/s", "tok/s", "" (fraction, count)
  std::string name() const;      // "ttft.p99", "output_throughput"
};

// Every figure of the summary, in a fixed order (distributions first, then run-level values,
// then counts). Distributions the run did not produce (null in summary.json) give no figures.
std::vector<SummaryFigure> summary_figures(const SummaryFile& file);

// The figure named "metric.statistic" or "metric" (as SummaryFigure::name()), or nullptr.
const SummaryFigure* find_figure(const std::vector<SummaryFigure>& figures, const std::string& name);

}  // namespace llmperf

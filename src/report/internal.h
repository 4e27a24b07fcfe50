// Helpers shared by the files of the report stage: unit conversion, null-safe numbers, percentile
// labels, the JSON documents each file holds, and a plain-text table renderer. Private to
// src/report/.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "report/report.h"
#include "report/summary_file.h"
#include "verdict/metric_verdict.h"

namespace llmperf::report_detail {

using Json = nlohmann::ordered_json;

inline constexpr double kNsPerMs = 1e6;
inline constexpr double kNsPerS = 1e9;

using llmperf::json_integer;  // summary_file.h: the range-checked integer of a JSON value

using llmperf::number_or_null;  // summary_file.h: a finite number, or JSON null

// Rounds to `decimals` places (EvalScope's files use 4).
double round_to(double value, int decimals);

// "50", "99.9": the shortest text of a percentile point.
std::string percentile_label(double p);

// Index into summary.percentiles of `p`, or nullopt when it was not requested.
std::optional<size_t> percentile_index(const std::vector<double>& percentiles, double p);

// The distribution's value at percentile index i (or its mean) divided by `unit` (1e6 for ns ->
// ms); nullopt when the distribution is empty.
std::optional<double> percentile_in(const Distribution& d, size_t i, double unit);
std::optional<double> mean_in(const Distribution& d, double unit);

// A distribution as summary.json gives it: divided by `unit` (1e6 for ns -> ms), its percentiles
// keyed "p50", ...; nullopt when empty. distribution_json() is its JSON (or null).
std::optional<SummaryDistribution> summary_distribution(const Distribution& d,
                                                        const std::vector<double>& percentiles,
                                                        double unit);
Json distribution_json(const Distribution& d, const std::vector<double>& percentiles, double unit);

// A line saying that the ITL percentiles are approximate and how closely, or "" when every
// percentile is exact.
std::string approximation_note(const RunSummary& summary);

// How synthetic prompts were made ("workload") and requested vs realized lengths ("exactness"),
// for summary.json; the text summary's "Lengths" block ("" when there is nothing to say).
Json workload_json(const RunInfo& info);
WorkloadInfo workload_from_json(const nlohmann::json& workload);
Json exactness_json(const RunInfo& info, const RunSummary& summary);
std::string workload_text(const RunInfo& info, const RunSummary& summary);
// Whether the run's length misses (RunSummary::length_misses) call for the end-of-run WARNING:
// more than kLengthMissWarnShare of the checked requests, where lengths were counted exactly
// (approximate lengths miss by design) or only forced outputs were checked.
bool length_miss_warned(const RunInfo& info, const RunSummary& summary);
inline constexpr double kLengthMissWarnShare = 0.01;
// --dataset shared_prefix: TTFT by first and repeated use of a prefix (text, and summary.json's
// "shared_prefix", null for other workloads).
std::string shared_prefix_text(const RunSummary& summary);
Json shared_prefix_json(const RunSummary& summary);
// --multi-turn: statistics by turn and by conversation (text, and summary.json's
// "conversations", null for other workloads).
std::string conversations_text(const RunSummary& summary);
Json conversations_json(const RunSummary& summary);
// Trace replay: what the trace held and how much of it a prefix cache could reuse, next to what
// the server reported cached (text, and summary.json's "trace", null for other workloads).
std::string trace_text(const RunInfo& info, const RunSummary& summary);
Json trace_json(const RunInfo& info, const RunSummary& summary);
TraceInfo trace_from_json(const nlohmann::json& trace);  // off when not an object
// "server /tokenize (llama.cpp), chat template included (...)", with "; APPROXIMATE" when not
// exact.
std::string tokenizer_label(const TokenizerInfo& tokenizer);

// vLLM's console block (--summary-format vllm) and its --save-result file, vllm_result.json,
// written into info.output_dir with the per-request arrays gathered during the run
// (formats/vllm.cpp).
std::string render_vllm_block(const ReportOptions& options, const RunInfo& info,
                              const RunSummary& summary);
void write_vllm_result(const ReportOptions& options, const RunInfo& info, const RunSummary& summary,
                       const VllmArrays& requests);
// summary.json of a run (summary_file_text() writes it); summary_file.h's run_info_from_summary
// reads the run's identity back.
SummaryFile summary_file(const ReportOptions& options, const RunInfo& info,
                         const RunSummary& summary);
// Open loop: "the in-flight cap of 64 was reached for 93.0% of sends (279 of 300): the server
// did not keep up with 20 req/s; ..." for the text, summary.json and report.html; "" when no send
// waited for a free slot.
std::string cap_reached_text(const RunInfo& info, const RunSummary& summary);
// summary.json's "server": identity, /metrics over the run, reconciliation, profiling.
Json server_json(const RunInfo& info, const RunSummary& summary);
// Several --url: the text summary's "By URL" table ("" with one URL).
std::string by_url_text(const ReportOptions& options, const RunSummary& summary);
// Several --url: summary.json's "by_url" array, one object per URL (null with one URL).
Json by_url_json(const ReportOptions& options, const RunInfo& info, const RunSummary& summary);
// A server histogram's q-quantile (0-1) as the text tables show it, in milliseconds; "-" for
// both when the histogram has no observations.
struct QuantileCells {
  std::string value_ms;   // the estimate, interpolated within its bucket
  std::string bucket_ms;  // "lower-upper" of that bucket, "inf" for the open last one
};
QuantileCells server_quantile_cells(const std::optional<HistogramWindow>& h, double q);
// A server gauge's value (its max, or mean, times `scale`) as the text tables show it: "-" when
// the server has no such gauge, "n/a (1 scrape)" when too few scrapes fell inside the run.
std::string server_gauge_cell(const GaugeStats& g, double GaugeStats::*value, double scale);
// Why a gauge's figures are absent although the server has it ("" when they are present).
std::string server_gauge_gap(const GaugeStats& g);
// The first such reason among the run's gauges (running, waiting, KV-cache usage); "" when all
// the gauges the server has are complete.
std::string server_gauges_gap(const ServerSummary& s);
Json benchmark_summary_json(const RunInfo& info, const RunSummary& summary);
Json benchmark_percentile_json(const RunSummary& summary);

// The whole content of a file; throws std::runtime_error naming the file when it cannot be read.
std::string read_text_file(const std::string& path);
// A file's content parsed as JSON; throws std::runtime_error naming the file when it cannot be read
// or is not valid JSON.
nlohmann::json read_json_file(const std::string& path);

using llmperf::redact;  // core/text.h: each of `secrets` (ReportOptions::secrets) by "***"
// JSON number text of seconds from nanoseconds, as nlohmann::json::dump() writes a double.
std::string seconds_text(int64_t ns);

// Aligned plain-text table. Columns are right-aligned except the first and those listed in
// `left_aligned`.
std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<size_t>& left_aligned = {});

// A number for text output with about 4 significant digits; "-" when absent or not finite.
std::string format_number(std::optional<double> value);

// A metric's verdict as the baseline tables show it: "ok", "REGRESSION", "improved", "-" (not
// judged). For --baseline's table (verdict_text.cpp) and --baseline db:FILE's.
const char* verdict_name(MetricVerdict verdict);

// One per-request metric as the summaries list it: display label, distribution, unit divisor.
struct MetricRow {
  const char* label;
  const Distribution* dist;
  double unit;
};

// The per-request metrics in display order (with the planned-send rows of open-loop runs).
std::vector<MetricRow> per_request_metrics(const RunSummary& s);
// What each request was, for headers: "stream", "non-stream", "embeddings, batch 8", ...
std::string request_kind(const ReportOptions& options);

}  // namespace llmperf::report_detail

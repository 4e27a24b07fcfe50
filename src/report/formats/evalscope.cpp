// benchmark_summary.json and benchmark_percentile.json: the files EvalScope's `perf` writes, keyed
// by its display names so that scripts written for EvalScope read llmperf's results unchanged.
// Values are rounded to 4 decimals as EvalScope does; metrics with no samples are null.
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

constexpr int kDecimals = 4;

Json rounded(std::optional<double> value) {
  if (!value) return nullptr;
  return number_or_null(round_to(*value, kDecimals));
}

}  // namespace

Json benchmark_summary_json(const RunInfo& info, const RunSummary& summary) {
  return Json{
      {"Test Duration (s)", rounded(static_cast<double>(summary.window_ns) / kNsPerS)},
      {"Concurrency", info.parallel},
      {"Request Rate (req/s)", info.rate < 0 ? Json(-1) : rounded(info.rate)},
      {"Total Requests", summary.total},
      {"Success Requests", summary.succeeded},
      {"Failed Requests", summary.failed},
      {"Req Throughput (req/s)", rounded(summary.qps)},
      {"Avg Latency (s)", rounded(mean_in(summary.latency_ns, kNsPerS))},
      {"Avg TTFT (ms)", rounded(mean_in(summary.ttft_ns, kNsPerMs))},
      {"Avg TPOT (ms)", rounded(mean_in(summary.tpot_ns, kNsPerMs))},
      {"Avg ITL (ms)", rounded(mean_in(summary.itl_ns, kNsPerMs))},
      {"Avg Input Tokens", rounded(mean_in(summary.input_tokens, 1))},
      {"Avg Output Tokens", rounded(mean_in(summary.output_tokens, 1))},
      {"Output Throughput (tok/s)", rounded(summary.output_throughput)},
      {"Total Throughput (tok/s)", rounded(summary.total_throughput)},
  };
}

Json benchmark_percentile_json(const RunSummary& summary) {
  Json rows = Json::array();
  for (size_t i = 0; i < summary.percentiles.size(); ++i) {
    rows.push_back(Json{
        {"Percentiles", percentile_label(summary.percentiles[i]) + "%"},
        {"TTFT (ms)", rounded(percentile_in(summary.ttft_ns, i, kNsPerMs))},
        {"ITL (ms)", rounded(percentile_in(summary.itl_ns, i, kNsPerMs))},
        {"TPOT (ms)", rounded(percentile_in(summary.tpot_ns, i, kNsPerMs))},
        {"Latency (s)", rounded(percentile_in(summary.latency_ns, i, kNsPerS))},
        {"Input tokens", rounded(percentile_in(summary.input_tokens, i, 1))},
        {"Output tokens", rounded(percentile_in(summary.output_tokens, i, 1))},
        {"Output (tok/s)", rounded(percentile_in(summary.output_tps_per_request, i, 1))},
        {"Total (tok/s)", rounded(percentile_in(summary.total_tps_per_request, i, 1))},
    });
  }
  return rows;
}

}  // namespace llmperf::report_detail

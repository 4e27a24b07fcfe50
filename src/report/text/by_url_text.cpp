// The text summary's "By URL" table: with several --url, each replica's requests, failures,
// throughput and TTFT / latency (mean, p50, p99 where --percentiles has them), from
// RunSummary::by_url.
#include <fmt/format.h>

#include "report/internal.h"

namespace llmperf {
namespace report_detail {

std::string by_url_text(const ReportOptions& options, const RunSummary& summary) {
  if (summary.by_url.empty()) return "";
  const std::vector<double>& p = summary.percentiles;
  const std::optional<size_t> p50 = percentile_index(p, 50);
  const std::optional<size_t> p99 = percentile_index(p, 99);
  std::vector<std::string> headers = {"URL",         "Requests",       "Failed",
                                      "QPS (req/s)", "Output (tok/s)", "TTFT mean (ms)"};
  if (p50) headers.emplace_back("TTFT p50 (ms)");
  if (p99) headers.emplace_back("TTFT p99 (ms)");
  headers.emplace_back("Latency mean (s)");
  if (p50) headers.emplace_back("Latency p50 (s)");
  if (p99) headers.emplace_back("Latency p99 (s)");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < summary.by_url.size(); ++i) {
    const RunSummary& s = summary.by_url[i];
    std::vector<std::string> row = {
        i < options.urls.size() ? options.urls[i] : fmt::format("#{}", i),
        fmt::format("{}", s.total),
        fmt::format("{}", s.failed),
        format_number(s.qps),
        format_number(s.output_throughput),
        format_number(mean_in(s.ttft_ns, kNsPerMs))};
    if (p50) row.push_back(format_number(percentile_in(s.ttft_ns, *p50, kNsPerMs)));
    if (p99) row.push_back(format_number(percentile_in(s.ttft_ns, *p99, kNsPerMs)));
    row.push_back(format_number(mean_in(s.latency_ns, kNsPerS)));
    if (p50) row.push_back(format_number(percentile_in(s.latency_ns, *p50, kNsPerS)));
    if (p99) row.push_back(format_number(percentile_in(s.latency_ns, *p99, kNsPerS)));
    rows.push_back(std::move(row));
  }
  return "\nBy URL (successful requests; the run's totals above)\n" +
         render_table(headers, rows, {});
}

}  // namespace report_detail
}  // namespace llmperf

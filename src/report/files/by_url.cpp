// summary.json's "by_url" block: with several --url, the run's results per replica, each entry
// made from that URL's own RunSummary (RunSummary::by_url) by the same code as the whole run's.
#include <cmath>

#include "metrics/catalogue.h"
#include "report/internal.h"

namespace llmperf {
namespace report_detail {

Json by_url_json(const ReportOptions& options, const RunInfo& info, const RunSummary& summary) {
  if (summary.by_url.empty()) return nullptr;
  const auto finite = [](double value) { return std::isfinite(value) ? Json(value) : Json(); };
  Json out = Json::array();
  for (size_t i = 0; i < summary.by_url.size(); ++i) {
    const RunSummary& s = summary.by_url[i];
    const SummaryFile f = summary_file(options, info, s);
    out.push_back(Json{
        {"url_index", i},
        {"url", i < options.urls.size() ? Json(options.urls[i]) : Json(nullptr)},
        {"requests", Json{{"total", s.total}, {"succeeded", s.succeeded}, {"failed", s.failed}}},
        {"failures_by_kind", s.failures_by_kind},
        {"window_s", finite(static_cast<double>(s.window_ns) / kNsPerS)},
        {metric_key(Metric::kQps), finite(s.qps)},
        {metric_key(Metric::kOutputThroughput), finite(s.output_throughput)},
        {metric_key(Metric::kTotalThroughput), finite(s.total_throughput)},
        {"metrics", summary_metrics_json(f.metrics)},
    });
  }
  return out;
}

}  // namespace report_detail
}  // namespace llmperf

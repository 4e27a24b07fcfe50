// See summary_figures.h.
#include "report/files/summary_figures.h"

#include <utility>

namespace llmperf {
namespace {

void add_distribution(std::vector<SummaryFigure>& out, const char* metric, const char* unit,
                      const std::optional<SummaryDistribution>& d) {
  if (!d) return;
  out.push_back({metric, "mean", d->mean, unit});
  out.push_back({metric, "std", d->stddev, unit});
  out.push_back({metric, "min", d->min, unit});
  out.push_back({metric, "max", d->max, unit});
  for (const auto& [key, value] : d->percentiles) out.push_back({metric, key, value, unit});
}

std::optional<double> as_double(int64_t value) { return static_cast<double>(value); }

}  // namespace

std::string SummaryFigure::name() const {
  return statistic.empty() ? metric : metric + "." + statistic;
}

std::vector<SummaryFigure> summary_figures(const SummaryFile& file) {
  std::vector<SummaryFigure> out;
  const SummaryMetrics& m = file.metrics;
  add_distribution(out, "latency", "s", m.latency_s);
  add_distribution(out, "ttft", "ms", m.ttft_ms);
  add_distribution(out, "ttfat", "ms", m.ttfat_ms);
  add_distribution(out, "ttfb", "ms", m.ttfb_ms);
  add_distribution(out, "tpot", "ms", m.tpot_ms);
  add_distribution(out, "itl", "ms", m.itl_ms);
  add_distribution(out, "input_tokens", "tokens", m.input_tokens);
  add_distribution(out, "output_tokens", "tokens", m.output_tokens);

  const SummaryRequests& r = file.requests;
  std::optional<double> error_rate;
  std::optional<double> success_rate;
  if (r.total > 0) {
    error_rate = static_cast<double>(r.failed) / static_cast<double>(r.total);
    success_rate = static_cast<double>(r.succeeded) / static_cast<double>(r.total);
  }
  std::optional<double> goodput;
  if (file.goodput.is_object()) goodput = json_field<double>(file.goodput, "goodput_req_s");
  out.push_back({"qps", "", file.qps, "req/s"});
  if (file.goodput.is_object()) out.push_back({"goodput", "", goodput, "req/s"});
  out.push_back({"output_throughput", "", file.output_throughput_tok_s, "tok/s"});
  out.push_back({"total_throughput", "", file.total_throughput_tok_s, "tok/s"});
  out.push_back({"peak_output_throughput", "", file.peak_output_throughput_tok_s, "tok/s"});
  out.push_back({"error_rate", "", error_rate, ""});
  out.push_back({"success_rate", "", success_rate, ""});
  out.push_back({"duration", "", file.run.duration_s, "s"});
  out.push_back({"peak_concurrency", "", as_double(file.peak_concurrency), ""});

  out.push_back({"requests", "total", as_double(r.total), ""});
  out.push_back({"requests", "succeeded", as_double(r.succeeded), ""});
  out.push_back({"requests", "failed", as_double(r.failed), ""});
  out.push_back({"requests", "cancelled", as_double(r.cancelled), ""});
  out.push_back({"tokens", "input_total", as_double(file.tokens.input_total), "tokens"});
  out.push_back({"tokens", "output_total", as_double(file.tokens.output_total), "tokens"});
  return out;
}

const SummaryFigure* find_figure(const std::vector<SummaryFigure>& figures,
                                 const std::string& name) {
  for (const SummaryFigure& figure : figures) {
    if (figure.name() == name) return &figure;
  }
  return nullptr;
}

}  // namespace llmperf

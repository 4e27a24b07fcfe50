// See summary_figures.h.
#include "report/files/summary_figures.h"

#include <utility>

namespace llmperf {
namespace {

void add_distribution(std::vector<SummaryFigure>& out, const MetricInfo& info,
                      const std::optional<SummaryDistribution>& d) {
  if (!d) return;
  const std::string metric(info.name);
  const std::string unit(info.unit);
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
  // The catalogue's distributions, from the send (those from the planned send are left out).
  for (const SummaryMetricKey& key : summary_metric_keys()) {
    if (!key.metric) continue;
    const MetricInfo& info = metric_info(*key.metric);
    if (info.clock == MetricClock::kFromPlanned) continue;
    add_distribution(out, info, file.metrics.*key.field);
  }

  const SummaryRequests& r = file.requests;
  std::optional<double> error_rate;
  std::optional<double> success_rate;
  if (r.total > 0) {
    error_rate = static_cast<double>(r.failed) / static_cast<double>(r.total);
    success_rate = static_cast<double>(r.succeeded) / static_cast<double>(r.total);
  }
  const auto run_level = [&out](Metric metric, std::optional<double> value) {
    const MetricInfo& info = metric_info(metric);
    out.push_back({std::string(info.name), "", value, std::string(info.unit)});
  };
  const std::string goodput_key = metric_key_in(Metric::kGoodput, "", "req/s");
  run_level(Metric::kQps, file.qps);
  if (file.goodput.is_object()) {
    run_level(Metric::kGoodput, json_field<double>(file.goodput, goodput_key.c_str()));
  }
  run_level(Metric::kOutputThroughput, file.output_throughput_tok_s);
  run_level(Metric::kTotalThroughput, file.total_throughput_tok_s);
  out.push_back({"peak_output_throughput", "", file.peak_output_throughput_tok_s, "tok/s"});
  run_level(Metric::kErrorRate, error_rate);
  run_level(Metric::kSuccessRate, success_rate);
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

// What the reports read of a Config (ReportOptions): filled once per run, so that no report
// takes the whole Config.
#include <nlohmann/json.hpp>

#include "report/internal.h"

namespace llmperf {

ReportOptions report_options(const Config& config) {
  ReportOptions options;
  options.model = config.model;
  options.name = config.name;
  options.url = config.url;
  options.api_kind = config.api_kind;
  options.stream = config.stream;
  options.batch_size = config.batch_size;
  options.documents = config.documents;
  options.image_num = config.image_num;
  options.image_width = config.image_width;
  options.image_height = config.image_height;
  options.summary_format = config.summary_format;
  options.arrival = config.arrival;
  options.burstiness = config.burstiness;
  options.default_cap = config.default_cap;
  options.percentile_metrics = config.percentile_metrics;
  options.metric_percentiles = config.metric_percentiles;
  options.vllm = config.vllm;
  options.several_runs = config.run_specs().size() > 1;
  options.percentiles = config.percentiles;
  options.output_forced = config.ignore_eos.value_or(false);
  options.metrics_interval_s = config.metrics_interval_s;
  options.secrets = report_detail::secrets_of(config);
  // Invalid UTF-8 (a --prompt cut mid-character) becomes U+FFFD, as summary.json writes it.
  options.config_json = report_detail::config_json(config).dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return options;
}

}  // namespace llmperf

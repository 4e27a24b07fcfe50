// What the reports read of a run's flags (ReportOptions): filled once per run from its Config, or
// from the config block of its saved summary.json (config_json wrote it), so that no report takes
// the whole Config.
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

// A value the block lacks (or holds with another type) keeps ReportOptions' default. Not recorded
// there, so left at their defaults: summary_format (the caller's), default_cap, several_runs and
// the --save-result copy (vllm_result.json is rewritten in the run directory only), and the
// secrets (the block holds them masked).
ReportOptions report_options(const SummaryFile& saved) {
  const SummaryFile::Json& c = saved.config;
  ReportOptions options;
  read_json_field(c, "model", options.model);
  read_json_field(c, "name", options.name);
  read_json_field(c, "url", options.url);
  options.api_kind = api_kind_from_name(json_field<std::string>(c, "api_kind").value_or("chat"));
  read_json_field(c, "stream", options.stream);
  read_json_field(c, "batch_size", options.batch_size);
  read_json_field(c, "documents", options.documents);
  read_json_field(c, "image_num", options.image_num);
  read_json_field(c, "image_width", options.image_width);
  read_json_field(c, "image_height", options.image_height);
  read_json_field(c, "arrival", options.arrival);
  read_json_field(c, "burstiness", options.burstiness);
  read_json_field(c, "percentile_metrics", options.percentile_metrics);
  read_json_field(c, "metric_percentiles", options.metric_percentiles);
  read_json_field(c, "percentiles", options.percentiles);
  options.output_forced = json_field<bool>(c, "ignore_eos").value_or(false);
  read_json_field(c, "metrics_interval", options.metrics_interval_s);
  if (const auto vllm = c.find("vllm"); vllm != c.end() && vllm->is_object()) {
    read_json_field(*vllm, "backend", options.vllm.backend);
    read_json_field(*vllm, "label", options.vllm.label);
    read_json_field(*vllm, "model_id", options.vllm.model_id);
    read_json_field(*vllm, "tokenizer", options.vllm.tokenizer);
    if (const auto m = vllm->find("metadata"); m != vllm->end() && m->is_object()) {
      for (const auto& [key, value] : m->items()) {
        if (value.is_string()) options.vllm.metadata.emplace_back(key, value.get<std::string>());
      }
    }
  }
  if (!c.is_null()) {
    options.config_json = c.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return options;
}

}  // namespace llmperf

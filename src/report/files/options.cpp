// summary.json's config block read back as what the reports need of it (report_options), so that
// `llmperf report` writes the block back as it was. The block is written from a Config by the plan
// stage (plan/config_block.cpp), which fills a run's ReportOptions: no report sees the Config.
#include <string>

#include <nlohmann/json.hpp>

#include "report/internal.h"

namespace llmperf {

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
  read_json_field(c, "urls", options.urls);
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

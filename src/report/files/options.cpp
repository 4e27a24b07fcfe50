// summary.json's config block: written from a Config (config_json, secrets masked), and read back
// as what the reports need of it (report_options), so that no report takes the whole Config and
// `llmperf report` writes the block back as it was.
#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/internal.h"

#include "core/text.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr const char* kMasked = "***";

template <typename T>
Json optional_json(const std::optional<T>& value) {
  if (!value) return nullptr;
  if constexpr (std::is_floating_point_v<T>) return number_or_null(*value);
  return *value;
}

Json extra_args_json(const std::string& extra_args) {
  if (extra_args.empty()) return nullptr;
  Json parsed = Json::parse(extra_args, nullptr, false);
  if (parsed.is_discarded()) return extra_args;
  return parsed;
}

// vLLM's result-file flags, so that `llmperf report` writes vllm_result.json as the run did.
Json vllm_options_json(const VllmResultOptions& vllm) {
  Json metadata = Json::object();
  for (const auto& [key, value] : vllm.metadata) metadata[key] = value;
  return Json{{"backend", vllm.backend},
              {"label", vllm.label},
              {"model_id", vllm.model_id},
              {"tokenizer", vllm.tokenizer},
              {"metadata", metadata}};
}

}  // namespace

bool is_secret_header(const std::string& name) {
  static const char* const kExact[] = {"authorization", "proxy-authorization", "x-api-key",
                                       "api-key", "cookie"};
  std::string lower = ascii_lower(name);
  for (const char* exact : kExact) {
    if (lower == exact) return true;
  }
  return lower.find("token") != std::string::npos || lower.find("secret") != std::string::npos ||
         lower.find("key") != std::string::npos;
}

Json config_json(const Config& config, const ResolvedFlags& resolved) {
  Json headers = Json::object();
  for (const auto& [name, value] : config.target.headers) {
    headers[name] = is_secret_header(name) ? Json(kMasked) : Json(value);
  }
  Json max_prompt_length = nullptr;
  if (config.workload.max_prompt_length != std::numeric_limits<int64_t>::max()) {
    max_prompt_length = config.workload.max_prompt_length;
  }
  Json out{
      {"api", config.target.api},
      {"api_kind", api_kind_name(config.target.api_kind)},
      {"url", config.target.url},
      {"model", resolved.model},
      {"api_key", config.target.api_key.empty() ? Json(nullptr) : Json(kMasked)},
      {"headers", headers},
      {"insecure", config.target.insecure},
      {"dataset", config.workload.dataset},
      {"dataset_path", config.workload.dataset_path},
      {"prompt", config.workload.prompt},
      {"min_prompt_length", config.workload.min_prompt_length},
      {"max_prompt_length", max_prompt_length},
      {"input_tokens", config.workload.input_tokens},
      {"output_tokens", config.workload.output_tokens},
      {"prefix_length", config.workload.prefix_length},
      {"prefix_groups", config.workload.prefix_groups},
      {"prompts_per_group", config.workload.prompts_per_group},
      {"prefix_zipf", config.workload.prefix_zipf},
      {"ignore_eos", optional_json(config.body.ignore_eos)},
      {"tokenize_prompt", config.workload.tokenize_prompt},
      {"tokenize_url", config.workload.tokenize_url},
      {"server_metrics", config.server.server_metrics},
      {"metrics_url", config.server.metrics_url},
      {"metrics_interval", config.server.metrics_interval_s},
      {"profile", config.server.profile},
      {"sharegpt_output_len", config.workload.sharegpt_output_len < 0
                                  ? Json(nullptr)
                                  : Json(config.workload.sharegpt_output_len)},
      {"sharegpt_min_len", config.workload.sharegpt_min_len},
      {"sharegpt_max_input_len", config.workload.sharegpt_max_input_len},
      {"sharegpt_max_total_len", config.workload.sharegpt_max_total_len},
      {"parallel", config.load.parallel},
      {"number", resolved.number},
      {"threads", config.load.threads > 0 ? Json(config.load.threads) : Json("auto")},
      {"sleep_interval", number_or_null(config.load.sleep_interval_s)},
      {"seed", config.load.seed},
      {"stream", config.body.stream},
      {"max_tokens", optional_json(config.body.max_tokens)},
      {"max_tokens_low",
       config.body.max_tokens_low < 0 ? Json(nullptr) : Json(config.body.max_tokens_low)},
      {"min_tokens", optional_json(config.body.min_tokens)},
      {"temperature", optional_json(config.body.temperature)},
      {"top_p", optional_json(config.body.top_p)},
      {"stop", config.body.stop},
      {"stop_token_ids", config.body.stop_token_ids},
      {"extra_args", extra_args_json(config.body.extra_args)},
      {"connect_timeout", number_or_null(config.target.connect_timeout_s)},
      {"read_timeout", number_or_null(config.target.read_timeout_s)},
      {"total_timeout", number_or_null(config.target.total_timeout_s)},
      {"outputs_dir", config.output.outputs_dir},
      {"name", config.output.name},
      {"log_every_n_query", config.output.log_every_n_query},
      {"debug", config.output.debug},
      {"percentiles", config.output.percentiles},
      {"percentile_metrics", config.output.percentile_metrics},
      {"metric_percentiles", config.output.metric_percentiles},
      {"vllm", vllm_options_json(config.output.vllm)},
      {"probe", config.target.probe},
      {"allow_truncation", config.workload.allow_truncation},
      {"rate", resolved.rate},
      {"arrival", config.load.arrival},
      {"burstiness", config.load.burstiness},
      {"duration", config.load.duration_s},
      {"warmup_num", config.load.warmup_num},
      {"goodput", config.verdicts.goodput},
      {"slo", config.verdicts.slo},
      {"junit", config.output.junit_path},
      {"baseline", config.verdicts.baseline_path},
      {"tolerance", config.verdicts.tolerance},
      {"search", config.verdicts.search},
      {"search_range", config.verdicts.search_range},
      {"batch_size", config.workload.batch_size},
      {"documents", config.workload.documents},
      {"image_num", config.workload.image_num},
      {"image_width", config.workload.image_width},
      {"image_height", config.workload.image_height},
      {"start_at_unix_ns",
       config.load.start_at_unix_ns < 0 ? Json(nullptr) : Json(config.load.start_at_unix_ns)},
  };
  // Early stops and repeats: only when asked for, so that other runs keep their bytes.
  if (config.verdicts.max_errors > 0) out["max_errors"] = config.verdicts.max_errors;
  if (config.verdicts.max_error_rate >= 0) {
    out["max_error_rate"] = config.verdicts.max_error_rate;
    out["error_window"] = config.verdicts.error_window;
  }
  if (config.verdicts.stop_on_saturation) {
    out["stop_on_saturation"] = true;
    out["saturation_window"] = config.verdicts.saturation_window_s;
  }
  if (config.verdicts.max_errors > 0 || config.verdicts.max_error_rate >= 0 ||
      config.verdicts.stop_on_saturation) {
    out["on_stop"] = config.verdicts.on_stop;
  }
  if (config.load.num_runs > 1) out["num_runs"] = config.load.num_runs;
  if (config.target.urls.size() > 1) {  // several --url: the list records' url_index points into
    Json urls = Json::array();
    for (const std::string& url : config.target.urls) urls.push_back(url_without_userinfo(url));
    out["urls"] = urls;
    out["url_policy"] = config.target.url_policy;
  }
  if (config.load.cancel_rate > 0) {  // --cancel-rate only
    out["cancel_rate"] = config.load.cancel_rate;
    out["cancel_after"] = config.load.cancel_after;
    out["include_cancelled"] = config.load.include_cancelled;
  }
  if (!config.output.tags.empty()) {  // --tag: an object, key -> value, in the order given
    Json tags = Json::object();
    for (const auto& [key, value] : config.output.tags) tags[key] = value;
    out["tags"] = tags;
  }
  if (!config.output.push_gateway.empty()) {  // --push-gateway only
    out["push_gateway"] = url_without_userinfo(config.output.push_gateway);
    out["push_interval"] = config.output.push_interval_s;
  }
  return out;
}

}  // namespace report_detail

using report_detail::Json;

std::string benchmark_run_id(const Config& config, const ResolvedFlags& resolved) {
  Json j = report_detail::config_json(config, resolved);
  // Where each shard writes and how it logs may differ; the benchmark is the same.
  for (const char* key : {"outputs_dir", "debug", "log_every_n_query", "junit", "baseline"}) {
    j.erase(key);
  }
  uint64_t hash = 14695981039346656037ull;  // FNV-1a: the same id on every machine and build
  for (const unsigned char c : j.dump()) hash = (hash ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

ReportOptions report_options(const Config& config, const ResolvedFlags& resolved) {
  ReportOptions options;
  options.model = resolved.model;
  options.name = config.output.name;
  options.url = config.target.url;
  for (const std::string& url : config.target.urls)
    options.urls.push_back(url_without_userinfo(url));
  options.api_kind = config.target.api_kind;
  options.stream = config.body.stream;
  options.batch_size = config.workload.batch_size;
  options.documents = config.workload.documents;
  options.image_num = config.workload.image_num;
  options.image_width = config.workload.image_width;
  options.image_height = config.workload.image_height;
  options.summary_format = config.output.summary_format;
  options.arrival = config.load.arrival;
  options.burstiness = config.load.burstiness;
  options.default_cap = config.load.default_cap;
  options.percentile_metrics = config.output.percentile_metrics;
  options.metric_percentiles = config.output.metric_percentiles;
  options.vllm = config.output.vllm;
  options.several_runs = run_specs(config, resolved).size() > 1;
  options.percentiles = config.output.percentiles;
  options.output_forced = config.body.ignore_eos.value_or(false);
  options.metrics_interval_s = config.server.metrics_interval_s;
  options.verbose = config.output.verbose;
  options.secrets = report_detail::secrets_of(config);
  // Invalid UTF-8 (a --prompt cut mid-character) becomes U+FFFD, as summary.json writes it.
  options.config_json = report_detail::config_json(config, resolved).dump(
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

// summary.json's config block from a Config, and the credentials no file may hold (see
// config_block.h).
#include "plan/config_block.h"

#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include "core/text.h"
#include "report/summary_file.h"

namespace llmperf {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kMasked = "***";
constexpr size_t kMinSecretLength = 6;  // shorter values would scrub innocent text

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

// True when a header's value is a credential and must be masked.
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

}  // namespace

Json config_block(const Config& config, const ResolvedFlags& resolved) {
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

std::vector<std::string> config_secrets(const Config& config) {
  std::vector<std::string> raw;
  if (!config.target.api_key.empty()) raw.push_back(config.target.api_key);
  for (const auto& [name, value] : config.target.headers) {
    if (!is_secret_header(name)) continue;
    raw.push_back(value);
    if (value.rfind("Bearer ", 0) == 0) raw.push_back(value.substr(7));
  }
  // Credentials in a URL ("http://user:password@host/..."): the password, and user:password.
  std::vector<std::string> urls = config.target.urls;
  urls.push_back(config.target.url);
  for (const std::string& url : urls) {
    const std::string_view userinfo = url_userinfo(url);
    const size_t colon = userinfo.find(':');
    if (colon == std::string_view::npos) continue;
    raw.emplace_back(userinfo);
    raw.emplace_back(userinfo.substr(colon + 1));
  }
  std::vector<std::string> secrets;
  for (const auto& secret : raw) {
    if (secret.size() < kMinSecretLength) continue;
    secrets.push_back(secret);
    std::string escaped =
        nlohmann::json(secret).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    escaped = escaped.substr(1, escaped.size() - 2);
    if (escaped != secret) secrets.push_back(escaped);
  }
  return secrets;
}

}  // namespace llmperf

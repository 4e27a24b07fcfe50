// summary.json ("llmperf.summary/1") and the masked config, plus the JSON helpers the other report
// files share. Times leave here in explicit units: metrics in ms or s.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "report/internal.h"
#include "verdict/summary_schema.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr const char* kVersion = "0.1.0";
constexpr const char* kMasked = "***";

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

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

Json dataset_json(const DatasetStats& stats) {
  return Json{{"records_read", stats.records_read},
              {"accepted", stats.accepted},
              {"skipped_length", stats.skipped_length},
              {"skipped_empty", stats.skipped_empty},
              {"skipped_turns", stats.skipped_turns},
              {"malformed", stats.malformed},
              {"malformed_lines", stats.malformed_lines},
              {"first_malformed_reason", stats.first_malformed_reason}};
}

Json metric_definitions_json() {
  return Json{
      {"ttft",
       "first output-carrying chunk (reasoning included) minus the actual send time "
       "(stream only)"},
      {"ttfat",
       "first chunk carrying answer output (not reasoning) minus the actual send time "
       "(stream only); equals ttft for streams that do not reason"},
      {"reasoning_time", "first answer chunk minus first reasoning chunk, streams that reasoned"},
      {"items_throughput", "embeddings inputs (rerank documents) of successful requests / window"},
      {"ttfb", "first response byte minus the actual send time"},
      {"latency", "last response byte minus the actual send time (end-to-end)"},
      {"tpot", "(latency - ttft) / (output_tokens - 1) per request with output_tokens > 1"},
      {"itl", "gaps between consecutive output-carrying chunks, pooled across requests"},
      {"window", "earliest send to latest end among measured (non-warm-up) requests"},
      {"qps", "successful requests / window"},
      {"output_throughput", "sum of output tokens of successful requests / window"},
      {"total_throughput", "sum of input and output tokens of successful requests / window"},
      {"percentiles", "linear interpolation between closest ranks (numpy default)"},
  };
}

}  // namespace

Json number_or_null(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

Json number_or_null(std::optional<double> value) {
  if (!value) return nullptr;
  return number_or_null(*value);
}

double round_to(double value, int decimals) {
  double factor = std::pow(10.0, decimals);
  return std::round(value * factor) / factor;
}

std::string percentile_label(double p) { return fmt::format("{}", p); }

std::optional<size_t> percentile_index(const std::vector<double>& percentiles, double p) {
  for (size_t i = 0; i < percentiles.size(); ++i) {
    if (percentiles[i] == p) return i;
  }
  return std::nullopt;
}

std::optional<double> percentile_in(const Distribution& d, size_t i, double unit) {
  if (d.empty() || i >= d.percentiles.size()) return std::nullopt;
  return d.percentiles[i] / unit;
}

std::optional<double> mean_in(const Distribution& d, double unit) {
  if (d.empty()) return std::nullopt;
  return d.mean / unit;
}

Json distribution_json(const Distribution& d, const std::vector<double>& percentiles, double unit) {
  if (d.empty()) return nullptr;
  Json points = Json::object();
  for (size_t i = 0; i < percentiles.size(); ++i) {
    points["p" + percentile_label(percentiles[i])] = number_or_null(percentile_in(d, i, unit));
  }
  Json out{{"count", d.count},
           {"mean", number_or_null(d.mean / unit)},
           {"std", number_or_null(d.std / unit)},
           {"min", number_or_null(d.min / unit)},
           {"max", number_or_null(d.max / unit)},
           {"percentiles", points}};
  // Present only when the percentiles came from PooledSamples' histogram (very long runs).
  if (d.percentiles_approximate) out["percentiles_relative_error"] = PooledSamples::kRelativeError;
  return out;
}

std::string approximation_note(const RunSummary& s) {
  if (!s.itl_ns.percentiles_approximate) return "";
  return fmt::format(
      "ITL percentiles come from a histogram of all {} gaps (more than the {} kept exactly): each "
      "is within {:.4f} % of the exact value; count, mean, std, min and max are exact.\n",
      s.itl_ns.count, PooledSamples::kDefaultExactLimit, PooledSamples::kRelativeError * 100);
}

bool is_secret_header(const std::string& name) {
  static const char* const kExact[] = {"authorization", "proxy-authorization", "x-api-key",
                                       "api-key", "cookie"};
  std::string lower = lowercase(name);
  for (const char* exact : kExact) {
    if (lower == exact) return true;
  }
  return lower.find("token") != std::string::npos || lower.find("secret") != std::string::npos ||
         lower.find("key") != std::string::npos;
}

Json config_json(const Config& config) {
  Json headers = Json::object();
  for (const auto& [name, value] : config.headers) {
    headers[name] = is_secret_header(name) ? Json(kMasked) : Json(value);
  }
  Json max_prompt_length = nullptr;
  if (config.max_prompt_length != std::numeric_limits<int64_t>::max()) {
    max_prompt_length = config.max_prompt_length;
  }
  return Json{
      {"api", config.api},
      {"api_kind", api_kind_name(config.api_kind)},
      {"url", config.url},
      {"model", config.model},
      {"api_key", config.api_key.empty() ? Json(nullptr) : Json(kMasked)},
      {"headers", headers},
      {"insecure", config.insecure},
      {"dataset", config.dataset},
      {"dataset_path", config.dataset_path},
      {"prompt", config.prompt},
      {"min_prompt_length", config.min_prompt_length},
      {"max_prompt_length", max_prompt_length},
      {"input_tokens", config.input_tokens},
      {"output_tokens", config.output_tokens},
      {"prefix_length", config.prefix_length},
      {"prefix_groups", config.prefix_groups},
      {"prompts_per_group", config.prompts_per_group},
      {"prefix_zipf", config.prefix_zipf},
      {"ignore_eos", optional_json(config.ignore_eos)},
      {"tokenize_prompt", config.tokenize_prompt},
      {"tokenize_url", config.tokenize_url},
      {"server_metrics", config.server_metrics},
      {"metrics_url", config.metrics_url},
      {"metrics_interval", config.metrics_interval_s},
      {"profile", config.profile},
      {"sharegpt_output_len",
       config.sharegpt_output_len < 0 ? Json(nullptr) : Json(config.sharegpt_output_len)},
      {"sharegpt_min_len", config.sharegpt_min_len},
      {"sharegpt_max_input_len", config.sharegpt_max_input_len},
      {"sharegpt_max_total_len", config.sharegpt_max_total_len},
      {"parallel", config.parallel},
      {"number", config.number},
      {"threads", config.threads > 0 ? Json(config.threads) : Json("auto")},
      {"sleep_interval", number_or_null(config.sleep_interval_s)},
      {"seed", config.seed},
      {"stream", config.stream},
      {"max_tokens", optional_json(config.max_tokens)},
      {"max_tokens_low", config.max_tokens_low < 0 ? Json(nullptr) : Json(config.max_tokens_low)},
      {"min_tokens", optional_json(config.min_tokens)},
      {"temperature", optional_json(config.temperature)},
      {"top_p", optional_json(config.top_p)},
      {"stop", config.stop},
      {"stop_token_ids", config.stop_token_ids},
      {"extra_args", extra_args_json(config.extra_args)},
      {"connect_timeout", number_or_null(config.connect_timeout_s)},
      {"read_timeout", number_or_null(config.read_timeout_s)},
      {"total_timeout", number_or_null(config.total_timeout_s)},
      {"outputs_dir", config.outputs_dir},
      {"name", config.name},
      {"log_every_n_query", config.log_every_n_query},
      {"debug", config.debug},
      {"percentiles", config.percentiles},
      {"percentile_metrics", config.percentile_metrics},
      {"metric_percentiles", config.metric_percentiles},
      {"vllm", vllm_options_json(config.vllm)},
      {"probe", config.probe},
      {"allow_truncation", config.allow_truncation},
      {"rate", config.rate},
      {"arrival", config.arrival},
      {"burstiness", config.burstiness},
      {"duration", config.duration_s},
      {"warmup_num", config.warmup_num},
      {"goodput", config.goodput},
      {"slo", config.slo},
      {"junit", config.junit_path},
      {"baseline", config.baseline_path},
      {"tolerance", config.tolerance},
      {"search", config.search},
      {"search_range", config.search_range},
      {"batch_size", config.batch_size},
      {"documents", config.documents},
      {"image_num", config.image_num},
      {"image_width", config.image_width},
      {"image_height", config.image_height},
      {"start_at_unix_ns",
       config.start_at_unix_ns < 0 ? Json(nullptr) : Json(config.start_at_unix_ns)},
  };
}

// Sharded runs: the shard this directory holds, or how a merge combined them (null: neither).
Json shard_json(const RunInfo& info) {
  const RunInfo::Shard& s = info.shard;
  if (s.count <= 1) return nullptr;
  Json j{{"count", s.count}, {"run_id", s.run_id}, {"merged", s.merged}};
  if (s.merged) {
    j["starts_unix_ns"] = s.starts_unix_ns;
    if (!s.starts_unix_ns.empty()) {
      const auto [low, high] =
          std::minmax_element(s.starts_unix_ns.begin(), s.starts_unix_ns.end());
      j["start_spread_ms"] = static_cast<double>(*high - *low) / 1e6;
    }
  } else {
    j["index"] = s.index;
    j["source"] = s.source;
  }
  return j;
}

// The "goodput" object: the bounds (ms, null when not given) and the results; null when disabled.
Json goodput_json(const RunSummary& summary) {
  if (!summary.goodput_enabled) return nullptr;
  auto bound_ms = [](const std::optional<int64_t>& ns) -> Json {
    if (!ns) return nullptr;
    return static_cast<double>(*ns) / kNsPerMs;
  };
  const GoodputSpec& spec = summary.goodput_spec;
  return Json{{"ttft_ms", bound_ms(spec.ttft_ns)},
              {"ttfat_ms", bound_ms(spec.ttfat_ns)},
              {"tpot_ms", bound_ms(spec.tpot_ns)},
              {"e2el_ms", bound_ms(spec.e2el_ns)},
              {"good_requests", summary.good_requests},
              {"goodput_req_s", number_or_null(summary.goodput_rps)},
              {"good_fraction", number_or_null(summary.good_fraction)}};
}

// The "open_loop" object (null for closed-loop runs): requested vs achieved arrival rate.
Json open_loop_json(const ReportOptions& options, const RunInfo& info, const RunSummary& summary) {
  if (info.rate <= 0) return nullptr;
  Json ramp = nullptr;
  if (info.ramp.on()) {
    Json segments = Json::array();
    for (const RateSegment& seg : summary.rate_segments) {
      const auto ms = [](const std::optional<double>& ns) {
        return ns ? number_or_null(*ns / kNsPerMs) : Json(nullptr);
      };
      segments.push_back(Json{{"start_s", number_or_null(seg.start_s)},
                              {"end_s", number_or_null(seg.end_s)},
                              {"requests", seg.requests},
                              {"failed", seg.failed},
                              {"planned_rate", number_or_null(seg.planned_rate)},
                              {"sent_rate", number_or_null(seg.sent_rate)},
                              {"ttft_p50_ms", ms(seg.ttft_p50_ns)},
                              {"ttft_mean_ms", ms(seg.ttft_mean_ns)},
                              {"latency_p50_ms", ms(seg.latency_p50_ns)},
                              {"latency_mean_ms", ms(seg.latency_mean_ns)}});
    }
    ramp = Json{{"strategy", info.ramp.strategy},
                {"start_rps", number_or_null(info.ramp.start_rps)},
                {"end_rps", number_or_null(info.ramp.end_rps)},
                {"segments", segments}};
  }
  const OpenLoopSummary& o = summary.open_loop;
  const std::string cap_note = cap_reached_text(info, summary);
  return Json{
      {"requested_rate", number_or_null(info.rate)},
      {"ramp_up", ramp},
      {"achieved_rate", number_or_null(summary.achieved_rate)},
      {"arrival", info.workload.trace.on ? "trace" : options.arrival},
      {"burstiness", number_or_null(options.burstiness)},
      {"in_flight_cap", info.parallel},
      {"sends", o.sends},
      {"cap_reached_sends", o.slot_waits},
      {"cap_reached_share", o.sends > 0 ? number_or_null(o.cap_reached_share()) : Json(nullptr)},
      {"slot_wait_unrecorded", o.slot_unknown},
      {"slot_wait_ms", distribution_json(o.slot_wait_ns, summary.percentiles, kNsPerMs)},
      {"client_lag_ms", distribution_json(o.client_lag_ns, summary.percentiles, kNsPerMs)},
      {"cap_note", cap_note.empty() ? Json(nullptr) : Json(cap_note)}};
}

// The "slo" object: every --slo outcome and the run's verdict (null without --slo).
Json slo_json(const RunInfo& info) {
  if (info.slo.empty()) return nullptr;
  Json results = Json::array();
  bool passed = true;
  for (const RunInfo::SloOutcome& outcome : info.slo) {
    results.push_back({{"expression", outcome.expression},
                       {"passed", outcome.passed},
                       {"detail", outcome.detail}});
    passed = passed && outcome.passed;
  }
  return Json{{"passed", passed}, {"results", results}};
}

// The "client" object: whether llmperf itself limited the measurement (null when not assessed).
Json client_json(const RunSummary& summary) {
  const ClientHealth& c = summary.client;
  if (!c.measured) return nullptr;
  return Json{
      {"client_bound", c.client_bound},
      {"warnings", c.warnings},
      {"cpu_s", number_or_null(c.cpu_s)},
      {"cpu_utilization", number_or_null(c.cpu_utilization)},
      {"threads", c.threads},
      {"threads_reason", c.threads_reason},
      {"stamp_delay_ms", distribution_json(c.stamp_delay_ns, summary.percentiles, kNsPerMs)}};
}

// Reasoning models: the two phases of the streams that reasoned (null when none did).
Json reasoning_json(const RunSummary& s) {
  const ReasoningSummary& r = s.reasoning;
  if (!r.any()) return nullptr;
  const auto& p = s.percentiles;
  return Json{
      {"requests", r.requests},
      {"reasoning_tokens_total", r.reasoning_tokens},
      {"answer_tokens_total", r.answer_tokens},
      {"token_source", r.source()},
      {"tokens_from_usage", r.tokens_from_usage},
      {"tokens_estimated", r.tokens_estimated},
      {"reasoning_time_ms", distribution_json(r.duration_ns, p, kNsPerMs)},
      {"reasoning_tokens", distribution_json(r.reasoning_tokens_per_request, p, 1)},
      {"answer_tokens", distribution_json(r.answer_tokens_per_request, p, 1)},
      {"itl_reasoning_ms", distribution_json(r.itl_reasoning_ns, p, kNsPerMs)},
      {"itl_answer_ms", distribution_json(r.itl_answer_ns, p, kNsPerMs)},
  };
}

// Embeddings and rerank: what the requests carried (null for the APIs that generate text).
Json items_json(const ReportOptions& options, const RunSummary& s) {
  if (!s.pooling) return nullptr;
  return Json{{"kind", options.api_kind == ApiKind::kRerank ? "documents" : "inputs"},
              {"total", s.total_items},
              {"per_s", number_or_null(s.items_throughput)},
              {"input_throughput_tok_s", number_or_null(s.total_throughput)}};
}

Json summary_json(const ReportOptions& options, const RunInfo& info, const RunSummary& summary) {
  const auto& p = summary.percentiles;
  Json metrics{
      {"latency_s", distribution_json(summary.latency_ns, p, kNsPerS)},
      {"ttft_ms", distribution_json(summary.ttft_ns, p, kNsPerMs)},
      {"ttfat_ms", distribution_json(summary.ttfat_ns, p, kNsPerMs)},
      {"ttfb_ms", distribution_json(summary.ttfb_ns, p, kNsPerMs)},
      {"tpot_ms", distribution_json(summary.tpot_ns, p, kNsPerMs)},
      {"itl_ms", distribution_json(summary.itl_ns, p, kNsPerMs)},
      {"input_tokens", distribution_json(summary.input_tokens, p, 1)},
      {"output_tokens", distribution_json(summary.output_tokens, p, 1)},
      {"chunks_per_request", distribution_json(summary.chunks_per_request, p, 1)},
      {"output_tok_s_per_request", distribution_json(summary.output_tps_per_request, p, 1)},
      {"total_tok_s_per_request", distribution_json(summary.total_tps_per_request, p, 1)},
      {"latency_from_planned_s", distribution_json(summary.latency_from_planned_ns, p, kNsPerS)},
      {"ttft_from_planned_ms", distribution_json(summary.ttft_from_planned_ns, p, kNsPerMs)},
      {"schedule_lag_ms", distribution_json(summary.schedule_lag_ns, p, kNsPerMs)},
  };
  Json tokens{
      {"input_total", summary.total_input_tokens},
      {"output_total", summary.total_output_tokens},
      {"input_source", summary.input_provenance.label()},
      {"output_source", summary.output_provenance.label()},
      {"output_from_usage", summary.output_provenance.from_usage},
      {"output_estimated", summary.output_provenance.estimated},
      {"input_from_usage", summary.input_provenance.from_usage},
      {"input_estimated", summary.input_provenance.estimated},
      {"input_chars_total", summary.total_input_chars},
      {"output_chars_total", summary.total_output_chars},
  };
  Json run{
      {"parallel", info.parallel},
      {"number", info.number},
      {"rate", info.rate < 0 ? Json(nullptr) : number_or_null(info.rate)},
      {"started_at", info.started_at},
      {"duration_s", number_or_null(info.duration_s)},
      {"interrupted", info.interrupted},
      {"input_tokens", info.input_tokens < 0 ? Json(nullptr) : Json(info.input_tokens)},
      {"output_tokens", info.output_tokens < 0 ? Json(nullptr) : Json(info.output_tokens)},
      {"output_dir", info.output_dir},
      // CLOCK_MONOTONIC reading the times of requests.jsonl count from: correlates them with other
      // monotonic-clock logs on the same machine (a server's, a tracer's).
      {"monotonic_anchor_ns", info.anchor_steady_ns},
      // The wall clock read together with it: shards' records are aligned on it when merged.
      {"anchor_unix_ns", info.anchor_unix_ns},
  };
  return Json{
      {"schema", kSummarySchema},
      {"llmperf_version", kVersion},
      {"run", run},
      {"config", options.config_json.empty() ? Json(nullptr) : Json::parse(options.config_json)},
      {"dataset", dataset_json(info.dataset)},
      {"workload", workload_json(info)},
      {"requests",
       {{"total", summary.total},
        {"succeeded", summary.succeeded},
        {"failed", summary.failed},
        {"warmup", summary.warmup},
        {"resent", summary.resent}}},
      {"failures_by_kind", Json(summary.failures_by_kind)},
      {"failure_examples", Json(summary.failure_examples)},
      {"window_s", number_or_null(static_cast<double>(summary.window_ns) / kNsPerS)},
      {"qps", number_or_null(summary.qps)},
      {"output_throughput_tok_s", number_or_null(summary.output_throughput)},
      {"total_throughput_tok_s", number_or_null(summary.total_throughput)},
      {"input_throughput_chars_s", number_or_null(summary.input_chars_throughput)},
      {"output_throughput_chars_s", number_or_null(summary.output_chars_throughput)},
      {"peak_output_throughput_tok_s", number_or_null(summary.peak_output_throughput)},
      {"peak_concurrency", summary.peak_concurrency},
      {"exactness", exactness_json(info, summary)},
      {"shared_prefix", shared_prefix_json(summary)},
      {"conversations", conversations_json(summary)},
      {"reasoning", reasoning_json(summary)},
      {"shard", shard_json(info)},
      {"items", items_json(options, summary)},
      {"trace", trace_json(info, summary)},
      {"goodput", goodput_json(summary)},
      {"open_loop", open_loop_json(options, info, summary)},
      {"client_bound", summary.client.client_bound},
      {"client", client_json(summary)},
      {"slo", slo_json(info)},
      {"server", server_json(info, summary)},
      {"tokens", tokens},
      {"metrics", metrics},
      {"metric_definitions", metric_definitions_json()},
  };
}

}  // namespace report_detail

using report_detail::Json;

std::string benchmark_run_id(const Config& config) {
  Json j = report_detail::config_json(config);
  // Where each shard writes and how it logs may differ; the benchmark is the same.
  for (const char* key : {"outputs_dir", "debug", "log_every_n_query", "junit", "baseline"}) {
    j.erase(key);
  }
  uint64_t hash = 14695981039346656037ull;  // FNV-1a: the same id on every machine and build
  for (const unsigned char c : j.dump()) hash = (hash ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

std::string config_to_json(const Config& config) {
  return report_detail::config_json(config).dump(2);
}

}  // namespace llmperf

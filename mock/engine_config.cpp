// Scheduler mode's defaults, start-up log, start-up checks and context-length check, worded as
// vLLM words them (see engine_config.h).
#include "engine_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace llmperf::mock {
namespace {

// vLLM's default token budget for its API server with chunked prefill.
constexpr std::int64_t kDefaultBudget = 2048;
// vLLM's default max_num_seqs.
constexpr std::int64_t kDefaultMaxNumSeqs = 256;
constexpr std::string_view kLog = "llmperf-mock engine:";

std::string python_bool(bool value) { return value ? "True" : "False"; }

// The options that scheduler mode does not use, when they were set.
void warn_ignored(const MockOptions& o, std::vector<std::string>& lines) {
  const auto warn = [&](bool set, std::string_view flag) {
    if (!set) return;
    lines.push_back(
        fmt::format("WARNING {} {} is ignored in scheduler mode: the engine's steps "
                    "pace every token",
                    kLog, flag));
  };
  warn(o.ttft_ms != 0, "--ttft-ms");
  warn(o.itl_ms != 0, "--itl-ms");
  warn(o.ttft_per_active_ms != 0, "--ttft-per-active-ms");
  warn(o.jitter_ms != 0, "--jitter-ms");
  warn(o.prefill_us_per_token != 0, "--prefill-us-per-token");
  warn(o.max_active != 0, "--max-active");
}

// A refusal as Python prints an uncaught ValueError.
std::vector<std::string> value_error(std::string_view function, std::string message) {
  return {"Traceback (most recent call last):",
          fmt::format("  File \"mock/engine_config.cpp\", in {}", function),
          "ValueError: " + std::move(message)};
}

}  // namespace

EngineSetup resolve_engine(const MockOptions& o) {
  EngineSetup setup;
  SchedulerLimits& limits = setup.limits;
  setup.max_model_len = o.max_model_len;
  limits.chunked_prefill = o.enable_chunked_prefill;
  limits.max_num_batched_tokens = o.max_num_batched_tokens > 0 ? o.max_num_batched_tokens
                                  : o.enable_chunked_prefill
                                      ? kDefaultBudget
                                      : std::max(o.max_model_len, kDefaultBudget);
  limits.max_num_seqs = o.max_num_seqs > 0
                            ? o.max_num_seqs
                            : std::min(kDefaultMaxNumSeqs, limits.max_num_batched_tokens);
  limits.step_ms = o.step_ms;
  limits.step_us_per_token = o.step_us_per_token;
  const std::int64_t activations = std::llround(o.kv_tokens_per_batched_token *
                                                static_cast<double>(limits.max_num_batched_tokens));
  limits.kv_cache_tokens = o.kv_cache_tokens - activations;

  std::vector<std::string>& log = setup.log_lines;
  log.push_back(fmt::format("INFO {} scheduler mode: a model of vLLM's continuous batching", kLog));
  log.push_back(fmt::format(
      "INFO {} model='{}', max_model_len={}, max_num_seqs={}, max_num_batched_tokens={}, "
      "enable_chunked_prefill={}, kv_cache_tokens={}, kv_tokens_per_batched_token={}, "
      "step_ms={}, step_us_per_token={}",
      kLog, o.model, o.max_model_len, limits.max_num_seqs, limits.max_num_batched_tokens,
      python_bool(limits.chunked_prefill), o.kv_cache_tokens, o.kv_tokens_per_batched_token,
      o.step_ms, o.step_us_per_token));
  warn_ignored(o, log);

  // vLLM's SchedulerConfig checks, word for word.
  if (!limits.chunked_prefill && limits.max_num_batched_tokens < o.max_model_len) {
    setup.error_lines = value_error(
        "verify_scheduler_config",
        fmt::format("max_num_batched_tokens ({}) is smaller than max_model_len ({}). This "
                    "effectively limits the maximum sequence length to max_num_batched_tokens "
                    "and makes vLLM reject longer sequences. Please increase "
                    "max_num_batched_tokens or decrease max_model_len.",
                    limits.max_num_batched_tokens, o.max_model_len));
    return setup;
  }
  if (limits.max_num_batched_tokens < limits.max_num_seqs) {
    setup.error_lines = value_error(
        "verify_scheduler_config",
        fmt::format("max_num_batched_tokens ({}) must be greater than or equal to max_num_seqs "
                    "({}).",
                    limits.max_num_batched_tokens, limits.max_num_seqs));
    return setup;
  }

  // The KV cache is sized after the activations of a full batch, as vLLM's profiling run does.
  if (activations > 0) {
    log.push_back(fmt::format(
        "INFO {} the activations of a batch of {} tokens take {} of the {} KV-cache tokens", kLog,
        limits.max_num_batched_tokens, activations, o.kv_cache_tokens));
  }
  if (limits.kv_cache_tokens <= 0) {
    setup.error_lines = value_error(
        "initialize_kv_cache",
        fmt::format("No available memory for the cache blocks. Try increasing --kv-cache-tokens "
                    "or decreasing --max-num-batched-tokens (its activations take {} of the {} "
                    "KV-cache tokens) when initializing the engine.",
                    activations, o.kv_cache_tokens));
    return setup;
  }
  log.push_back(fmt::format("INFO {} KV cache size: {} tokens", kLog, limits.kv_cache_tokens));
  if (limits.kv_cache_tokens < o.max_model_len) {
    setup.error_lines = value_error(
        "check_enough_kv_cache_memory",
        fmt::format("To serve at least one request with the models's max seq len ({}), {} tokens "
                    "of KV cache are needed, which is larger than the available KV cache ({} "
                    "tokens). Based on the available memory, the estimated maximum model length "
                    "is {}. Try increasing --kv-cache-tokens or decreasing `max_model_len` when "
                    "initializing the engine.",
                    o.max_model_len, o.max_model_len, limits.kv_cache_tokens,
                    limits.kv_cache_tokens));
    return setup;
  }
  log.push_back(fmt::format(
      "INFO {} Maximum concurrency for {} tokens per request: {:.2f}x", kLog, o.max_model_len,
      static_cast<double>(limits.kv_cache_tokens) / static_cast<double>(o.max_model_len)));
  return setup;
}

std::optional<std::string> context_length_error(std::int64_t max_model_len,
                                                std::int64_t prompt_tokens,
                                                std::optional<std::int64_t> max_tokens,
                                                std::int64_t completion_tokens) {
  const std::int64_t completion = max_tokens.value_or(completion_tokens);
  if (prompt_tokens + completion <= max_model_len) return std::nullopt;
  return fmt::format(
      "This model's maximum context length is {} tokens. However, you requested {} tokens ({} in "
      "the messages, {} in the completion). Please reduce the length of the messages or "
      "completion.",
      max_model_len, prompt_tokens + completion, prompt_tokens, completion);
}

}  // namespace llmperf::mock

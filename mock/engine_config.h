// Scheduler mode's configuration: the engine's limits resolved from llmperf-mock's options with
// vLLM's defaults, the lines the engine logs at start-up, vLLM's start-up checks (a refused
// configuration ends in a ValueError line and exit 1, before listening) and its per-request
// context-length check.
#pragma once

#include "batch_scheduler.h"
#include "mock_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llmperf::mock {

// The engine as configured, and what it says when it starts.
struct EngineSetup {
  SchedulerLimits limits;              // defaults filled in, KV after the activations' share
  std::int64_t max_model_len = 0;      // --max-model-len: longest prompt + completion accepted
  std::vector<std::string> log_lines;  // INFO and WARNING lines, printed to stderr at start-up
  // A refused configuration: a short traceback ending with the "ValueError: ..." line, printed to
  // stderr after log_lines; the mock then exits 1. Empty when the engine starts.
  std::vector<std::string> error_lines;
};

// Resolves the engine of `options` (call only when scheduler_mode(options)):
// - max_num_batched_tokens: as given; else 2048 with chunked prefill, max(max_model_len, 2048)
//   without (vLLM's defaults for its API server);
// - max_num_seqs: as given; else min(256, max_num_batched_tokens);
// - KV capacity: --kv-cache-tokens - round(--kv-tokens-per-batched-token * max_num_batched_tokens).
// Then vLLM's checks, in vLLM's order: max_num_batched_tokens < max_model_len without chunked
// prefill; max_num_batched_tokens < max_num_seqs; no KV left; KV below max_model_len.
EngineSetup resolve_engine(const MockOptions& options);

// vLLM's request validation in scheduler mode: the 400 message when the prompt plus the
// completion asked for (`max_tokens`, or the `completion_tokens` the mock will generate when the
// request sets none) exceeds `max_model_len`; nullopt when it fits.
std::optional<std::string> context_length_error(std::int64_t max_model_len,
                                                std::int64_t prompt_tokens,
                                                std::optional<std::int64_t> max_tokens,
                                                std::int64_t completion_tokens);

}  // namespace llmperf::mock

// What a benchmark checks before its first measured request: the model to ask for (--model, or
// the one the server lists), whether the longest planned request fits the server's context, the
// start-up probe (--probe) and the wait for --start-at. Each says what was wrong and what to do.
#pragma once

#include <string>

#include "core/config/target.h"
#include "core/record.h"
#include "engine/engine.h"
#include "prepare/prompt_source.h"
#include "server/server_identity.h"
#include "workload/request_builder.h"

namespace llmperf {

// Waits for the server (--ready-check-timeout-sec) and returns the model to ask for: --model, or
// without it the one model the server's /v1/models lists, as vLLM does. Several models or none:
// std::invalid_argument naming them.
std::string served_model(const TargetConfig& target);

// The longest request the sweep plans against the server's context length (its identity
// endpoints', else its tokenize API's). Throws std::invalid_argument (a usage error: exit code 2)
// when it cannot fit, or only warns with --allow-truncation.
void check_context(bool allow_truncation, const PromptSource& source, const ServerIdentity& server);

// --probe: one request to the first URL, explained in the log. False when the run should not
// proceed (the server cannot be reached or refuses the request).
bool probe_allows_run(const TargetConfig& target, const RequestSettings& settings,
                      const PromptSource& source, const RequestBuilder& builder);

// --start-at: waits for the wall-clock instant (every shard prepared first), sleeping to 2 ms
// before it and spinning the rest; returns at once when it has passed or the user interrupts.
// (`start_at_unix_ns`: the plan's; -1: no --start-at.)
void wait_for_start_at(int64_t start_at_unix_ns);

}  // namespace llmperf

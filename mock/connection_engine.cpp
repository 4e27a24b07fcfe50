// The scheduler-mode side of an llmperf-mock connection: its request is checked against the
// engine's limits (a 400 in vLLM's words when it could never run), queued in the engine loop, and
// then paced by it: admitted (the reply starts) when first scheduled, and each content chunk due
// once the engine has generated its tokens. See engine_loop.h.
#include "connection.h"

#include "engine_config.h"
#include "server_context.h"

#include <algorithm>
#include <chrono>

namespace llmperf::mock {

// Scheduler mode: answers 400, in vLLM's words, a request that the engine could never run (too
// long for --max-model-len, for the budget without chunked prefill, or for the KV cache); true
// when it did.
bool Connection::engine_refused(std::optional<std::int64_t> max_tokens) {
  std::optional<std::string> problem = context_length_error(
      context_.options().max_model_len, plan_.prompt_tokens, max_tokens, plan_.completion_tokens);
  if (!problem) {
    problem = context_.engine()->refusal({plan_.prompt_tokens, plan_.prompt_tokens,
                                          std::max<std::int64_t>(1, plan_.completion_tokens)});
  }
  if (!problem) return false;
  reply(400, error_body(*problem, "BadRequestError", 400));
  return true;
}

// Scheduler mode: the request joins the engine's waiting queue. Its prefix-cache lookup happens
// now, since the engine needs to know which prompt tokens need a prefill.
void Connection::submit_to_engine() {
  engine_paced_ = true;
  engine_tokens_ = 0;
  SequenceDemand demand;
  demand.prompt_tokens = plan_.prompt_tokens;
  demand.prefill_tokens = plan_.prompt_tokens - look_up_prefix_cache();
  demand.output_tokens = std::max<std::int64_t>(1, plan_.completion_tokens);
  context_.engine()->submit(plan_.seq, demand, shared_from_this());
}

// Scheduler mode: the current request no longer needs the engine (its reply ended, or the
// connection closed); a sequence still running there is aborted, as vLLM aborts a request whose
// client is gone.
void Connection::leave_engine() {
  if (!engine_paced_) return;
  engine_paced_ = false;
  if (EngineLoop* engine = context_.engine()) engine->abort(plan_.seq);
}

void Connection::on_engine_admitted(std::uint64_t id) {
  if (engine_paced_ && id == plan_.seq) admit();
}

void Connection::on_engine_tokens(std::uint64_t id, std::int64_t generated) {
  if (!engine_paced_ || id != plan_.seq) return;
  engine_tokens_ = generated;
  if (state_ == State::kResponding) advance();
}

// Content chunk `chunk` may be written at `now`: its deadline has passed, or (scheduler mode) the
// engine has generated its last token.
bool Connection::chunk_due(std::int64_t chunk, std::chrono::steady_clock::time_point now) const {
  if (engine_paced_) return chunk_tokens(plan_, chunk).last <= engine_tokens_;
  return next_due_ <= now;
}

// The non-stream reply may be written at `now`: its deadline has passed, or (scheduler mode) the
// engine has generated every token (a pooling request: its one step of prefill).
bool Connection::whole_due(std::chrono::steady_clock::time_point now) const {
  if (engine_paced_) return engine_tokens_ >= std::max<std::int64_t>(1, plan_.completion_tokens);
  return next_due_ <= now;
}

}  // namespace llmperf::mock

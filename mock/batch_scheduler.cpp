// The step arithmetic of llmperf-mock's continuous-batching model (see batch_scheduler.h).
#include "batch_scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace llmperf::mock {

BatchScheduler::BatchScheduler(const SchedulerLimits& limits) : limits_(limits) {}

std::int64_t BatchScheduler::reservation(const Sequence& s) const {
  return s.demand.prompt_tokens + s.demand.output_tokens;
}

std::optional<std::string> BatchScheduler::refusal(const SequenceDemand& demand) const {
  // vLLM's V0 scheduler said "Input prompt (%d tokens) is too long and exceeds limit of %d".
  if (!limits_.chunked_prefill && demand.prefill_tokens > limits_.max_num_batched_tokens) {
    return fmt::format(
        "Input prompt ({} tokens) is too long and exceeds limit of {}: without chunked prefill a "
        "prompt must fit in one engine step of max_num_batched_tokens ({}) tokens. Please reduce "
        "the length of the prompt or enable chunked prefill.",
        demand.prefill_tokens, limits_.max_num_batched_tokens, limits_.max_num_batched_tokens);
  }
  const std::int64_t final_length = demand.prompt_tokens + demand.output_tokens;
  if (final_length > limits_.kv_cache_tokens) {
    return fmt::format(
        "This request needs {} tokens of KV cache ({} in the prompt, {} in the completion), more "
        "than the whole KV cache ({} tokens). Please reduce the length of the messages or "
        "completion.",
        final_length, demand.prompt_tokens, demand.output_tokens, limits_.kv_cache_tokens);
  }
  return std::nullopt;
}

std::optional<std::string> BatchScheduler::add(SequenceId id, const SequenceDemand& demand) {
  if (auto problem = refusal(demand)) return problem;
  Sequence s;
  s.id = id;
  s.demand = demand;
  s.demand.output_tokens = std::max<std::int64_t>(1, demand.output_tokens);
  // At least the last prompt token is computed, so even a fully cached prompt takes a step.
  s.prefill_left = std::clamp<std::int64_t>(demand.prefill_tokens, 1,
                                            std::max<std::int64_t>(1, demand.prompt_tokens));
  waiting_.push_back(s);
  return std::nullopt;
}

bool BatchScheduler::abort(SequenceId id) {
  const auto same = [id](const Sequence& s) { return s.id == id; };
  if (const auto it = std::find_if(running_.begin(), running_.end(), same); it != running_.end()) {
    kv_reserved_ -= reservation(*it);
    running_.erase(it);
    return true;
  }
  if (const auto it = std::find_if(waiting_.begin(), waiting_.end(), same); it != waiting_.end()) {
    waiting_.erase(it);
    return true;
  }
  return false;
}

// Computes `tokens` of `s`'s prompt in `step`; the chunk that completes the prompt emits the
// first token.
void BatchScheduler::schedule_prefill(Sequence& s, std::int64_t tokens, bool admitted,
                                      EngineStep& step) {
  s.prefill_left -= tokens;
  StepWork work;
  work.id = s.id;
  work.tokens = tokens;
  work.admitted = admitted;
  if (s.prefill_left == 0) {
    s.generated = 1;
    work.emits = true;
    work.generated = 1;
    work.finished = s.demand.output_tokens == 1;
  }
  step.prefill_tokens += tokens;
  step.work.push_back(work);
}

EngineStep BatchScheduler::step() {
  EngineStep step;
  std::int64_t budget = limits_.max_num_batched_tokens;
  // Decodes: one token for every running sequence past its prefill.
  for (Sequence& s : running_) {
    if (s.prefill_left > 0 || budget == 0) continue;
    ++s.generated;
    --budget;
    ++step.decode_tokens;
    step.work.push_back({s.id, 1, false, true, s.generated, s.generated == s.demand.output_tokens});
  }
  // Prefills split over earlier steps continue first (only with chunked prefill).
  for (Sequence& s : running_) {
    if (s.prefill_left == 0 || budget == 0) continue;
    const std::int64_t tokens = std::min(s.prefill_left, budget);
    budget -= tokens;
    schedule_prefill(s, tokens, false, step);
  }
  // Admissions, first come first served, while the budget, the seats and the KV cache allow.
  while (!waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < limits_.max_num_seqs) {
    Sequence& s = waiting_.front();
    if (!limits_.chunked_prefill && s.prefill_left > budget) break;
    if (kv_reserved_ + reservation(s) > limits_.kv_cache_tokens) break;
    kv_reserved_ += reservation(s);
    running_.push_back(s);
    waiting_.pop_front();
    const std::int64_t tokens = std::min(running_.back().prefill_left, budget);
    budget -= tokens;
    schedule_prefill(running_.back(), tokens, true, step);
  }
  // Sequences whose last token this step generates leave the engine.
  std::erase_if(running_, [&](const Sequence& s) {
    if (s.prefill_left > 0 || s.generated < s.demand.output_tokens) return false;
    kv_reserved_ -= reservation(s);
    return true;
  });
  const double ns = limits_.step_ms * 1e6 +
                    limits_.step_us_per_token * 1e3 * static_cast<double>(step.batched_tokens());
  step.duration_ns = step.work.empty() ? 0 : std::llround(ns);
  return step;
}

}  // namespace llmperf::mock

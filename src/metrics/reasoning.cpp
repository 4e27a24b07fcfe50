// ReasoningTally: the reasoning and answer phases of streams that reasoned (see reasoning.h).
#include "metrics/reasoning.h"

#include <algorithm>
#include <utility>

namespace llmperf {

void ReasoningTally::add(const RequestRecord& r) {
  if (r.reasoning_tokens < 0) return;
  ReasoningSummary& s = summary_;
  ++s.requests;
  const int64_t answer = std::max<int64_t>(0, r.output_tokens - r.reasoning_tokens);
  s.reasoning_tokens += r.reasoning_tokens;
  s.answer_tokens += answer;
  (r.reasoning_source == TokenSource::kUsage ? s.tokens_from_usage : s.tokens_estimated) += 1;
  reasoning_tokens_.push_back(static_cast<double>(r.reasoning_tokens));
  answer_tokens_.push_back(static_cast<double>(answer));
  if (!r.stream || r.chunk_ns.empty()) return;
  if (r.first_answer_ns >= 0 && r.first_content_ns >= 0 && r.reasoning_chunks > 0) {
    durations_.push_back(static_cast<double>(r.first_answer_ns - r.first_content_ns));
  }
  // Chunks before first_answer_chunk are the reasoning phase; from it, the answer phase.
  const size_t split = r.first_answer_chunk >= 0 ? static_cast<size_t>(r.first_answer_chunk)
                                                  : r.chunk_ns.size();
  for (size_t i = 1; i < r.chunk_ns.size(); ++i) {
    if (i == split) continue;  // the gap from the last reasoning chunk to the first answer
    (i < split ? itl_reasoning_ : itl_answer_).add(r.chunk_ns[i] - r.chunk_ns[i - 1]);
  }
}

ReasoningSummary ReasoningTally::finish(const std::vector<double>& percentiles) {
  ReasoningSummary s = std::move(summary_);
  s.duration_ns = describe(std::move(durations_), percentiles);
  s.reasoning_tokens_per_request = describe(std::move(reasoning_tokens_), percentiles);
  s.answer_tokens_per_request = describe(std::move(answer_tokens_), percentiles);
  s.itl_reasoning_ns = itl_reasoning_.describe(percentiles);
  s.itl_answer_ns = itl_answer_.describe(percentiles);
  return s;
}

}  // namespace llmperf

// Reasoning models: a stream that carries reasoning (reasoning_content, reasoning, or the
// Responses API's reasoning deltas) before its answer. Every peer's TTFT ends at the first
// reasoning token, which is not what a user waits for; these statistics split the two phases.
// TTFAT (time to first answer token) itself is in RunSummary::ttfat_ns, for every stream.
#pragma once

#include <cstdint>
#include <vector>

#include "core/record.h"
#include "metrics/stats/pooled_samples.h"
#include "metrics/stats/stats.h"

namespace llmperf {

struct ReasoningSummary {
  int64_t requests = 0;          // successful requests that reasoned (reasoning_tokens >= 0)
  int64_t reasoning_tokens = 0;  // over those requests
  int64_t answer_tokens = 0;     // their output tokens that were not reasoning
  int64_t tokens_from_usage = 0;  // ... of the requests: counts from usage.*_tokens_details
  int64_t tokens_estimated = 0;   // ... counted as reasoning chunks (estimated)
  // Streams that reasoned and then answered: first answer chunk - first reasoning chunk.
  Distribution duration_ns;
  Distribution reasoning_tokens_per_request;
  Distribution answer_tokens_per_request;
  // Pooled gaps between consecutive chunks of the reasoning phase (up to the first answer chunk)
  // and of the answer phase (from it), over streams that reasoned.
  Distribution itl_reasoning_ns;
  Distribution itl_answer_ns;
  bool any() const { return requests > 0; }
  // "usage", "estimated" or "mixed": where the reasoning token counts came from.
  const char* source() const {
    return tokens_estimated == 0 ? "usage" : tokens_from_usage == 0 ? "estimated" : "mixed";
  }
};

// Folds successful measured records into a ReasoningSummary (the caller filters).
class ReasoningTally {
 public:
  void add(const RequestRecord& record);
  ReasoningSummary finish(const std::vector<double>& percentiles);

 private:
  ReasoningSummary summary_;
  std::vector<double> durations_;
  std::vector<double> reasoning_tokens_;
  std::vector<double> answer_tokens_;
  PooledSamples itl_reasoning_;
  PooledSamples itl_answer_;
};

}  // namespace llmperf

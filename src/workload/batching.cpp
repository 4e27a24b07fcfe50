// Regrouping a run's prompts into embeddings batches and rerank queries (see batching.h).
#include "workload/batching.h"

#include <algorithm>

#include "workload/api/body_parts.h"

namespace llmperf {

std::vector<Prompt> group_texts(const std::vector<Prompt>& prompts, ApiKind api,
                                int64_t texts_per_request) {
  const int64_t per_request = texts_per_request;
  if (per_request <= 1 || prompts.empty()) return prompts;
  const bool rerank = api == ApiKind::kRerank;
  const size_t total = prompts.size();
  const size_t requests =
      std::max<size_t>(1, (total + static_cast<size_t>(per_request) - 1) /
                              static_cast<size_t>(per_request));
  std::vector<Prompt> grouped(requests);
  size_t next = 0;
  for (Prompt& request : grouped) {
    request.target_input_tokens = rerank ? -1 : 0;
    for (int64_t i = 0; i < per_request; ++i, ++next) {
      const Prompt& prompt = prompts[next % total];
      request.length += prompt.length;
      if (request.target_input_tokens >= 0) {
        request.target_input_tokens = prompt.target_input_tokens >= 0
                                          ? request.target_input_tokens + prompt.target_input_tokens
                                          : -1;
      }
      if (rerank && i == 0) {
        request.text = prompt_text(prompt);
      } else {
        request.texts.push_back(prompt_text(prompt));
      }
    }
  }
  return grouped;
}

}  // namespace llmperf

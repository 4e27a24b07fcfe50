// The context check before a run (see context_fit.h).
#include "workload/context_fit.h"

#include <fmt/format.h>

namespace llmperf {

const PlannedLength& longer(const PlannedLength& a, const PlannedLength& b) {
  return b.total() > a.total() ? b : a;
}

std::optional<std::string> context_overflow(const PlannedLength& longest,
                                            const ContextLength& context) {
  if (context.tokens <= 0 || longest.total() <= context.tokens) return std::nullopt;
  return fmt::format(
      "the longest request ({}) needs {} input + {} output = {} tokens, more than the server's "
      "context of {} tokens ({}): the server would cut its prompt or reject it",
      longest.what, longest.input_tokens, longest.output_tokens, longest.total(), context.tokens,
      context.source);
}

}  // namespace llmperf

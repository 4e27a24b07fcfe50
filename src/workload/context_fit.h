// Whether a workload's longest request fits the server's context, checked before a run: a server
// cuts a prompt that does not fit (llama.cpp keeps its tail) or rejects the request (vLLM), and
// either way the run would measure something other than what was asked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace llmperf {

// The tokens one request is planned to take in the server's context.
struct PlannedLength {
  int64_t input_tokens = 0;   // usage.prompt_tokens it is built to have (chat template included)
  int64_t output_tokens = 0;  // the max_tokens it asks (0: none asked)
  std::string what;           // where it comes from, e.g. "--input-tokens 600 --output-tokens 32"
  int64_t total() const { return input_tokens + output_tokens; }
};

// The server's context length for one request, and who said so.
struct ContextLength {
  int64_t tokens = 0;  // 0: unknown
  std::string source;  // e.g. "/props n_ctx per slot (llama.cpp)"
};

// The longer of `a` and `b` by total (`a` on a tie).
const PlannedLength& longer(const PlannedLength& a, const PlannedLength& b);

// Why `longest` cannot be served whole within `context`, naming both numbers; nullopt when it
// fits or the context is unknown.
std::optional<std::string> context_overflow(const PlannedLength& longest,
                                            const ContextLength& context);

}  // namespace llmperf

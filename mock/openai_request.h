// Reading OpenAI-style completion request bodies: the few fields that shape the mock's reply and
// the prompt's token count that becomes usage.prompt_tokens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace llmperf::mock {

// Which completion API a request came in on.
enum class Endpoint {
  kChat,         // POST /v1/chat/completions
  kCompletions,  // POST /v1/completions
};

// The fields of a completion request that the mock acts on.
struct CompletionRequest {
  bool stream = false;                     // "stream": true asks for SSE
  bool include_usage = false;              // "stream_options": {"include_usage": true}
  std::optional<std::int64_t> max_tokens;  // "max_tokens", else "max_completion_tokens"
  bool ignore_eos = false;                 // "ignore_eos": true runs to max_tokens exactly
  std::int64_t prompt_tokens = 0;          // the prompt's tokens (tokenizer.h), as usage reports
  std::vector<std::int64_t> prompt_ids;    // those tokens' ids, with PromptIds::kKeep only
};

// Whether parsing keeps the prompt's token ids (the prefix cache needs them) or only counts them.
enum class PromptIds {
  kCount,  // prompt_tokens only; prompt_ids stays empty
  kKeep,   // prompt_ids too: chat BOS + ChatML text, completions BOS + text or the ids sent
};

// A parsed request, or the message for a 400 reply saying what is wrong with the body.
using CompletionParse = std::variant<CompletionRequest, std::string>;

// Parses a JSON request body received on `endpoint`.
CompletionParse parse_completion_request(Endpoint endpoint, std::string_view body,
                                         PromptIds ids = PromptIds::kCount);

// Number of Unicode code points in UTF-8 `text` (continuation bytes are not counted).
std::int64_t count_code_points(std::string_view text);

}  // namespace llmperf::mock

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

// Which API a request came in on.
enum class Endpoint {
  kChat,         // POST /v1/chat/completions
  kCompletions,  // POST /v1/completions
  kResponses,    // POST /v1/responses (OpenAI Responses API)
  kEmbeddings,   // POST /v1/embeddings (pooling_api.h)
  kRerank,       // POST /v1/rerank (pooling_api.h)
};

// The pooling endpoints: a prompt in, numbers out, nothing generated.
inline bool is_pooling(Endpoint endpoint) {
  return endpoint == Endpoint::kEmbeddings || endpoint == Endpoint::kRerank;
}

// Prompt tokens an image part counts when no --image-tokens is given.
inline constexpr std::int64_t kDefaultImageTokens = 64;

// The fields of a completion request that the mock acts on.
struct CompletionRequest {
  bool stream = false;         // "stream": true asks for SSE
  bool include_usage = false;  // "stream_options": {"include_usage": true}
  // "max_tokens", else "max_completion_tokens" (chat, completions); "max_output_tokens"
  // (responses)
  std::optional<std::int64_t> max_tokens;
  bool ignore_eos = false;               // "ignore_eos": true runs to max_tokens exactly
  std::int64_t prompt_tokens = 0;        // the prompt's tokens (tokenizer.h), as usage reports
  std::int64_t images = 0;               // image parts in the prompt (image_url, input_image)
  std::vector<std::int64_t> prompt_ids;  // those tokens' ids, with PromptIds::kKeep only
};

// Whether parsing keeps the prompt's token ids (the prefix cache needs them) or only counts them.
enum class PromptIds {
  kCount,  // prompt_tokens only; prompt_ids stays empty
  kKeep,   // prompt_ids too: chat BOS + ChatML text, completions BOS + text or the ids sent
};

// A parsed request, or the message for a 400 reply saying what is wrong with the body.
using CompletionParse = std::variant<CompletionRequest, std::string>;

// Parses a JSON request body received on `endpoint` (chat, completions or responses). Each image
// part of a chat or responses prompt counts `image_tokens` prompt tokens on top of the text; with
// PromptIds::kKeep it adds that many ids derived from its URL after the text's ids.
CompletionParse parse_completion_request(Endpoint endpoint, std::string_view body,
                                         PromptIds ids = PromptIds::kCount,
                                         std::int64_t image_tokens = kDefaultImageTokens);

// Number of Unicode code points in UTF-8 `text` (continuation bytes are not counted).
std::int64_t count_code_points(std::string_view text);

}  // namespace llmperf::mock

// The wire format of servers' tokenize APIs: request bodies and the parsing of answers, for the
// three shapes llmperf speaks (no HTTP here; src/server/ sends them). Facts per shape:
//   vLLM (and SGLang): POST /tokenize {"model","prompt","add_special_tokens"} or the chat form
//     {"model","messages","add_generation_prompt":true} -> {"count","max_model_len","tokens"};
//     POST /detokenize {"model","tokens"} -> {"prompt"} (SGLang: {"text"}).
//   llama.cpp: POST /tokenize {"content","add_special"} -> {"tokens"} (ids, or {"id","piece"}
//     objects with with_pieces); POST /detokenize {"tokens"} -> {"content"};
//     POST /apply-template {"messages"} -> {"prompt"} (the templated text).
//   TGI: POST /tokenize {"inputs"} -> [{"id","text","start","stop"}] (special tokens always added;
//     offsets in characters); POST /chat_tokenize (a chat request) -> {"tokenize_response",
//     "templated_text"}; no detokenizer.
// Parsers never throw: a body that is not the expected answer gives nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

enum class TokenizeShape : uint8_t { kVllm, kLlamaCpp, kTgi };

// "vLLM/SGLang", "llama.cpp", "TGI".
std::string_view tokenize_shape_name(TokenizeShape shape);

// Token ids of a text and, where the answer gives offsets, the byte offset where each ends.
struct TokenList {
  std::vector<int64_t> ids;
  std::vector<size_t> ends;  // empty, or one per id
};

namespace tokenize_api {

// POST /tokenize body for `text` as plain text, with or without the special tokens (BOS).
// TGI cannot leave them out; parse_tokens drops them.
std::string tokenize_body(TokenizeShape shape, std::string_view model, std::string_view text,
                          bool add_special);

// A chat request with one user message `text`: the vLLM /tokenize chat form, llama.cpp's
// /apply-template and TGI's /chat_tokenize all take this body.
std::string chat_body(std::string_view model, std::string_view text);

// POST /detokenize body (vLLM and llama.cpp).
std::string detokenize_body(TokenizeShape shape, std::string_view model,
                            const std::vector<int64_t>& ids);

// The ids of a /tokenize answer for `text`, without special tokens for TGI (zero-width tokens);
// TGI's character offsets become byte offsets into `text`.
std::optional<TokenList> parse_tokens(TokenizeShape shape, std::string_view body,
                                      std::string_view text);

// The number of tokens a /tokenize answer (or TGI's /chat_tokenize answer) holds: vLLM's "count"
// when present, else the number of tokens.
std::optional<int64_t> parse_count(TokenizeShape shape, std::string_view body);

// The text of a /detokenize answer: vLLM's "prompt" (SGLang's "text"), llama.cpp's "content".
std::optional<std::string> parse_detokenized(TokenizeShape shape, std::string_view body);

// The "max_model_len" of a vLLM-shape /tokenize answer (the server's context length); nullopt
// when absent or not a positive integer.
std::optional<int64_t> parse_max_model_len(std::string_view body);

// The templated prompt of llama.cpp's /apply-template answer ({"prompt"}).
std::optional<std::string> parse_applied_template(std::string_view body);

}  // namespace tokenize_api
}  // namespace llmperf

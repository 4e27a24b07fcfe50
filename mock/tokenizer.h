// The mock's own deterministic tokenizer and chat template, behind its /tokenize API and its
// usage.prompt_tokens. It is deliberately not one word per token, so that llmperf's length
// fitting is really exercised:
//   - a run of ASCII letters and digits is cut into pieces of at most 4 bytes; one space right
//     before the run belongs to its first piece (" hello" -> " hel" "lo", "hello" -> "hell" "o");
//   - every other ASCII byte (punctuation, newline, a space not before a letter or digit) is one
//     token;
//   - every other Unicode code point is one token (a Chinese character is one token), and every
//     byte that is not valid UTF-8 is one token;
//   - the markers "<s>", "<|im_start|>" and "<|im_end|>" written in the text are one special token
//     each (parsed as special, as llama.cpp does).
// With add_special, BOS ("<s>") is prepended. The chat template is ChatML:
//   <|im_start|>{role}\n{content}<|im_end|>\n ... <|im_start|>assistant\n
// and a chat request counts BOS + the tokens of that text, so one user message of C tokens counts
// C + 11 tokens (kChatOverheadOneMessage). Token ids are stable: an ASCII piece is its bytes in
// base 128, a code point is 2^28 + the code point, an invalid byte 2^28 + 0x110000 + the byte, and
// a special token 2^29 + its number.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace llmperf::mock {

using TokenId = std::int64_t;

// BOS + <|im_start|> user \n ... <|im_end|> \n + <|im_start|> assi stan t \n: the tokens a chat
// request with one user message adds to the tokens of its content.
inline constexpr std::int64_t kChatOverheadOneMessage = 11;

// One token of a text: its id and the bytes [begin, end) it covers.
struct TokenSpan {
  TokenId id = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Splits `text` into tokens (no BOS).
std::vector<TokenSpan> tokenize_spans(std::string_view text);

// Token ids of `text`, with BOS first when `add_special`.
std::vector<TokenId> tokenize(std::string_view text, bool add_special);

// The text of `ids` (special tokens as their markers); nullopt when an id is not one of the
// mock's.
std::optional<std::string> detokenize(std::span<const TokenId> ids);

// The ChatML text of an OpenAI `messages` array (content strings, or the text of text parts);
// nullopt when `messages` is not an array of objects.
std::optional<std::string> apply_chat_template(const nlohmann::json& messages,
                                               bool add_generation_prompt);

// usage.prompt_tokens of a chat request: BOS + the tokens of its templated text (generation
// prompt included); nullopt when `messages` is malformed.
std::optional<std::int64_t> chat_prompt_tokens(const nlohmann::json& messages);

}  // namespace llmperf::mock

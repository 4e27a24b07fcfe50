// The tokenizer seam: how the workload stage counts tokens without model files. Token counts come
// from the server under test (its tokenize API, chat template included), through an
// implementation in src/server/; tests use a fake. Every call takes a batch, because each item may
// be an HTTP round trip that the implementation runs concurrently.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/workload_info.h"

namespace llmperf {

// Plain-text tokens of one text: ids, and where known the byte offset at which each ends (servers
// without a detokenizer give offsets instead).
struct Encoding {
  std::vector<int64_t> ids;
  std::vector<size_t> ends;  // empty, or ends[k] = end of token k in the text, in bytes
};

// Thrown when the server's tokenizer cannot be used (unreachable, unexpected answer).
class TokenizerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  virtual const TokenizerInfo& info() const = 0;

  // The ids of each text as plain text: no special tokens, no chat template.
  virtual std::vector<Encoding> encode(const std::vector<std::string>& texts) = 0;
  // Whether decode() is available; without it, cuts use Encoding::ends.
  virtual bool can_decode() const = 0;
  // The text of each id sequence (the inverse of encode).
  virtual std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) = 0;
  // The usage.prompt_tokens the server will report for a request whose prompt is each text: the
  // user message with the chat template for the chat API, the raw prompt with special tokens for
  // the completions API.
  virtual std::vector<int64_t> count(const std::vector<std::string>& prompts) = 0;
  // The tokens of each text on its own, as the tokenizer counts it by default: special tokens
  // (BOS) included, no chat template. vLLM's len(tokenizer(text).input_ids), what its ShareGPT
  // sampling measures prompts and answers with.
  virtual std::vector<int64_t> count_text(const std::vector<std::string>& texts) = 0;
};

}  // namespace llmperf

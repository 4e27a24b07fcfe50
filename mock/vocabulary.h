// The fixed vocabulary that generated responses cycle through, kept JSON-escaped so events can be
// assembled by plain appends.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf::mock {

// Tokens of generated text: ASCII words, multi-byte UTF-8 and characters that need escaping.
class Vocabulary {
 public:
  Vocabulary();

  // JSON-escaped text (without quotes) of the token at `position` of a response.
  std::string_view escaped(std::size_t position) const {
    return escaped_[position % escaped_.size()];
  }

 private:
  std::vector<std::string> escaped_;
};

// JSON-escapes `text` for use inside a string literal (no surrounding quotes).
std::string json_escape(std::string_view text);

}  // namespace llmperf::mock

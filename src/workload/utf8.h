// Small UTF-8 helpers: counting code points (the unit of --min/--max-prompt-length) and
// validating text before it goes into a JSON body.
#pragma once

#include <cstdint>
#include <string_view>

namespace llmperf {

// Number of Unicode code points in UTF-8 text (invalid bytes count as one each).
int64_t utf8_length(std::string_view text);

// The longest prefix of `text` that is well-formed UTF-8 and does not end in U+FFFD: what is
// left of a detokenized text once a character cut by the token boundary is dropped.
std::string_view utf8_whole_prefix(std::string_view text);

// True when text is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool utf8_valid(std::string_view text);

}  // namespace llmperf

// Small text helpers every stage shares.
#pragma once

#include <string>
#include <string_view>

namespace llmperf {

// `text` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r).
constexpr std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// `text` with ASCII letters in lower case (other bytes, UTF-8 included, unchanged).
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace llmperf

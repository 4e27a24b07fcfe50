// The first lines of a fuzz input, for the targets that read each line as a flag of its own.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace llmperf::fuzz {

// Up to 16 lines of `text`, split at '\n' (the last may be empty).
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size() && lines.size() < 16) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace llmperf::fuzz

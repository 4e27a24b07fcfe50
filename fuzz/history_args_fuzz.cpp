// libFuzzer target for the history's text arguments, which come from users and CI scripts: each
// line of the input is a `--tag` (parse_tag, parse_tags), which may only throw
// std::invalid_argument. Checked: a parsed tag's key is a Prometheus label name and "key=value"
// parses back to the same tag. Each line is also a --baseline argument (parse_baseline_source:
// "db:FILE" or a summary.json path), which may only throw std::invalid_argument; checked: "db:"
// selects the history with the rest as its non-empty path, anything else is kept whole.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/tags.h"
#include "verdict/history_baseline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llmperf;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= input.size()) {
    const size_t end = std::min(input.find('\n', start), input.size());
    lines.emplace_back(input.substr(start, end - start));
    start = end + 1;
  }
  for (const std::string& line : lines) {
    try {
      const Tag tag = parse_tag(line);
      if (tag.first.empty() || tag.first.starts_with("__") ||
          (tag.first[0] >= '0' && tag.first[0] <= '9')) {
        std::abort();
      }
      if (parse_tag(tag.first + "=" + tag.second) != tag) std::abort();
    } catch (const std::invalid_argument&) {
    }
  }
  for (const std::string& line : lines) {
    try {
      const BaselineSource source = parse_baseline_source(line);
      if (source.history != line.starts_with("db:")) std::abort();
      if (source.history && (source.path.empty() || "db:" + source.path != line)) std::abort();
      if (!source.history && source.path != line) std::abort();
    } catch (const std::invalid_argument&) {
    }
  }
  try {
    parse_tags(lines);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}

// See tags.h.
#include "cli/tags.h"

#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace llmperf {
namespace {

bool tag_key_char(char c, bool first) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return letter || (!first && c >= '0' && c <= '9');
}

}  // namespace

Tag parse_tag(std::string_view text, std::string_view flag) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    throw std::invalid_argument(fmt::format("{} '{}': expected key=value", flag, text));
  }
  const std::string_view key = text.substr(0, eq);
  const std::string_view value = text.substr(eq + 1);
  if (key.empty()) throw std::invalid_argument(fmt::format("{} '{}': empty key", flag, text));
  for (size_t i = 0; i < key.size(); ++i) {
    if (!tag_key_char(key[i], i == 0)) {
      throw std::invalid_argument(fmt::format(
          "{} '{}': a key is letters, digits and '_', not starting with a digit", flag, text));
    }
  }
  if (key.starts_with("__")) {
    throw std::invalid_argument(
        fmt::format("{} '{}': keys starting with '__' are Prometheus' own", flag, text));
  }
  for (const char c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw std::invalid_argument(
          fmt::format("{} '{}': the value has a control character", flag, key));
    }
  }
  return {std::string(key), std::string(value)};
}

std::vector<Tag> parse_tags(const std::vector<std::string>& texts, std::string_view flag) {
  std::vector<Tag> tags;
  std::set<std::string> keys;
  for (const std::string& text : texts) {
    Tag tag = parse_tag(text, flag);
    if (!keys.insert(tag.first).second) {
      throw std::invalid_argument(fmt::format("{} {} given twice", flag, tag.first));
    }
    tags.push_back(std::move(tag));
  }
  return tags;
}

}  // namespace llmperf

// Trial labels (rules in label.h).
#include "study/label.h"

#include "core/text.h"

#include <algorithm>

#include <fmt/format.h>

namespace llmperf {
namespace {

bool label_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '+' || c == '-';
}

// The text of a value with unsafe characters replaced, cut to kMaxLabelValueLength.
std::string safe(std::string_view text) {
  if (text.empty()) return "_";
  std::string out(text.substr(0, kMaxLabelValueLength));
  std::replace_if(
      out.begin(), out.end(), [](char c) { return !label_char(c); }, '_');
  return out;
}

std::string plain_value(std::string_view value) {
  const std::string key = ascii_lower(value);
  if (key == "true") return "enable";
  if (key == "false") return "disable";
  return safe(value);
}

}  // namespace

std::string label_value(const ParamSpace& space, std::string_view value) {
  if (space.kind != ParamKind::kFlag) return plain_value(value);
  std::string_view flag = space.flag;
  while (!flag.empty() && flag.front() == '-') flag.remove_prefix(1);
  const std::string name = safe(flag);
  return value.empty() ? safe("no-" + std::string(flag)) : name;
}

std::string trial_label(size_t index, const std::vector<ParamSpace>& spaces,
                        const Assignment& assignment) {
  std::string label = fmt::format("{}", index);
  for (const auto& entry : assignment) {
    const auto space = std::find_if(spaces.begin(), spaces.end(),
                                    [&](const ParamSpace& s) { return s.name == entry.first; });
    label += '-';
    label += space == spaces.end() ? plain_value(entry.second) : label_value(*space, entry.second);
  }
  return label;
}

}  // namespace llmperf

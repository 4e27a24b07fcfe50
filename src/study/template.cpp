// Command templates (rules in template.h): one scanner walks the text, copies what is literal and
// hands each {name} to its caller, which substitutes, checks or collects it.
#include "study/template.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

namespace llmperf {
namespace {

bool identifier_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool identifier_char(char c) { return identifier_start(c) || (c >= '0' && c <= '9'); }

// Walks `text`: appends its literal parts to `out` (when not null) and calls `on_name` for each
// {name}, which appends what stands for it.
void scan(std::string_view text, std::string* out,
          const std::function<void(std::string_view name)>& on_name) {
  const auto put = [&](std::string_view part) {
    if (out != nullptr) out->append(part);
  };
  size_t open_escapes = 0;  // '{{' seen whose '}}' has not come yet
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      const size_t close = text.find('}', i + 2);
      const size_t end = close == std::string_view::npos ? text.size() : close + 1;
      put(text.substr(i, end - i));
      i = end;
    } else if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      put("{");
      ++open_escapes;
      i += 2;
    } else if (c == '{' && i + 1 < text.size() && identifier_start(text[i + 1])) {
      size_t end = i + 2;
      while (end < text.size() && identifier_char(text[end])) ++end;
      if (end < text.size() && text[end] == '}') {
        on_name(text.substr(i + 1, end - i - 1));
        i = end + 1;
      } else {
        put("{");
        ++i;
      }
    } else if (c == '}' && open_escapes > 0 && i + 1 < text.size() && text[i + 1] == '}') {
      put("}");
      --open_escapes;
      i += 2;
    } else {
      put(text.substr(i, 1));
      ++i;
    }
  }
}

[[noreturn]] void fail_unknown(std::string_view text, std::string_view name,
                               const std::vector<std::string_view>& known, std::string_view flag) {
  std::string names;
  for (std::string_view k : known) {
    if (!names.empty()) names += ", ";
    names += k;
  }
  if (names.empty()) names = "(none)";
  throw std::invalid_argument(
      fmt::format("{} '{}': unknown name {{{}}}; known: {} (write {{{{{}}}}} for the literal text)",
                  flag, text, name, names, name));
}

}  // namespace

std::string substitute(std::string_view text, const TemplateValues& values, std::string_view flag) {
  std::string out;
  out.reserve(text.size());
  scan(text, &out, [&](std::string_view name) {
    const auto found = std::find_if(values.begin(), values.end(),
                                    [&](const auto& value) { return value.first == name; });
    if (found == values.end()) {
      std::vector<std::string_view> known;
      for (const auto& value : values) known.push_back(value.first);
      fail_unknown(text, name, known, flag);
    }
    out += found->second;
  });
  return out;
}

void check_template(std::string_view text, const std::vector<std::string>& known,
                    std::string_view flag) {
  scan(text, nullptr, [&](std::string_view name) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      fail_unknown(text, name, std::vector<std::string_view>(known.begin(), known.end()), flag);
    }
  });
}

std::vector<std::string> template_names(std::string_view text) {
  std::vector<std::string> names;
  scan(text, nullptr, [&](std::string_view name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  });
  return names;
}

}  // namespace llmperf

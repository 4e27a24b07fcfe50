// Keep-Alive header parsing (see keep_alive.h).
#include "protocol/keep_alive.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace llmperf {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<int64_t> parse_keep_alive_timeout_s(std::string_view header_value) {
  while (!header_value.empty()) {
    const size_t comma = header_value.find(',');
    const std::string_view parameter = header_value.substr(0, comma);
    header_value = comma == std::string_view::npos ? std::string_view() : header_value.substr(comma + 1);
    const size_t equals = parameter.find('=');
    if (equals == std::string_view::npos || !iequals(trim(parameter.substr(0, equals)), "timeout")) {
      continue;
    }
    std::string_view value = trim(parameter.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (value.empty()) return std::nullopt;
    int64_t seconds = 0;
    for (const char c : value) {
      if (c < '0' || c > '9') return std::nullopt;
      seconds = std::min(kKeepAliveTimeoutMaxS, seconds * 10 + (c - '0'));
    }
    return seconds;
  }
  return std::nullopt;
}

}  // namespace llmperf

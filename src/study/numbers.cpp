// Numbers as the study stage reads and writes them (numbers.h).
#include "study/numbers.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

#include "core/text.h"

namespace llmperf {
namespace study_detail {

bool parse_int64(std::string_view text, int64_t& out) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_finite_double(std::string_view text, double& out) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return value;
  // fmt formats exactly and from_chars reads correctly rounded, so this is the same everywhere.
  const std::string text = fmt::format("{:.{}e}", value, digits - 1);
  double out = value;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

std::string format_number(double value) {
  if (value == 0) return "0";  // also -0
  return fmt::format("{}", value);
}

}  // namespace study_detail

}  // namespace llmperf

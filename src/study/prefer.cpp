// --prefer, the tie-break among configurations tied within noise (prefer.h).
#include "study/prefer.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace llmperf {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

// A parameter's value as a number when it reads as one (true/false as 1/0).
std::optional<double> number_of(const std::string& value) {
  if (value == "true") return 1;
  if (value == "false") return 0;
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end != value.c_str() + value.size() || !std::isfinite(number)) return std::nullopt;
  return number;
}

}  // namespace

std::string Preference::text() const {
  std::string out;
  for (const PreferKey& key : keys) {
    out += fmt::format("{}{}:{}", out.empty() ? "" : ",", key.name, key.maximize ? "max" : "min");
  }
  return out;
}

Preference parse_prefer(std::string_view text) {
  if (trimmed(text).empty()) text = kDefaultPrefer;
  Preference preference;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view item =
        trimmed(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
    const auto fail = [&](const std::string& why) {
      throw std::invalid_argument(fmt::format("--prefer '{}': {}", text, why));
    };
    if (item.empty()) fail("an empty key (write NAME[:min|:max], separated by commas)");
    PreferKey key;
    std::string_view name = item;
    if (const size_t colon = item.find(':'); colon != std::string_view::npos) {
      const std::string_view direction = trimmed(item.substr(colon + 1));
      if (direction != "min" && direction != "max") {
        fail(fmt::format("'{}' is no direction (write :min or :max)", direction));
      }
      key.maximize = direction == "max";
      name = trimmed(item.substr(0, colon));
    }
    if (name.empty()) fail(fmt::format("'{}' names nothing", item));
    for (const char c : name) {
      if (!name_char(c)) {
        fail(fmt::format("'{}' is not a name (letters, digits, '_', '.', '-')", name));
      }
    }
    key.name = std::string(name);
    for (const PreferKey& earlier : preference.keys) {
      if (earlier.name == key.name) fail(fmt::format("'{}' is given twice", key.name));
    }
    preference.keys.push_back(std::move(key));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return preference;
}

PreferValue prefer_value(const TrialRecord& record, const std::string& name) {
  if (name == kPreferGpus) {
    if (record.gpus) return static_cast<double>(*record.gpus);
    return {};
  }
  if (name == kPreferGpuMemory) {
    if (record.gpu.empty()) return {};
    double used = 0;
    for (const GpuMemory& gpu : record.gpu) used += static_cast<double>(gpu.used_mib);
    return used;
  }
  for (const auto& [param, value] : record.params) {
    if (param != name) continue;
    if (const auto number = number_of(value)) return *number;
    return value;  // a flag parameter's value: the flag or "" (compares as text)
  }
  if (const auto it = record.metrics.find(name); it != record.metrics.end() &&
                                                  std::isfinite(it->second)) {
    return it->second;
  }
  return {};
}

int prefer_compare(const TrialRecord& a, const TrialRecord& b, const PreferKey& key) {
  const PreferValue va = prefer_value(a, key.name);
  const PreferValue vb = prefer_value(b, key.name);
  // Any value before none, a number before text.
  if (va.index() != vb.index()) {
    const auto rank = [](const PreferValue& v) { return v.index() == 0 ? 2 : v.index() == 1 ? 0 : 1; };
    return rank(va) < rank(vb) ? -1 : 1;
  }
  int order = 0;
  if (const auto* x = std::get_if<double>(&va)) {
    const double y = std::get<double>(vb);
    order = *x < y ? -1 : *x > y ? 1 : 0;
  } else if (const auto* s = std::get_if<std::string>(&va)) {
    order = s->compare(std::get<std::string>(vb));
    order = order < 0 ? -1 : order > 0 ? 1 : 0;
  }
  return key.maximize ? -order : order;
}

std::string prefer_value_text(const TrialRecord& record, const std::string& name) {
  const PreferValue value = prefer_value(record, name);
  if (const auto* x = std::get_if<double>(&value)) {
    return fmt::format("{} {:g}{}", name, *x, name == kPreferGpuMemory ? " MiB" : "");
  }
  if (const auto* s = std::get_if<std::string>(&value)) {
    return fmt::format("{} {}", name, s->empty() ? "off" : *s);
  }
  return fmt::format("{} -", name);
}

}  // namespace llmperf

// Trace replay, workload stage (see trace.h): the line reader of both trace forms and the
// schedule. The prompts are built in trace_prompts.cpp.
#include "workload/replay/trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"
#include "workload/synthetic/word_list.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// ---- timestamps ----

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kNsPerS = 1'000'000'000;

std::optional<int64_t> double_to_ns(double ns) {
  if (!std::isfinite(ns) || std::fabs(ns) > static_cast<double>(kMaxTraceTimestampNs)) {
    return std::nullopt;
  }
  return std::llround(ns);
}

// A JSON number of `unit` nanoseconds, in nanoseconds; integers stay exact.
std::optional<int64_t> number_to_ns(const Json& value, int64_t unit) {
  const int64_t max = kMaxTraceTimestampNs / unit;
  if (value.is_number_unsigned()) {
    const auto v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(max)) return std::nullopt;
    return static_cast<int64_t>(v) * unit;
  }
  if (value.is_number_integer()) {
    const auto v = value.get<int64_t>();
    if (v > max || v < -max) return std::nullopt;
    return v * unit;
  }
  return double_to_ns(value.get<double>() * static_cast<double>(unit));
}

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Reads exactly `digits` decimal digits at `at`.
bool digits_at(std::string_view s, size_t& at, size_t digits, int64_t& out) {
  if (s.size() - std::min(at, s.size()) < digits) return false;
  out = 0;
  for (size_t k = 0; k < digits; ++k, ++at) {
    if (s[at] < '0' || s[at] > '9') return false;
    out = out * 10 + (s[at] - '0');
  }
  return true;
}

// An ISO-8601 date-time as Python's datetime.fromisoformat reads the usual forms:
// YYYY-MM-DD[(T|t|' ')HH[:MM[:SS[(.|,)fraction]]]][Z|z|(+|-)HH[:]MM], no zone = UTC.
std::optional<int64_t> iso8601_ns(std::string_view s) {
  size_t at = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, fraction_ns = 0;
  if (!digits_at(s, at, 4, year) || at >= s.size() || s[at++] != '-' ||
      !digits_at(s, at, 2, month) || at >= s.size() || s[at++] != '-' ||
      !digits_at(s, at, 2, day)) {
    return std::nullopt;
  }
  static constexpr int64_t kMonthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1 || day > kMonthDays[month - 1] ||
      (month == 2 && day == 29 && !leap) || year < 1) {
    return std::nullopt;
  }
  int64_t zone_s = 0;
  if (at < s.size() && (s[at] == 'T' || s[at] == 't' || s[at] == ' ')) {
    ++at;
    if (!digits_at(s, at, 2, hour) || hour > 23) return std::nullopt;
    if (at < s.size() && s[at] == ':') {
      ++at;
      if (!digits_at(s, at, 2, minute) || minute > 59) return std::nullopt;
      if (at < s.size() && s[at] == ':') {
        ++at;
        if (!digits_at(s, at, 2, second) || second > 59) return std::nullopt;
        if (at < s.size() && (s[at] == '.' || s[at] == ',')) {
          ++at;
          int64_t scale = kNsPerS;
          const size_t start = at;
          for (; at < s.size() && s[at] >= '0' && s[at] <= '9'; ++at) {
            if (scale > 1) fraction_ns += (s[at] - '0') * (scale /= 10);
          }
          if (at == start) return std::nullopt;
        }
      }
    }
    if (at < s.size() && (s[at] == 'Z' || s[at] == 'z')) {
      ++at;
    } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
      const int64_t sign = s[at++] == '-' ? -1 : 1;
      int64_t zone_h = 0, zone_m = 0;
      if (!digits_at(s, at, 2, zone_h) || zone_h > 23) return std::nullopt;
      if (at < s.size() && s[at] == ':') ++at;
      if (!digits_at(s, at, 2, zone_m) || zone_m > 59) return std::nullopt;
      zone_s = sign * (zone_h * 3600 + zone_m * 60);
    }
  }
  if (at != s.size()) return std::nullopt;
  const int64_t seconds =
      days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - zone_s;
  if (seconds > kMaxTraceTimestampNs / kNsPerS - 1 || seconds < -(kMaxTraceTimestampNs / kNsPerS)) {
    return std::nullopt;
  }
  return seconds * kNsPerS + fraction_ns;
}

// EvalScope's timestamp string: a number of seconds (surrounding spaces and a '+' allowed, like
// Python's float()), else an ISO-8601 date-time.
std::optional<int64_t> string_to_ns(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n\v\f");
  if (first == std::string_view::npos) return std::nullopt;
  s = s.substr(first, s.find_last_not_of(" \t\r\n\v\f") - first + 1);
  std::string_view number = s;
  if (number.starts_with('+') && !number.substr(1).starts_with('-')) number.remove_prefix(1);
  const char* end = number.data() + number.size();
  int64_t whole = 0;
  if (auto [ptr, ec] = std::from_chars(number.data(), end, whole);
      ec == std::errc() && ptr == end) {
    if (whole > kMaxTraceTimestampNs / kNsPerS || whole < -(kMaxTraceTimestampNs / kNsPerS)) {
      return std::nullopt;
    }
    return whole * kNsPerS;
  }
  double seconds = 0;
  if (auto [ptr, ec] = std::from_chars(number.data(), end, seconds);
      ptr == end && !number.empty()) {
    if (ec != std::errc()) return std::nullopt;
    return double_to_ns(seconds * static_cast<double>(kNsPerS));
  }
  return iso8601_ns(s);
}

// ---- lines ----

enum class Form : uint8_t { kUnknown, kMooncake, kBodies };

// An integer field in [min, max]; sets `reason` and returns false otherwise.
bool integer_field(const Json& object, const char* key, int64_t min, int64_t max, int64_t& out,
                   std::string& reason) {
  const auto it = object.find(key);
  if (it == object.end()) {
    reason = fmt::format("no \"{}\"", key);
    return false;
  }
  if (!it->is_number_integer() ||
      (it->is_number_unsigned() &&
       it->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
    reason = fmt::format("\"{}\" is not an integer", key);
    return false;
  }
  out = it->get<int64_t>();
  if (out < min || out > max) {
    reason = fmt::format("\"{}\" is {}, outside [{}, {}]", key, out, min, max);
    return false;
  }
  return true;
}

bool parse_mooncake(const Json& line, TraceEntry& entry, int64_t& timestamp_ns,
                    std::string& reason) {
  if (line.contains("body")) {
    reason = "a workload-trace line (\"body\") in a Mooncake trace";
    return false;
  }
  const auto timestamp = line.find("timestamp");
  if (timestamp == line.end()) {
    reason = "no \"timestamp\"";
    return false;
  }
  if (!timestamp->is_number()) {
    reason = "\"timestamp\" is not a number (milliseconds)";
    return false;
  }
  const auto ns = number_to_ns(*timestamp, kNsPerMs);
  if (!ns) {
    reason = "\"timestamp\" is out of range";
    return false;
  }
  timestamp_ns = *ns;
  if (!integer_field(line, "input_length", 1, kMaxTraceLength, entry.input_length, reason) ||
      !integer_field(line, "output_length", 1, kMaxTraceLength, entry.output_length, reason)) {
    return false;
  }
  const auto hash_ids = line.find("hash_ids");
  if (hash_ids == line.end() || hash_ids->is_null()) return true;
  if (!hash_ids->is_array()) {
    reason = "\"hash_ids\" is not a list";
    return false;
  }
  if (static_cast<int64_t>(hash_ids->size()) > entry.input_length) {
    reason = fmt::format("{} hash_ids for an input_length of {} (at most one per token)",
                         hash_ids->size(), entry.input_length);
    return false;
  }
  entry.hash_ids.reserve(hash_ids->size());
  for (size_t k = 0; k < hash_ids->size(); ++k) {
    const Json& id = (*hash_ids)[k];
    if (!id.is_number_integer()) {
      reason = fmt::format("hash_ids[{}] is not an integer", k);
      return false;
    }
    // Unsigned 64-bit hashes keep their bit pattern.
    entry.hash_ids.push_back(id.is_number_unsigned() ? static_cast<int64_t>(id.get<uint64_t>())
                                                     : id.get<int64_t>());
  }
  return true;
}

// The keys EvalScope reserves for its own metadata (evalscope/perf/utils/body_meta.py).
constexpr std::string_view kReservedBodyKeys[] = {"__evalscope_headers", "__evalscope_request_id",
                                                  "__evalscope_arrival_offset",
                                                  "__evalscope_is_warmup"};

bool parse_body_line(const Json& line, TraceEntry& entry, int64_t& timestamp_ns,
                     std::string& reason) {
  const auto timestamp = line.find("timestamp");
  if (timestamp == line.end()) {
    reason = "no \"timestamp\"";
    return false;
  }
  std::optional<int64_t> ns;
  if (timestamp->is_number()) {
    ns = number_to_ns(*timestamp, kNsPerS);
  } else if (timestamp->is_string()) {
    ns = string_to_ns(timestamp->get_ref<const std::string&>());
  } else {
    reason = "\"timestamp\" is neither a number (seconds) nor an ISO-8601 string";
    return false;
  }
  if (!ns) {
    reason = "\"timestamp\" is not a number of seconds or an ISO-8601 date-time in range";
    return false;
  }
  timestamp_ns = *ns;

  const Json& body_field = line.at("body");
  Json parsed_body;
  const Json* body = &body_field;
  if (body_field.is_string()) {
    const std::string& text = body_field.get_ref<const std::string&>();
    parsed_body = Json::parse(text.begin(), text.end(), nullptr, false);
    body = &parsed_body;
  }
  if (!body->is_object()) {
    reason = "\"body\" is neither an object nor a string holding one";
    return false;
  }
  for (const std::string_view key : kReservedBodyKeys) {
    if (body->contains(key)) {
      reason = fmt::format("\"body\" has EvalScope's reserved key \"{}\"", key);
      return false;
    }
  }
  if (const auto headers = line.find("headers"); headers != line.end() && !headers->is_null()) {
    if (!headers->is_object()) {
      reason = "\"headers\" is not an object";
      return false;
    }
    for (const auto& [name, value] : headers->items()) {
      if (!value.is_string()) {
        reason = fmt::format("header \"{}\" is not a string", name);
        return false;
      }
      entry.headers.emplace_back(name, value.get<std::string>());
    }
  }
  if (const auto id = line.find("request_id"); id != line.end() && !id->is_null()) {
    if (!id->is_string()) {
      reason = "\"request_id\" is not a string";
      return false;
    }
    entry.request_id = id->get<std::string>();
  }
  if (const auto tokens = line.find("completion_tokens");
      tokens != line.end() && !tokens->is_null() &&
      !integer_field(line, "completion_tokens", 1, kMaxTraceLength, entry.output_length, reason)) {
    return false;
  }
  entry.body_json = body->dump();
  return true;
}

// The "nothing usable" message: the counts and the first malformed lines.
std::string describe_nothing_usable(std::string_view name, const DatasetStats& stats) {
  if (stats.records_read == 0) return fmt::format("{}: no usable trace entries (no lines)", name);
  std::string text =
      fmt::format("{}: no usable trace entries ({} line{} read: {} blank", name, stats.records_read,
                  stats.records_read == 1 ? "" : "s", stats.skipped_empty);
  if (stats.malformed > 0) {
    text += fmt::format(", {} malformed, first at lines {}", stats.malformed,
                        fmt::join(stats.malformed_lines, ", "));
  }
  text += ")";
  if (!stats.first_malformed_reason.empty()) text += "; " + stats.first_malformed_reason;
  return text;
}

}  // namespace

TraceFile parse_trace(std::istream& in, std::string_view name, int64_t limit) {
  if (limit < 1) throw std::invalid_argument(fmt::format("trace limit {} is below 1", limit));
  TraceFile file;
  DatasetStats& stats = file.stats;
  Form form = Form::kUnknown;
  std::vector<int64_t> timestamps;  // ns, parallel to file.entries
  std::string buffer;
  std::string reason;
  while (stats.accepted < limit && std::getline(in, buffer)) {
    const int64_t number = ++stats.records_read;
    std::string_view line = buffer;
    if (number == 1 && line.starts_with(kUtf8Bom)) line.remove_prefix(kUtf8Bom.size());
    if (detail::is_blank(line)) {
      ++stats.skipped_empty;
      continue;
    }
    TraceEntry entry;
    entry.line = number;
    int64_t timestamp_ns = 0;
    reason.clear();
    bool ok = false;
    try {
      const Json json = Json::parse(line.begin(), line.end());
      if (!json.is_object()) {
        reason = "not a JSON object";
      } else {
        if (form == Form::kUnknown) {
          if (json.contains("body")) {
            form = Form::kBodies;
          } else if (json.contains("input_length") || json.contains("hash_ids")) {
            form = Form::kMooncake;
          }
        }
        if (form == Form::kMooncake) {
          ok = parse_mooncake(json, entry, timestamp_ns, reason);
        } else if (form == Form::kBodies && json.contains("body")) {
          ok = parse_body_line(json, entry, timestamp_ns, reason);
        } else if (form == Form::kBodies) {
          reason =
              json.contains("input_length") ? "a Mooncake line in a workload trace" : "no \"body\"";
        } else {
          reason = "neither \"body\" (workload trace) nor \"input_length\" (Mooncake trace)";
        }
      }
    } catch (const Json::exception& error) {  // parse_error, or out_of_range for 1e999
      reason = "not valid JSON: " + detail::json_error_text(error);
    }
    if (!ok) {
      ++stats.malformed;
      if (stats.malformed_lines.size() < detail::kMaxMalformedNumbers) {
        stats.malformed_lines.push_back(number);
      }
      if (stats.first_malformed_reason.empty()) {
        stats.first_malformed_reason = fmt::format("line {}: {}", number, reason);
      }
      continue;
    }
    if (!timestamps.empty() && timestamp_ns < timestamps.back()) ++file.out_of_order;
    timestamps.push_back(timestamp_ns);
    file.entries.push_back(std::move(entry));
    ++stats.accepted;
  }
  if (file.entries.empty()) throw DatasetError(describe_nothing_usable(name, stats));
  file.bodies = form == Form::kBodies;

  std::vector<size_t> order(file.entries.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return timestamps[a] < timestamps[b]; });
  const int64_t earliest = timestamps[order.front()];
  std::vector<TraceEntry> sorted;
  sorted.reserve(order.size());
  for (const size_t i : order) {
    sorted.push_back(std::move(file.entries[i]));
    sorted.back().offset_ns = timestamps[i] - earliest;
  }
  file.entries = std::move(sorted);
  return file;
}

TraceFile read_trace(const std::string& path, int64_t limit) {
  std::ifstream in = detail::open_input(path);
  return parse_trace(in, path, limit);
}

std::vector<int64_t> trace_schedule(const std::vector<TraceEntry>& entries, double speedup) {
  if (!std::isfinite(speedup) || speedup <= 0) {
    throw std::invalid_argument(fmt::format("trace speedup {} is not a positive number", speedup));
  }
  std::vector<int64_t> offsets;
  offsets.reserve(entries.size());
  for (const TraceEntry& entry : entries) {
    if (speedup == 1) {  // exact, whatever the offset
      offsets.push_back(entry.offset_ns);
      continue;
    }
    const auto ns = double_to_ns(static_cast<double>(entry.offset_ns) / speedup);
    if (!ns) {
      throw std::invalid_argument(
          fmt::format("trace speedup {} puts line {} more than {} s after the start", speedup,
                      entry.line, kMaxTraceTimestampNs / kNsPerS));
    }
    offsets.push_back(*ns);
  }
  return offsets;
}

}  // namespace llmperf

// Private to the protocol stage's SAX decoders (responses_decoder.cpp, pooling_response.cpp):
// the small pieces their handlers share. Each decoder drives its handler with the fast
// JsonScanner (json_scanner.h) first and, when the scanner gives up, again from scratch with
// nlohmann's sax_parse (the authority on validity), as chunk_decoder.cpp does. Handlers therefore
// accept both callback sets: float_number(text) from the scanner, number_float(value, text),
// binary() and parse_error() from nlohmann.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <system_error>

namespace llmperf::sax_support {

// key == literal as a fixed-length memcmp (a few integer compares; runs for every key).
template <size_t N>
bool key_is(std::string_view key, const char (&literal)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

// Unicode code points of well-formed UTF-8 text (bytes that are not continuation bytes).
inline int64_t code_points(std::string_view text) {
  int64_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// `value` rounded to the nearest integer and saturated to int64 (token counts sent as floats).
inline int64_t rounded_int(double value) {
  if (std::isnan(value)) return 0;
  constexpr double kLimit = 9223372036854775807.0;  // 2^63
  if (value >= kLimit) return std::numeric_limits<int64_t>::max();
  if (value <= -kLimit) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(std::llround(value));
}

// The JSON number text of a float (as JsonScanner passes it) rounded to an integer; false when
// the text does not parse as a finite double.
inline bool rounded_int(std::string_view text, int64_t& result) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return false;
  result = rounded_int(value);
  return true;
}

// nlohmann::json::sax_parse over `text`, with every exception mapped to false.
template <typename Handler>
bool nlohmann_sax_parse(std::string_view text, Handler& handler) {
  try {
    return nlohmann::json::sax_parse(text.begin(), text.end(), &handler);
  } catch (...) {
    return false;
  }
}

}  // namespace llmperf::sax_support

// UTF-8 code point counting and validation (RFC 3629 well-formedness, Unicode Table 3-7).
#include "workload/utf8.h"

#include <cstddef>

#include "workload/dataset.h"

namespace llmperf {
namespace {

// Byte length of the well-formed sequence starting at text[i], or 0 when it is not one.
size_t sequence_length(std::string_view text, size_t i) {
  const auto byte = [text](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t n = 0;
  unsigned char low = 0x80;  // allowed range of the second byte
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead == 0xE0) {
    n = 3;
    low = 0xA0;
  } else if (lead == 0xED) {
    n = 3;
    high = 0x9F;
  } else if (lead >= 0xE1 && lead <= 0xEF) {
    n = 3;
  } else if (lead == 0xF0) {
    n = 4;
    low = 0x90;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    n = 4;
  } else if (lead == 0xF4) {
    n = 4;
    high = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

int64_t utf8_length(std::string_view text) {
  int64_t count = 0;
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = sequence_length(text, i);
    i += n == 0 ? 1 : n;
    ++count;
  }
  return count;
}

bool utf8_valid(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string_view utf8_whole_prefix(std::string_view text) {
  size_t whole = 0;  // end of the longest well-formed prefix
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = sequence_length(text, i);
    if (n == 0) break;
    i += n;
    whole = i;
  }
  // A detokenizer that met a cut character may have written U+FFFD (EF BF BD) for it.
  constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  while (whole >= kReplacement.size() &&
         text.substr(whole - kReplacement.size(), kReplacement.size()) == kReplacement) {
    whole -= kReplacement.size();
  }
  return text.substr(0, whole);
}

}  // namespace llmperf

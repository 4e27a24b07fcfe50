// Private to the protocol stage's SAX decoders (through sax_support.h): a strict recursive-descent
// JSON scanner that drives a SAX-style handler, several times faster than nlohmann's lexer on
// stream chunks (bench/parse_bench.cpp). It accepts only valid JSON (RFC 8259, strings checked as
// UTF-8 per RFC 3629) and gives up on anything it does not handle: \u escapes, integers over 18
// digits, floats near overflow, nesting deeper than kMaxNesting, and every error. The caller then
// parses again with nlohmann, which stays the authority on validity, so "gave up" never means
// "invalid".
//
// Handler interface: null(), boolean(bool), number_integer(int64_t), number_unsigned(uint64_t),
// float_number(std::string_view text), string(std::string_view), key(std::string_view),
// start_object(size_t), end_object(), start_array(size_t), end_array(); all return bool.
// Views passed to the handler are valid only during the call.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf {

template <typename Handler>
class JsonScanner {
 public:
  JsonScanner(std::string_view text, Handler& handler)
      : p_(text.data()), end_(text.data() + text.size()), handler_(handler) {}

  // True when the whole text was one JSON value and every event reached the handler.
  bool scan() {
    skip_space();
    if (!value(0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  static constexpr int kMaxNesting = 64;
  // Floats whose decimal magnitude may exceed this many digits are left to nlohmann (the largest
  // double is about 1.8e308).
  static constexpr int64_t kMaxFloatDigits = 300;
  static constexpr int64_t kExponentCap = 1000000;

  // Bytes that may appear unescaped in a string and need no further check: printable ASCII
  // other than '"' and '\\'.
  static constexpr std::array<bool, 256> kPlain = [] {
    std::array<bool, 256> plain{};
    for (int c = 0x20; c < 0x80; ++c) plain[static_cast<size_t>(c)] = c != '"' && c != '\\';
    return plain;
  }();

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool consume(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  bool value(int nesting) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return nesting < kMaxNesting && object(nesting + 1);
      case '[':
        return nesting < kMaxNesting && array(nesting + 1);
      case '"': {
        std::string_view text;
        return string(text) && handler_.string(text);
      }
      case 't':
        return literal("true") && handler_.boolean(true);
      case 'f':
        return literal("false") && handler_.boolean(false);
      case 'n':
        return literal("null") && handler_.null();
      default:
        return number();
    }
  }

  bool object(int nesting) {
    ++p_;
    if (!handler_.start_object(0)) return false;
    skip_space();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return handler_.end_object();
    }
    do {
      skip_space();
      std::string_view name;
      if (p_ == end_ || *p_ != '"' || !string(name) || !handler_.key(name) || !consume(':')) {
        return false;
      }
      skip_space();
      if (!value(nesting)) return false;
    } while (consume(','));
    return p_ < end_ && *p_++ == '}' && handler_.end_object();
  }

  bool array(int nesting) {
    ++p_;
    if (!handler_.start_array(0)) return false;
    skip_space();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return handler_.end_array();
    }
    do {
      skip_space();
      if (!value(nesting)) return false;
    } while (consume(','));
    return p_ < end_ && *p_++ == ']' && handler_.end_array();
  }

  bool literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size()) return false;
    for (const char c : word) {
      if (*p_++ != c) return false;
    }
    return true;
  }

  // Reads the string starting at '"'. `text` views the input when the string has no escapes,
  // otherwise scratch_. Aligned to a cache line: most of every event's time is its byte loop,
  // which otherwise lands wherever the code before it ends, and a loop that straddles two lines
  // cost 3 % of parse_bench's events/s (measured A/B when the decoders' SAX scaffolding moved
  // into sax_support.h; the instructions had not changed).
  [[gnu::aligned(64)]] bool string(std::string_view& text) {
    const char* const begin = ++p_;
    bool escaped = false;
    while (true) {
      const char* const run = p_;
      p_ = skip_plain(p_);
      if (escaped) scratch_.append(run, p_);
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        text = escaped ? std::string_view(scratch_)
                       : std::string_view(begin, static_cast<size_t>(p_ - begin));
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!escaped) scratch_.assign(begin, p_);
        escaped = true;
        if (++p_ == end_) return false;
        const char decoded = unescape(*p_++);
        if (decoded == 0) return false;
        scratch_.push_back(decoded);
      } else {
        const char* const start = p_;
        if (!utf8_sequence()) return false;  // also rejects control characters
        if (escaped) scratch_.append(start, p_);
      }
    }
  }

  // The end of the run of plain bytes from `p`. The loop runs on a local pointer: every byte it
  // reads is a char, which may alias p_, so a loop on p_ itself stores p_ at every byte.
  const char* skip_plain(const char* p) const {
    while (p < end_ && kPlain[static_cast<unsigned char>(*p)]) ++p;
    return p;
  }

  // Value of a one-character escape; 0 for \u (left to nlohmann) and invalid escapes.
  static char unescape(char c) {
    switch (c) {
      case '"':
      case '\\':
      case '/':
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      default:
        return 0;
    }
  }

  // Consumes one well-formed multi-byte UTF-8 sequence (no overlongs, surrogates or > U+10FFFF).
  bool utf8_sequence() {
    const auto lead = static_cast<unsigned char>(*p_);
    int continuation = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      continuation = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      continuation = 2;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      continuation = 3;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ <= continuation) return false;
    for (int i = 1; i <= continuation; ++i) {
      const auto byte = static_cast<unsigned char>(p_[i]);
      if (byte < low || byte > high) return false;
      low = 0x80;
      high = 0xBF;
    }
    p_ += continuation + 1;
    return true;
  }

  bool number() {
    const char* const start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    const char* const digits = p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && is_digit(*p_)) ++p_;
    }
    const auto digit_count = static_cast<size_t>(p_ - digits);
    bool integral = true;
    if (p_ < end_ && *p_ == '.') {
      integral = false;
      if (++p_ == end_ || !is_digit(*p_)) return false;
      while (p_ < end_ && is_digit(*p_)) ++p_;
    }
    int64_t exponent = 0;  // saturates at kExponentCap
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      bool negative_exponent = false;
      if (++p_ < end_ && (*p_ == '+' || *p_ == '-')) negative_exponent = *p_++ == '-';
      if (p_ == end_ || !is_digit(*p_)) return false;
      for (; p_ < end_ && is_digit(*p_); ++p_) {
        exponent = std::min<int64_t>(exponent * 10 + (*p_ - '0'), kExponentCap);
      }
      if (negative_exponent) exponent = -exponent;
    }
    if (!integral) {
      // nlohmann rejects a float that overflows to infinity; leave anything near that to it.
      if (static_cast<int64_t>(digit_count) + exponent > kMaxFloatDigits) return false;
      return handler_.float_number(std::string_view(start, static_cast<size_t>(p_ - start)));
    }
    if (digit_count > 18) return false;
    int64_t result = 0;
    for (const char* d = digits; d < p_; ++d) result = result * 10 + (*d - '0');
    return negative ? handler_.number_integer(-result)
                    : handler_.number_unsigned(static_cast<uint64_t>(result));
  }

  const char* p_;          // next byte to read
  const char* const end_;  // one past the last byte
  Handler& handler_;       // receives the events
  std::string scratch_;    // unescaped text of the current string, when it had escapes
};

}  // namespace llmperf

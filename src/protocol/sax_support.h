// Private to the protocol stage's SAX decoders (chunk_decoder.cpp, responses_decoder.cpp,
// pooling_response.cpp): the scaffolding they share, so that each decoder writes only what is
// specific to its format. A decoder's handler derives from SaxHandler (below), which implements
// both callback sets, the fast JsonScanner's (json_scanner.h) and nlohmann's sax_parse's, keeps the
// stack of open containers and forwards each event to a few typed hooks of the handler.
// sax_decode() drives a handler with the scanner first and, when the scanner gives up, a fresh one
// with nlohmann (the authority on validity). Everything is resolved at compile time (CRTP): no
// virtual calls, no std::function and no allocation per event.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>

#include "protocol/json_scanner.h"

namespace llmperf::sax_support {

// key == literal as a fixed-length memcmp, which compiles to a few integer compares (this runs for
// every key of every payload; string_view's operator== may become a call to memcmp).
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

// A JSON float as a driver hands it over: JsonScanner gives its text, parsed only if a hook asks;
// nlohmann gives its value.
class JsonFloat {
 public:
  explicit JsonFloat(std::string_view text) : text_(text) {}
  explicit JsonFloat(double value) : value_(value), parsed_(true) {}

  // The value rounded to an integer; false when the scanner's text does not parse as a finite
  // double.
  bool rounded(int64_t& result) const {
    if (!parsed_) return rounded_int(text_, result);
    result = rounded_int(value_);
    return true;
  }

 private:
  std::string_view text_;  // the number's text (JsonScanner)
  double value_ = 0;       // its value (nlohmann)
  bool parsed_ = false;    // value_ holds the value
};

// CRTP base of a decoder's SAX handler:
//   class MyHandler : public SaxHandler<MyHandler, MyFrame, 8, classify_my_key> {...};
// It holds the open containers, each described by a Frame, the decoder's own small struct with
// at least `scope`, an enum whose default value means "a container the decoder ignores" and
// whose kRoot is the top-level object, and `key`, set by kClassify(name) for every key of an
// object. Paths deeper than kMaxDepth share one ignored frame. Values at the top level other than
// containers reach no hook. Hooks the handler defines (it befriends its base when they are
// private):
//   Frame object_in(Frame& parent)  the frame of an object inside `parent`
//   Frame array_in(Frame& parent)   the frame of an array inside `parent`
//   void on_string(const Frame& in, std::string_view value)
// and, where it needs them (the defaults below ignore the value):
//   Frame root_object()             a top-level object (default: scope kRoot)
//   Frame root_array()              a top-level array (default: ignored)
//   void on_integer(const Frame& in, int64_t value)  unsigned ones saturated to int64
//   void on_float(const Frame& in, const JsonFloat& value)
//   void on_scalar(const Frame& in)  null, true, false (and binary, which JSON never yields)
//   void on_end_object(const Frame& closing)
//   void on_end_array(const Frame& closing)
template <typename Derived, typename Frame, size_t kMaxDepth, auto kClassify>
class SaxHandler {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  // Callbacks of both drivers.
  bool null() { return scalar(); }
  bool boolean(bool /*value*/) { return scalar(); }
  bool number_integer(number_integer_t value) {
    if (depth_ > 0) derived().on_integer(top(), value);
    return true;
  }
  bool number_unsigned(number_unsigned_t value) {
    return number_integer(static_cast<int64_t>(std::min<number_unsigned_t>(value, INT64_MAX)));
  }
  bool string(std::string_view value) {
    if (depth_ > 0) derived().on_string(top(), value);
    return true;
  }
  bool key(std::string_view name) {
    top().key = kClassify(name);
    return true;
  }
  bool start_object(std::size_t /*elements*/) {
    if (depth_ == 0) root_ = Root::kObject;
    push(depth_ == 0 ? derived().root_object() : derived().object_in(top()));
    return true;
  }
  bool start_array(std::size_t /*elements*/) {
    if (depth_ == 0) root_ = Root::kArray;
    push(depth_ == 0 ? derived().root_array() : derived().array_in(top()));
    return true;
  }
  bool end_object() {
    derived().on_end_object(top());
    --depth_;
    return true;
  }
  bool end_array() {
    derived().on_end_array(top());
    --depth_;
    return true;
  }

  // JsonScanner's float callback.
  bool float_number(std::string_view text) { return number_float(JsonFloat(text)); }

  // nlohmann's own callbacks.
  bool number_float(number_float_t value, const string_t& /*text*/) {
    return number_float(JsonFloat(value));
  }
  bool binary(binary_t& /*value*/) { return scalar(); }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

 protected:
  // What the top-level value was, for a decoder's finish step.
  bool root_is_object() const { return root_ == Root::kObject; }
  bool root_is_container() const { return root_ != Root::kScalar; }

  // Default hooks (see the list above); a handler hides those it needs.
  Frame root_object() { return Frame{decltype(Frame::scope)::kRoot}; }
  Frame root_array() { return Frame{}; }
  void on_integer(const Frame& /*in*/, int64_t /*value*/) {}
  void on_float(const Frame& /*in*/, const JsonFloat& /*value*/) {}
  void on_scalar(const Frame& /*in*/) {}
  void on_end_object(const Frame& /*closing*/) {}
  void on_end_array(const Frame& /*closing*/) {}

 private:
  enum class Root : uint8_t { kScalar, kObject, kArray };

  Derived& derived() { return static_cast<Derived&>(*this); }

  Frame& top() { return depth_ <= kMaxDepth ? frames_[depth_ - 1] : overflow_; }

  void push(const Frame& frame) {
    ++depth_;
    if (depth_ <= kMaxDepth) {
      frames_[depth_ - 1] = frame;
    } else {
      overflow_ = Frame{};
    }
  }

  bool scalar() {
    if (depth_ > 0) derived().on_scalar(top());
    return true;
  }

  bool number_float(const JsonFloat& value) {
    if (depth_ > 0) derived().on_float(top(), value);
    return true;
  }

  std::array<Frame, kMaxDepth> frames_{};  // open containers, root first
  Frame overflow_{};                       // stands in for every container deeper than kMaxDepth
  size_t depth_ = 0;                       // number of open containers
  Root root_ = Root::kScalar;              // the top-level value (kScalar until a container opens)
};

// nlohmann::json::sax_parse over `text`, with every exception mapped to false.
template <typename Handler>
bool nlohmann_sax_parse(std::string_view text, Handler& handler) {
  try {
    return nlohmann::json::sax_parse(text.begin(), text.end(), &handler);
  } catch (...) {
    return false;
  }
}

// Decodes `text` with a fresh Handler(args...) driven by JsonScanner and, when the scanner gives
// up, with a second fresh one driven by nlohmann. Calls finish(handler) with the handler that saw
// the whole text and returns true; returns false, without calling it, when `text` is not valid
// JSON. A handler's constructor resets the output it writes, so the second one starts clean.
template <typename Handler, typename Finish, typename... Args>
bool sax_decode(std::string_view text, Finish&& finish, Args&... args) {
  {
    Handler fast(args...);
    if (JsonScanner<Handler>(text, fast).scan()) {
      finish(fast);
      return true;
    }
  }
  Handler handler(args...);
  if (!nlohmann_sax_parse(text, handler)) return false;
  finish(handler);
  return true;
}

}  // namespace llmperf::sax_support

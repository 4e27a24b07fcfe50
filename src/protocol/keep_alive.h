// The `Keep-Alive` response header (RFC 2068 §19.7.1, still sent by cpp-httplib in llama.cpp's
// server: `Keep-Alive: timeout=5, max=100`): how long the server keeps an idle connection open.
// A client that reuses a connection idle for longer sends its next request into a socket the
// server has closed. Pure parsing; the engine decides what to do with the value.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace llmperf {

// Largest timeout taken from a header, in seconds; larger values are clamped to it (a day).
inline constexpr int64_t kKeepAliveTimeoutMaxS = 86'400;

// The `timeout=N` parameter of a Keep-Alive header value (the text after "Keep-Alive:"), in
// whole seconds: parameter names are case-insensitive, whitespace around ',' and '=' is ignored,
// the value may be quoted, and a value beyond kKeepAliveTimeoutMaxS is clamped to it. nullopt
// when the header has no timeout, or its value is not a non-negative whole number.
std::optional<int64_t> parse_keep_alive_timeout_s(std::string_view header_value);

}  // namespace llmperf

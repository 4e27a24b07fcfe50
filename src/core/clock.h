// The one clock for intervals: steady_clock as int64 nanoseconds (and the wall clock for stamps).
#pragma once

#include <chrono>
#include <cstdint>

namespace llmperf {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The wall clock (system_clock) as Unix nanoseconds: for timestamps people read, never intervals.
inline int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Seconds (a flag's value) as whole milliseconds, rounded.
inline int64_t seconds_to_ms(double seconds) {
  return static_cast<int64_t>(seconds * 1000.0 + 0.5);
}

}  // namespace llmperf

// The one clock for intervals: steady_clock as int64 nanoseconds (and the wall clock for stamps).
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>
#include <string>

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

// The wall clock now as text, by std::strftime's `format`, in UTC or in the local time zone: the one
// helper for every time a file or a directory name shows.
enum class TimeZone : bool { kUtc, kLocal };
inline std::string wall_clock_text(const char* format, TimeZone zone) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (zone == TimeZone::kUtc) {
    gmtime_r(&now, &tm);
  } else {
    localtime_r(&now, &tm);
  }
  char buffer[64];
  const size_t length = std::strftime(buffer, sizeof buffer, format, &tm);
  return std::string(buffer, length);
}

// The local time as YYYYmmdd_HHMMSS, the timestamp level of output directories (EvalScope's).
inline std::string output_timestamp() { return wall_clock_text("%Y%m%d_%H%M%S", TimeZone::kLocal); }

// Seconds (a flag's value) as whole milliseconds, rounded.
inline int64_t seconds_to_ms(double seconds) {
  return static_cast<int64_t>(seconds * 1000.0 + 0.5);
}

}  // namespace llmperf

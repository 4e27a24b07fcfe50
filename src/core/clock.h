// The one clock for intervals: steady_clock as int64 nanoseconds.
#pragma once

#include <chrono>
#include <cstdint>

namespace llmperf {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace llmperf

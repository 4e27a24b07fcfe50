// Time units for the tests' hand-made records, whose stamps are int64 nanoseconds.
#pragma once

#include <cstdint>

namespace llmperf {

inline constexpr int64_t kMs = 1'000'000;  // nanoseconds per millisecond

}  // namespace llmperf

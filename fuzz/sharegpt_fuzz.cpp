// libFuzzer target for the ShareGPT reader (read_sharegpt): arbitrary bytes as a JSON list or JSON
// lines. The first byte picks the turn limits (max_turns 1-8, min_turns 0-3); the rest is the file.
// The reader never throws or crashes, every item is counted exactly once (accepted + malformed +
// skipped_turns == records_read), and every conversation it hands over has between min_turns and
// max_turns turns, numbered in increasing order within the records read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "workload/datasets/sharegpt.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t max_turns = 1 + (data[0] & 7);
  const size_t min_turns = (data[0] >> 3) & 3;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  llmperf::DatasetStats stats;
  int64_t handed = 0;
  int64_t last_number = 0;
  llmperf::read_sharegpt(
      in, max_turns, min_turns,
      [&](llmperf::Conversation&& c) {
        ++handed;
        if (c.turns.size() < min_turns || c.turns.size() > max_turns) std::abort();
        if (c.number <= last_number) std::abort();
        last_number = c.number;
      },
      stats);
  if (stats.accepted + stats.malformed + stats.skipped_turns != stats.records_read) std::abort();
  if (handed != stats.accepted) std::abort();
  if (stats.malformed_lines.size() > 10) std::abort();
  if (static_cast<int64_t>(stats.malformed_lines.size()) !=
      std::min<int64_t>(stats.malformed, 10)) {
    std::abort();
  }
  if ((stats.malformed > 0) != !stats.first_malformed_reason.empty()) std::abort();
  return 0;
}

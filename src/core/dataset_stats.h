// What reading the dataset found: the workload stage fills it, the reports print it. A shared type
// so that reports need not depend on the workload stage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llmperf {

// What reading the dataset found; reported to the user.
struct DatasetStats {
  int64_t records_read = 0;              // lines (or list items) examined
  int64_t accepted = 0;                  // prompts kept
  int64_t skipped_length = 0;            // outside the length filter
  int64_t skipped_empty = 0;             // blank lines / empty prompts
  int64_t malformed = 0;                 // unparseable lines or items
  std::vector<int64_t> malformed_lines;  // first few 1-based line (or item) numbers, at most 10
  std::string first_malformed_reason;    // why the first malformed record was rejected
};

}  // namespace llmperf

// Requested versus realized lengths (DESIGN §3, Exactness): for every successful request that had
// a target length (synthetic workloads, ShareGPT answers), whether the server's own count equals
// it, and where it does not, by how much. A count the server did not report (no usage) cannot
// verify its target and is counted apart.
#pragma once

#include <cstdint>
#include <map>

namespace llmperf {

struct LengthExactness {
  int64_t requests = 0;    // successful measured requests with a target
  int64_t verified = 0;    // ... whose realized count came from the server's usage
  int64_t matched = 0;     // ... verified and equal to their target
  int64_t min_target = 0;  // smallest and largest target (meaningful when requests > 0)
  int64_t max_target = 0;
  int64_t requested_sum = 0;  // sum of the targets of all of them
  int64_t target_sum = 0;     // sum of the targets of the verified requests
  int64_t realized_sum = 0;   // sum of what the server counted for them
  // realized - target -> requests, for the verified requests where they differ.
  std::map<int64_t, int64_t> differences;

  void add(int64_t target, int64_t realized, bool verified_by_usage);
  bool any() const { return requests > 0; }
  int64_t mismatched() const { return verified - matched; }
};

}  // namespace llmperf

// Requested versus realized lengths (DESIGN §3, Exactness): for every successful request that had
// a target length (synthetic workloads, ShareGPT answers), whether the server's own count equals
// it, and where it does not, by how much. A count the server did not report (no usage) cannot
// verify its target and is counted apart.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

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

// Requests that missed a length they were built to have, input and output together: the figure
// behind the end-of-run WARNING and `--slo 'length_miss<=0'`. A request is checked when the
// server's usage verifies one of its targets: its input, or its output when the output was forced
// to its max_tokens (--ignore-eos; an output that ends at the model's EOS misses nothing).
struct LengthMisses {
  int64_t checked = 0;        // successful measured requests with a target verified by usage
  int64_t missed = 0;         // ... whose realized length differs from a target
  int64_t input_missed = 0;   // ... from its input target
  int64_t output_missed = 0;  // ... from its forced output target

  void add(bool checked_request, bool input_miss, bool output_miss);
  // missed / checked; nullopt when nothing was checked.
  std::optional<double> share() const;
};

}  // namespace llmperf

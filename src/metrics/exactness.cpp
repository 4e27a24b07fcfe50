// Requested versus realized lengths (see exactness.h).
#include "metrics/exactness.h"

#include <algorithm>

namespace llmperf {

void LengthExactness::add(int64_t target, int64_t realized, bool verified_by_usage) {
  min_target = requests == 0 ? target : std::min(min_target, target);
  max_target = requests == 0 ? target : std::max(max_target, target);
  ++requests;
  requested_sum += target;
  if (!verified_by_usage) return;
  ++verified;
  target_sum += target;
  realized_sum += realized;
  if (realized == target) {
    ++matched;
  } else {
    ++differences[realized - target];
  }
}

void LengthMisses::add(bool checked_request, bool input_miss, bool output_miss) {
  if (!checked_request) return;
  ++checked;
  missed += input_miss || output_miss ? 1 : 0;
  input_missed += input_miss ? 1 : 0;
  output_missed += output_miss ? 1 : 0;
}

std::optional<double> LengthMisses::share() const {
  if (checked == 0) return std::nullopt;
  return static_cast<double>(missed) / static_cast<double>(checked);
}

}  // namespace llmperf

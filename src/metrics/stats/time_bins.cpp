// TimeBins (see time_bins.h).
#include "metrics/stats/time_bins.h"

#include <algorithm>

namespace llmperf {

void TimeBins::add(int64_t t_ns, double amount) {
  const int64_t offset = std::max<int64_t>(0, t_ns - origin_ns_);
  while (static_cast<uint64_t>(offset / width_ns_) >= kMaxBins) {
    for (size_t i = 0; i < sums_.size(); i += 2) {
      sums_[i / 2] = sums_[i] + (i + 1 < sums_.size() ? sums_[i + 1] : 0.0);
    }
    sums_.resize((sums_.size() + 1) / 2);
    width_ns_ *= 2;
  }
  const auto bin = static_cast<size_t>(offset / width_ns_);
  if (bin >= sums_.size()) sums_.resize(bin + 1, 0.0);
  sums_[bin] += amount;
}

}  // namespace llmperf

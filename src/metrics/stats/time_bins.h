// Amounts summed into time bins that widen as a run goes on: when a time falls past the last of
// kMaxBins bins, neighbouring bins are merged in pairs and the width doubles. Memory stays bounded
// however long the run, and the bins stay aligned to the origin (every width is the starting
// width times a power of two), so charts can regroup them without splitting any. Used for output
// tokens over the run (report.html).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace llmperf {

class TimeBins {
 public:
  static constexpr size_t kMaxBins = 4096;
  static constexpr int64_t kStartWidthNs = 1'000'000;  // 1 ms

  TimeBins() = default;
  explicit TimeBins(int64_t origin_ns) : origin_ns_(origin_ns) {}

  // Adds `amount` at time t_ns (steady ns). Times before the origin count in the first bin.
  void add(int64_t t_ns, double amount);

  int64_t origin_ns() const { return origin_ns_; }
  int64_t width_ns() const { return width_ns_; }
  // sums()[i] is the total added in [origin + i * width, origin + (i + 1) * width).
  const std::vector<double>& sums() const { return sums_; }

 private:
  int64_t origin_ns_ = 0;
  int64_t width_ns_ = kStartWidthNs;
  std::vector<double> sums_;
};

}  // namespace llmperf

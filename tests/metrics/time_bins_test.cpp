// Tests for TimeBins: amounts land in the bin of their time, bins merge in pairs and double their
// width once the span outgrows kMaxBins, and nothing is lost on the way.
#include "metrics/stats/time_bins.h"
#include "test_units.h"

#include <gtest/gtest.h>

#include <numeric>

namespace llmperf {
namespace {

double total(const TimeBins& bins) {
  return std::accumulate(bins.sums().begin(), bins.sums().end(), 0.0);
}

TEST(TimeBins, AmountsLandInTheBinOfTheirTime) {
  TimeBins bins(100 * kMs);
  bins.add(100 * kMs, 1);            // first bin
  bins.add(100 * kMs + kMs - 1, 2);  // still the first
  bins.add(103 * kMs, 4);            // fourth
  bins.add(50 * kMs, 8);             // before the origin: first bin
  EXPECT_EQ(bins.width_ns(), kMs);
  EXPECT_EQ(bins.sums(), (std::vector<double>{11, 0, 0, 4}));
}

TEST(TimeBins, WidthDoublesAndPairsMergeWhenTheSpanOutgrowsTheBins) {
  TimeBins bins(0);
  bins.add(0, 1);
  bins.add(kMs, 2);         // bin 1
  bins.add(3 * kMs, 4);     // bin 3
  bins.add(4096 * kMs, 8);  // past 4096 bins of 1 ms: width 2 ms
  EXPECT_EQ(bins.width_ns(), 2 * kMs);
  EXPECT_EQ(bins.sums()[0], 3);  // 0 and 1 ms merged
  EXPECT_EQ(bins.sums()[1], 4);  // 2 and 3 ms
  EXPECT_EQ(bins.sums()[2048], 8);
  EXPECT_EQ(bins.sums().size(), 2049u);
  bins.add(int64_t{3600} * 1000 * kMs, 16);  // an hour in: still at most kMaxBins bins
  EXPECT_LE(bins.sums().size(), TimeBins::kMaxBins);
  EXPECT_EQ(bins.width_ns(), 1024 * kMs);  // 2^10 ms: 3,600 s / 1.024 s < 4,096 bins
  EXPECT_EQ(bins.sums()[0], 1 + 2 + 4);
  EXPECT_DOUBLE_EQ(total(bins), 1 + 2 + 4 + 8 + 16);
}

}  // namespace
}  // namespace llmperf

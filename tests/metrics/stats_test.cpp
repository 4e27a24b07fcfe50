// Tests for stats: percentiles against hand-computed numpy.percentile (linear) values, and the
// population mean/std of describe().
#include "metrics/stats/stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace llmperf {
namespace {

TEST(PercentileSorted, InterpolatesLinearlyLikeNumpy) {
  const std::vector<double> v = {1, 2, 3, 4};
  // rank = p/100 * (n-1) = p/100 * 3
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 50), 2.5);   // rank 1.5: 2 + 0.5*(3-2)
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 90), 3.7);   // rank 2.7: 3 + 0.7*(4-3)
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 25), 1.75);  // rank 0.75: 1 + 0.75*(2-1)
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 0), 1);      // min
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 100), 4);    // max
}

TEST(PercentileSorted, UnevenGaps) {
  const std::vector<double> v = {10, 20, 30, 40, 100};
  // rank = p/100 * 4
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 10), 14);    // rank 0.4: 10 + 0.4*10
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 99), 97.6);  // rank 3.96: 40 + 0.96*60
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 50), 30);    // rank 2 exactly
}

TEST(PercentileSorted, SingleElementIsEveryPercentile) {
  const std::vector<double> v = {7};
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 0), 7);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 50), 7);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 100), 7);
}

TEST(PercentileSorted, ClampsOutOfRangePoints) {
  const std::vector<double> v = {1, 2, 3};
  EXPECT_DOUBLE_EQ(percentile_sorted(v, -5), 1);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 150), 3);
}

TEST(Describe, PopulationStdAndMean) {
  // mean = 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32/8 = 4; sqrt(4) = 2.
  const Distribution d = describe({2, 4, 4, 4, 5, 5, 7, 9}, {50});
  EXPECT_EQ(d.count, 8u);
  EXPECT_DOUBLE_EQ(d.mean, 5);
  EXPECT_DOUBLE_EQ(d.std, 2);
  EXPECT_DOUBLE_EQ(d.min, 2);
  EXPECT_DOUBLE_EQ(d.max, 9);
  ASSERT_EQ(d.percentiles.size(), 1u);
  EXPECT_DOUBLE_EQ(d.percentiles[0], 4.5);  // rank 3.5: 4 + 0.5*(5-4)
}

TEST(Describe, SortsUnsortedInputAndKeepsPercentileOrder) {
  const Distribution d = describe({4, 1, 3, 2}, {90, 0, 50, 100});
  EXPECT_EQ(d.count, 4u);
  EXPECT_DOUBLE_EQ(d.min, 1);
  EXPECT_DOUBLE_EQ(d.max, 4);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);  // 10 / 4
  ASSERT_EQ(d.percentiles.size(), 4u);
  EXPECT_DOUBLE_EQ(d.percentiles[0], 3.7);
  EXPECT_DOUBLE_EQ(d.percentiles[1], 1);
  EXPECT_DOUBLE_EQ(d.percentiles[2], 2.5);
  EXPECT_DOUBLE_EQ(d.percentiles[3], 4);
  // deviations -1.5 -0.5 0.5 1.5: (2.25+0.25+0.25+2.25)/4 = 1.25
  EXPECT_DOUBLE_EQ(d.std, std::sqrt(1.25));
}

TEST(Describe, SingleSample) {
  const Distribution d = describe({42}, {10, 99});
  EXPECT_EQ(d.count, 1u);
  EXPECT_DOUBLE_EQ(d.mean, 42);
  EXPECT_DOUBLE_EQ(d.std, 0);
  EXPECT_DOUBLE_EQ(d.percentiles[0], 42);
  EXPECT_DOUBLE_EQ(d.percentiles[1], 42);
}

TEST(Describe, StableForLargeOffsets) {
  // Nanosecond-scale values: mean 1e12+10; deviations -6 -3 3 6; (36+9+9+36)/4 = 22.5.
  const double base = 1e12;
  const Distribution d = describe({base + 4, base + 7, base + 13, base + 16}, {});
  EXPECT_DOUBLE_EQ(d.mean, base + 10);
  EXPECT_NEAR(d.std, std::sqrt(22.5), 1e-9);
}

TEST(Describe, EmptyInputHasCountZeroAndFiniteFields) {
  const Distribution d = describe({}, {50, 90});
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.mean, 0);
  EXPECT_EQ(d.std, 0);
  EXPECT_EQ(d.min, 0);
  EXPECT_EQ(d.max, 0);
  ASSERT_EQ(d.percentiles.size(), 2u);
  EXPECT_EQ(d.percentiles[0], 0);
  EXPECT_EQ(d.percentiles[1], 0);
}

}  // namespace
}  // namespace llmperf

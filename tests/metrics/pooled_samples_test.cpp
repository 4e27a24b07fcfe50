// Tests for PooledSamples: exact (identical to describe()) below its limit; past it, every
// percentile within kRelativeError of the exact value on several shapes of data, while count,
// mean, std, min and max stay exact; merging pools; quantiles for charts.
#include "metrics/stats/pooled_samples.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace llmperf {
namespace {

const std::vector<double> kPoints = {0, 0.1, 1, 10, 25, 50, 66, 75, 90, 95, 98, 99, 99.9, 100};

std::vector<double> as_doubles(const std::vector<int64_t>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// A pool of `exact_limit` exact samples holding `values`.
PooledSamples pool_of(const std::vector<int64_t>& values, size_t exact_limit) {
  PooledSamples pool(exact_limit);
  for (int64_t v : values) pool.add(v);
  return pool;
}

// Checks a histogram-backed summary of `values` against describe() on the same values.
void expect_within_bound(const std::vector<int64_t>& values, size_t exact_limit) {
  const PooledSamples pool = pool_of(values, exact_limit);
  ASSERT_FALSE(pool.exact());
  const Distribution approx = pool.describe(kPoints);
  const Distribution exact = describe(as_doubles(values), kPoints);
  EXPECT_TRUE(approx.percentiles_approximate);
  EXPECT_EQ(approx.count, exact.count);
  EXPECT_EQ(approx.min, exact.min);
  EXPECT_EQ(approx.max, exact.max);
  EXPECT_NEAR(approx.mean, exact.mean, 1e-9 * exact.mean);
  EXPECT_NEAR(approx.std, exact.std, 1e-9 * exact.std + 1e-9);
  for (size_t i = 0; i < kPoints.size(); ++i) {
    const double bound = PooledSamples::kRelativeError * exact.percentiles[i] + 1e-9;
    EXPECT_NEAR(approx.percentiles[i], exact.percentiles[i], bound) << "p" << kPoints[i];
  }
}

TEST(PooledSamples, BelowTheLimitIsExactlyDescribe) {
  const std::vector<int64_t> values = {10'000'000, 9'000'000, 12'500'000, 10'000'001, 0, 31};
  const PooledSamples pool = pool_of(values, 100);
  EXPECT_TRUE(pool.exact());
  const Distribution d = pool.describe(kPoints);
  const Distribution expected = describe(as_doubles(values), kPoints);
  EXPECT_FALSE(d.percentiles_approximate);
  EXPECT_EQ(d.count, expected.count);
  EXPECT_EQ(d.mean, expected.mean);
  EXPECT_EQ(d.std, expected.std);
  EXPECT_EQ(d.percentiles, expected.percentiles);
}

TEST(PooledSamples, NegativeSamplesCountAsZero) {
  PooledSamples pool;
  pool.add(-5);
  pool.add(4);
  const Distribution d = pool.describe({50});
  EXPECT_EQ(d.min, 0);
  EXPECT_EQ(d.percentiles[0], 2);
}

TEST(PooledSamples, EmptyPoolIsAnEmptyDistribution) {
  const Distribution d = PooledSamples().describe({50, 99});
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.percentiles.size(), 2u);
}

TEST(PooledSamples, LogNormalGapsPastTheLimitStayWithinTheBound) {
  // ITL-like: around 10 ms with a long tail.
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> gap(std::log(10e6), 0.6);
  std::vector<int64_t> values;
  for (int i = 0; i < 200'000; ++i) values.push_back(static_cast<int64_t>(gap(rng)));
  expect_within_bound(values, 10'000);
}

TEST(PooledSamples, TinyAndHugeValuesTogetherStayWithinTheBound) {
  // Small values (exact buckets), microseconds, and stalls of minutes, in one pool.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int64_t> tiny(0, 20'000);
  std::uniform_int_distribution<int64_t> huge(1'000'000'000, 300'000'000'000);
  std::exponential_distribution<double> typical(1.0 / 50'000.0);
  std::vector<int64_t> values;
  for (int i = 0; i < 50'000; ++i) {
    values.push_back(tiny(rng));
    values.push_back(static_cast<int64_t>(typical(rng)));
    if (i % 100 == 0) values.push_back(huge(rng));
  }
  expect_within_bound(values, 1'000);
}

TEST(PooledSamples, IdenticalValuesAreExactEvenInTheHistogram) {
  std::vector<int64_t> values(5'000, 10'000'000);
  const PooledSamples pool = pool_of(values, 100);
  const Distribution d = pool.describe(kPoints);
  for (double v : d.percentiles) EXPECT_EQ(v, 10'000'000);  // clamped to [min, max]
  EXPECT_EQ(d.std, 0);
}

TEST(PooledSamples, MergingEqualsAddingEverything) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int64_t> any(0, 50'000'000);
  for (const size_t limit : {size_t{1'000'000}, size_t{500}}) {  // exact and histogram merges
    PooledSamples a(limit);
    PooledSamples b(limit);
    PooledSamples all(limit);
    for (int i = 0; i < 800; ++i) {
      const int64_t v = any(rng);
      (i % 3 == 0 ? a : b).add(v);
      all.add(v);
    }
    a.merge(b);
    EXPECT_EQ(a.size(), 800u);
    EXPECT_EQ(a.exact(), all.exact());
    const Distribution merged = a.describe(kPoints);
    const Distribution direct = all.describe(kPoints);
    EXPECT_EQ(merged.count, direct.count);
    EXPECT_EQ(merged.min, direct.min);
    EXPECT_EQ(merged.max, direct.max);
    EXPECT_NEAR(merged.mean, direct.mean, 1e-9 * direct.mean);
    EXPECT_NEAR(merged.std, direct.std, 1e-9 * direct.std);
    EXPECT_EQ(merged.percentiles, direct.percentiles);
  }
}

TEST(PooledSamples, QuantilesForChartsFollowThePercentiles) {
  PooledSamples pool;
  for (int64_t v = 1; v <= 101; ++v) pool.add(v);
  std::vector<double> quantiles;
  pool.describe({}, {0, 50, 100}, &quantiles);
  EXPECT_EQ(quantiles, (std::vector<double>{1, 51, 101}));
}

}  // namespace
}  // namespace llmperf

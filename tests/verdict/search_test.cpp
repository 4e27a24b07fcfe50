// Bisection search: converges on the highest passing value with few probes, handles a failing
// lower bound, a passing upper bound and an aborted probe.
#include <gtest/gtest.h>

#include "verdict/search.h"

namespace llmperf {
namespace {

TEST(Search, FindsTheHighestPassingConcurrency) {
  SearchSpec spec{1, 128, true, 0.02, 16};
  const SearchOutcome out =
      bisect_search(spec, [](double v) -> std::optional<bool> { return v <= 37; });
  ASSERT_TRUE(out.best.has_value());
  EXPECT_EQ(*out.best, 37);
  EXPECT_EQ(out.probes[0].value, 1);
  EXPECT_EQ(out.probes[1].value, 128);
  EXPECT_LE(out.probes.size(), 2u + 7u);  // log2(127) bisection steps
}

TEST(Search, RateSearchStopsAtTheRequestedPrecision) {
  SearchSpec spec{10, 1000, false, 0.02, 30};
  const SearchOutcome out =
      bisect_search(spec, [](double v) -> std::optional<bool> { return v <= 412.5; });
  ASSERT_TRUE(out.best.has_value());
  EXPECT_LE(*out.best, 412.5);
  EXPECT_GE(*out.best, 412.5 * 0.98);
}

TEST(Search, FailingLowerBoundHasNoAnswer) {
  const SearchOutcome out =
      bisect_search({4, 64, true, 0.02, 16}, [](double) -> std::optional<bool> { return false; });
  EXPECT_FALSE(out.best.has_value());
  EXPECT_EQ(out.probes.size(), 1u);
}

TEST(Search, PassingUpperBoundIsTheAnswer) {
  const SearchOutcome out =
      bisect_search({4, 64, true, 0.02, 16}, [](double) -> std::optional<bool> { return true; });
  EXPECT_EQ(out.best, 64);
  EXPECT_EQ(out.probes.size(), 2u);
}

TEST(Search, AbortedProbeStopsTheSearch) {
  int calls = 0;
  const SearchOutcome out =
      bisect_search({1, 100, true, 0.02, 16}, [&](double v) -> std::optional<bool> {
        if (++calls == 3) return std::nullopt;
        return v < 50;
      });
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(out.probes.size(), 2u);
  EXPECT_EQ(out.best, 1);
}

}  // namespace
}  // namespace llmperf

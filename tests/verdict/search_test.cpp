// Bisection search: converges on the highest passing value with few probes, handles a failing
// lower bound, a passing upper bound and an aborted probe; with doubling (EvalScope's
// --sla-auto-tune) the exact probe sequence LO, 2 LO, 4 LO, ... then bisection.
#include <vector>

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

// --- doubling (EvalScope's --sla-auto-tune) ---

// The values a search probed, in order.
std::vector<double> probed(const SearchOutcome& out) {
  std::vector<double> values;
  for (const SearchProbe& p : out.probes) values.push_back(p.value);
  return values;
}

SearchSpec doubling_spec(double lo, double hi) {
  SearchSpec spec{lo, hi, true, 0.02, 16};
  spec.doubling = true;
  return spec;
}

TEST(SearchDoubling, DoublesFromLoUntilAFailThenBisects) {
  const SearchOutcome out = bisect_search(doubling_spec(2, 1000),
                                          [](double v) -> std::optional<bool> { return v <= 21; });
  // 2, 4, 8, 16 pass; 32 fails; then bisection of (16, 32): 24 fails, 20 passes, 22 fails,
  // 21 passes.
  EXPECT_EQ(probed(out), (std::vector<double>{2, 4, 8, 16, 32, 24, 20, 22, 21}));
  EXPECT_EQ(out.best, 21);
  EXPECT_FALSE(out.interrupted);
  const std::vector<bool> passed = {true, true, true, true, false, false, true, false, true};
  for (size_t i = 0; i < passed.size(); ++i) {
    EXPECT_EQ(out.probes[i].passed, passed[i]) << "probe " << i;
  }
}

TEST(SearchDoubling, NeverProbesHiUnlessDoublingReachesIt) {
  // Without doubling HI is the second probe; with it, a far HI is never run.
  const SearchOutcome out =
      bisect_search(doubling_spec(1, 65536), [](double v) -> std::optional<bool> { return v < 6; });
  EXPECT_EQ(probed(out), (std::vector<double>{1, 2, 4, 8, 6, 5}));
  EXPECT_EQ(out.best, 5);
}

TEST(SearchDoubling, ClampsTheLastStepToHiAndStopsWhenHiPasses) {
  const SearchOutcome out =
      bisect_search(doubling_spec(3, 20), [](double) -> std::optional<bool> { return true; });
  EXPECT_EQ(probed(out), (std::vector<double>{3, 6, 12, 20}));
  EXPECT_EQ(out.best, 20);
}

TEST(SearchDoubling, FailingHiAfterClampBisectsBelowIt) {
  const SearchOutcome out =
      bisect_search(doubling_spec(3, 20), [](double v) -> std::optional<bool> { return v <= 17; });
  EXPECT_EQ(probed(out), (std::vector<double>{3, 6, 12, 20, 16, 18, 17}));
  EXPECT_EQ(out.best, 17);
}

TEST(SearchDoubling, FailingLoHasNoAnswerAndProbesNothingElse) {
  const SearchOutcome out =
      bisect_search(doubling_spec(4, 64), [](double) -> std::optional<bool> { return false; });
  EXPECT_FALSE(out.best.has_value());
  EXPECT_EQ(probed(out), (std::vector<double>{4}));
  EXPECT_FALSE(out.interrupted);
}

TEST(SearchDoubling, InterruptedWhileDoublingKeepsTheHighestPass) {
  int calls = 0;
  const SearchOutcome out =
      bisect_search(doubling_spec(1, 1000), [&](double) -> std::optional<bool> {
        if (++calls == 4) return std::nullopt;  // the run at 8 is interrupted
        return true;
      });
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(probed(out), (std::vector<double>{1, 2, 4}));
  EXPECT_EQ(out.best, 4);
}

TEST(SearchDoubling, InterruptedWhileBisectingKeepsTheHighestPass) {
  int calls = 0;
  const SearchOutcome out =
      bisect_search(doubling_spec(1, 1000), [&](double v) -> std::optional<bool> {
        if (++calls == 6) return std::nullopt;  // 1, 2, 4, 8 pass, 16 fails, then 12 stops
        return v <= 10;
      });
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(probed(out), (std::vector<double>{1, 2, 4, 8, 16}));
  EXPECT_EQ(out.best, 8);
}

TEST(SearchDoubling, InterruptedAtLoHasNoAnswer) {
  const SearchOutcome out = bisect_search(
      doubling_spec(2, 64), [](double) -> std::optional<bool> { return std::nullopt; });
  EXPECT_TRUE(out.interrupted);
  EXPECT_TRUE(out.probes.empty());
  EXPECT_FALSE(out.best.has_value());
}

TEST(SearchDoubling, RateDoublesAndBisectsToThePrecision) {
  SearchSpec spec{0.5, 100, false, 0.02, 30};
  spec.doubling = true;
  const SearchOutcome out =
      bisect_search(spec, [](double v) -> std::optional<bool> { return v <= 5.3; });
  const std::vector<double> values = probed(out);
  ASSERT_GE(values.size(), 6u);
  EXPECT_EQ(std::vector<double>(values.begin(), values.begin() + 6),
            (std::vector<double>{0.5, 1, 2, 4, 8, 6}));
  ASSERT_TRUE(out.best.has_value());
  EXPECT_LE(*out.best, 5.3);
  EXPECT_GE(*out.best, 5.3 * 0.98);
}

TEST(SearchDoubling, StopsAtMaxProbes) {
  SearchSpec spec = doubling_spec(1, 1e9);
  spec.max_probes = 5;
  const SearchOutcome out = bisect_search(spec, [](double) -> std::optional<bool> { return true; });
  EXPECT_EQ(probed(out), (std::vector<double>{1, 2, 4, 8, 16}));
  EXPECT_EQ(out.best, 16);
}

}  // namespace
}  // namespace llmperf

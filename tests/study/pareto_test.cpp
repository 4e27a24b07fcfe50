// Pareto fronts on hand-made points (every direction of the axes, ties, duplicates, non-finite
// points).
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "study/pareto.h"

namespace llmperf {
namespace {

using Indices = std::vector<size_t>;

// Tokens/s per user (x) against tokens/s in total (y), both more is better.
const std::vector<ParetoPoint> kParetoPoints = {
    {50, 1000},  // 0: front (most per user)
    {40, 2000},  // 1: front
    {30, 1500},  // 2: dominated by 1
    {20, 3000},  // 3: front
    {10, 3000},  // 4: dominated by 3 (same y, less x)
    {40, 1900},  // 5: dominated by 1 (same x, less y)
    {5, 2500},   // 6: dominated by 3
};

TEST(Pareto, BothMaximized) {
  EXPECT_EQ(pareto_front(kParetoPoints, true, true), (Indices{3, 1, 0}));
}

TEST(Pareto, OtherDirections) {
  // Less x is better, more y: 6 (5, 2500) and 4 (10, 3000) lead.
  EXPECT_EQ(pareto_front(kParetoPoints, false, true), (Indices{6, 4}));
  // More x, less y: 0 (50, 1000) beats everything.
  EXPECT_EQ(pareto_front(kParetoPoints, true, false), (Indices{0}));
  // Less of both: 6 (5, 2500), 2 (30, 1500), 0 (50, 1000).
  EXPECT_EQ(pareto_front(kParetoPoints, false, false), (Indices{6, 2, 0}));
}

TEST(Pareto, ThroughputAgainstLatency) {
  // x = output tok/s (max), y = p99 latency ms (min).
  const std::vector<ParetoPoint> points = {
      {1000, 200}, {1500, 400}, {1200, 500}, {2000, 900}, {900, 150}};
  EXPECT_EQ(pareto_front(points, true, false), (Indices{4, 0, 1, 3}));
}

TEST(Pareto, EqualPointsAreAllKeptAndNonFiniteLeftOut) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<ParetoPoint> points = {{1, 1}, {2, 2}, {2, 2}, {nan, 5}, {3, inf}, {0, 0}};
  EXPECT_EQ(pareto_front(points, true, true), (Indices{1, 2}));
  EXPECT_TRUE(pareto_front({}, true, true).empty());
  EXPECT_EQ(pareto_front({{7, 7}}, false, true), (Indices{0}));
  // Sorted by x, then by index.
  EXPECT_EQ(pareto_front({{3, 1}, {1, 3}, {2, 2}}, true, true), (Indices{1, 2, 0}));
}

}  // namespace
}  // namespace llmperf

// Tests for the run plan of a Config: --parallel/-n/--rate lists pair as documented, and
// --warmup-num is a count or a fraction of -n.
#include "core/config.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace llmperf {
namespace {

TEST(ConfigRuns, PairsListsAndBroadcastsSingleNumber) {
  Config c;
  c.parallel = {8, 16, 32};
  c.number = {100, 200, 400};
  EXPECT_EQ(c.runs(), (std::vector<std::pair<int, int64_t>>{{8, 100}, {16, 200}, {32, 400}}));
  c.number = {7};
  EXPECT_EQ(c.runs(), (std::vector<std::pair<int, int64_t>>{{8, 7}, {16, 7}, {32, 7}}));
  Config defaults;
  EXPECT_EQ(defaults.runs(), (std::vector<std::pair<int, int64_t>>{{1, 1000}}));
}

TEST(ConfigRuns, RatesDriveTheSweepAndParallelCapsEachRun) {
  Config c;
  c.rate = {5, 10, 20};
  c.parallel = {64};
  c.number = {100};
  const std::vector<Config::RunSpec> runs = c.run_specs();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].parallel, 64);
  EXPECT_EQ(runs[1].number, 100);
  EXPECT_DOUBLE_EQ(runs[2].rate, 20);
  EXPECT_DOUBLE_EQ(Config{}.run_specs().front().rate, -1);  // closed loop
}

TEST(ConfigRuns, WarmupIsACountOrAFractionOfTheRun) {
  Config c;
  EXPECT_EQ(c.warmup_count(200), 0);
  c.warmup_num = 20;
  EXPECT_EQ(c.warmup_count(200), 20);
  c.warmup_num = 0.25;
  EXPECT_EQ(c.warmup_count(200), 50);
}

}  // namespace
}  // namespace llmperf

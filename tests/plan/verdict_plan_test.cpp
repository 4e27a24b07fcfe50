// The verdict plan (plan/verdict_plan.h): the SLOs parsed once, --search rate's own SLO last, the
// history key without the tags --baseline-ignore-tag names, --search's range and --on-stop.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/config/output.h"
#include "core/config/verdicts.h"
#include "plan/verdict_plan.h"

namespace llmperf {
namespace {

TEST(VerdictPlan, SearchRateAddsItsSloOnTheRateSustainedAfterTheUsers) {
  VerdictConfig verdicts;
  verdicts.slo = {"ttft.p99<=200ms"};
  verdicts.search = "rate";
  verdicts.search_range = {1, 8};
  verdicts.rate_tolerance_pct = 5;
  const VerdictPlan plan = verdict_plan(verdicts, OutputConfig{});
  ASSERT_EQ(plan.slos.size(), 2U);
  EXPECT_EQ(plan.slos[0].expression, "ttft.p99<=200ms");
  EXPECT_EQ(plan.slos[1].expression, "rate_sustained>=95%");
  ASSERT_TRUE(plan.search);
  EXPECT_TRUE(plan.search_rate);
  EXPECT_FALSE(plan.search->integer);
  EXPECT_EQ(plan.search->lo, 1);
  EXPECT_EQ(plan.search->hi, 8);
}

TEST(VerdictPlan, WithoutFlagsNothingIsJudgedOrSearched) {
  const VerdictPlan plan = verdict_plan(VerdictConfig{}, OutputConfig{});
  EXPECT_TRUE(plan.slos.empty());
  EXPECT_FALSE(plan.baseline);
  EXPECT_FALSE(plan.search);
  EXPECT_FALSE(plan.abort_on_stop);
  EXPECT_DOUBLE_EQ(plan.tolerance, 0.1);
}

TEST(VerdictPlan, TheHistoryKeyLeavesOutTheIgnoredTags) {
  VerdictConfig verdicts;
  verdicts.baseline_path = "db:history.db";
  verdicts.baseline_ignore_tags = {"commit"};
  verdicts.on_stop = "abort";
  OutputConfig output;
  output.name = "nightly";
  output.tags = {{"commit", "abc"}, {"gpu", "h100"}};
  const VerdictPlan plan = verdict_plan(verdicts, output);
  ASSERT_TRUE(plan.baseline);
  EXPECT_TRUE(plan.baseline->history);
  EXPECT_EQ(plan.baseline->path, "history.db");
  EXPECT_EQ(plan.history_name, "nightly");
  ASSERT_EQ(plan.history_tags.size(), 1U);
  EXPECT_EQ(plan.history_tags[0].first, "gpu");
  EXPECT_TRUE(plan.abort_on_stop);
}

TEST(VerdictPlan, AnSloTheGrammarRefusesNamesItsFlag) {
  VerdictConfig verdicts;
  verdicts.slo = {"foo.p99<=1ms"};
  EXPECT_THROW(verdict_plan(verdicts, OutputConfig{}), std::invalid_argument);
}

}  // namespace
}  // namespace llmperf

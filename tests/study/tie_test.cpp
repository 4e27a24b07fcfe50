// A winner only when it is one (study/best.h): configurations whose 95 % intervals overlap the
// leader's are tied within noise with it, and the tie-break (--prefer, study/prefer.h; by default
// fewer GPUs, then less GPU memory) names the best; without repeats, --confirm's reruns say
// whether the leader's order over the runner-up held. The intervals are hand-computed here from
// each configuration's repeats (Student t, t(0.975, 2) = 4.303) and checked against
// mean_interval, which the trial runner uses to fill them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/stats/confidence.h"
#include "study/best.h"
#include "study/prefer.h"

namespace llmperf {
namespace {

TrialRecord tie_repeated(int64_t trial, std::vector<double> repeats, double low, double high) {
  TrialRecord record;
  record.trial = trial;
  record.label = std::to_string(trial);
  record.status = TrialStatus::kOk;
  std::vector<double> sorted = repeats;
  std::sort(sorted.begin(), sorted.end());
  record.objective = sorted[(sorted.size() - 1) / 2];  // the median, as the trial keeps it
  record.repeats = std::move(repeats);
  record.ci95_low = low;
  record.ci95_high = high;
  return record;
}

// A: 100, 110, 120: mean 110, s = 10, half-width 4.303 x 10 / sqrt(3) = 24.843 -> [85.157, 134.843]
// B:  80,  82,  84: mean 82,  s = 2,  half-width 4.303 x 2 / sqrt(3)  = 4.969  -> [77.031, 86.969]
// C:  60,  61,  62: mean 61,  s = 1,  half-width 2.484                         -> [58.516, 63.484]
// B's interval reaches A's (86.969 >= 85.157): tied. C's does not: not tied.
std::vector<TrialRecord> three_configs() {
  return {tie_repeated(0, {100, 110, 120}, 85.157, 134.843), tie_repeated(1, {80, 82, 84}, 77.031, 86.969),
          tie_repeated(2, {60, 61, 62}, 58.516, 63.484)};
}

TEST(TieRule, TheHandComputedIntervalsAreMeanIntervals) {
  for (const TrialRecord& record : three_configs()) {
    const MeanInterval interval = mean_interval(record.repeats);
    EXPECT_NEAR(interval.ci95_low, *record.ci95_low, 1e-3) << record.trial;
    EXPECT_NEAR(interval.ci95_high, *record.ci95_high, 1e-3) << record.trial;
  }
}

TEST(TieRule, OverlappingIntervalsAreTiedWithTheLeader) {
  const StudyBest best = study_best(three_configs(), 0, true);
  ASSERT_TRUE(best.leader);
  EXPECT_EQ(*best.leader, 0u);
  EXPECT_EQ(best.tied_by, "repeats");
  EXPECT_EQ(best.tied, (std::vector<size_t>{0, 1}));  // no GPU figures: the better objective
  EXPECT_EQ(*best.trial, 0u);
  EXPECT_EQ(best.decided_by, "objective");
  EXPECT_EQ(best.tie_break, "gpus:min,gpu_memory:min");
}

TEST(TieRule, FewerGpusThenLessGpuMemoryBreakTheTie) {
  std::vector<TrialRecord> trials = three_configs();
  trials[0].gpus = 2;
  trials[1].gpus = 1;
  StudyBest best = study_best(trials, 0, true);
  EXPECT_EQ(*best.leader, 0u);
  EXPECT_EQ(*best.trial, 1u);
  EXPECT_EQ(best.tied, (std::vector<size_t>{1, 0}));
  EXPECT_EQ(best.decided_by, "gpus");

  trials[0].gpus = trials[1].gpus = 1;
  trials[0].gpu = {{0, 7000, 24000}};
  trials[1].gpu = {{0, 9000, 24000}};
  best = study_best(trials, 0, true);
  EXPECT_EQ(*best.trial, 0u);
  EXPECT_EQ(best.decided_by, "gpu_memory");
  trials[0].gpu = {{0, 9500, 24000}};
  EXPECT_EQ(*study_best(trials, 0, true).trial, 1u);
}

TEST(TieRule, PreferNamesAParameterOrAMetric) {
  std::vector<TrialRecord> trials = three_configs();
  trials[0].params = {{"np", "8"}};
  trials[1].params = {{"np", "4"}};
  trials[2].params = {{"np", "1"}};  // lowest np, but not tied
  StudyBest best = study_best(trials, 0, true, parse_prefer("np:min"));
  EXPECT_EQ(*best.trial, 1u);
  EXPECT_EQ(best.decided_by, "np");
  EXPECT_EQ(best.tie_break, "np:min");
  EXPECT_EQ(*study_best(trials, 0, true, parse_prefer("np:max")).trial, 0u);
  trials[0].metrics["ttft.p99"] = 300;
  trials[1].metrics["ttft.p99"] = 200;
  EXPECT_EQ(*study_best(trials, 0, true, parse_prefer("ttft.p99")).trial, 1u);
}

TEST(TieRule, AMinimisedObjectiveTiesTheSameWay) {
  // ttft.p99 in ms, less is better. A: 61 [58.516, 63.484] leads; B: 82 [77.031, 86.969] is out.
  StudyBest best = study_best(three_configs(), 0, false);
  EXPECT_EQ(*best.leader, 2u);
  EXPECT_TRUE(best.tied.empty());
  EXPECT_EQ(*best.trial, 2u);
}

TEST(TieRule, SeparateIntervalsTieNothing) {
  std::vector<TrialRecord> trials = three_configs();
  trials[1] = tie_repeated(1, {80, 81, 82}, 77.516, 82.484);  // s = 1: below 85.157
  const StudyBest best = study_best(trials, 0, true);
  EXPECT_TRUE(best.tied.empty());
  EXPECT_TRUE(best.tied_by.empty());
  EXPECT_EQ(*best.trial, 0u);
}

TEST(TieRule, OnlyOkRowsAtTheLeadersRungAreTied) {
  std::vector<TrialRecord> trials = three_configs();
  trials[1].status = TrialStatus::kSloViolated;
  EXPECT_TRUE(study_best(trials, 0, true).tied.empty());
}

TrialRecord tie_single(int64_t trial, double objective, bool confirm = false) {
  TrialRecord record;
  record.trial = trial;
  record.status = TrialStatus::kOk;
  record.objective = objective;
  record.confirm = confirm;
  return record;
}

TEST(TieRule, ConfirmSaysWhetherTheOrderHeld) {
  // 640 leads 630; the reruns gave 645 and 628: the order held, nothing is tied.
  std::vector<TrialRecord> trials = {tie_single(0, 622), tie_single(1, 630), tie_single(2, 640)};
  ASSERT_EQ(*runner_up(trials, 2, true), 1u);
  EXPECT_FALSE(study_best(trials, 0, true).confirmation);  // no reruns yet
  trials.push_back(tie_single(2, 645, true));
  trials.push_back(tie_single(1, 628, true));
  StudyBest best = study_best(trials, 0, true);
  ASSERT_TRUE(best.confirmation);
  EXPECT_TRUE(best.confirmation->held);
  EXPECT_EQ(best.confirmation->runner_up, 1u);
  EXPECT_EQ(best.confirmation->leader_rerun, 3u);
  EXPECT_EQ(best.confirmation->runner_up_rerun, 4u);
  EXPECT_TRUE(best.tied.empty());
  EXPECT_EQ(*best.trial, 2u);
  EXPECT_EQ(study_row_lines(trials).size(), 3u);  // reruns are no rows

  // The reruns gave 625 and 635: the order did not hold, the two are tied, and the tie-break
  // (fewer GPUs) names the runner-up.
  trials[3].objective = 625;
  trials[4].objective = 635;
  trials[1].gpus = 1;
  trials[2].gpus = 2;
  best = study_best(trials, 0, true);
  EXPECT_FALSE(best.confirmation->held);
  EXPECT_EQ(best.tied_by, "confirm");
  EXPECT_EQ(best.tied, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(*best.trial, 1u);
  EXPECT_EQ(*best.leader, 2u);
}

TEST(Prefer, ParsesKeysWithDirections) {
  EXPECT_EQ(parse_prefer("").text(), "gpus:min,gpu_memory:min");
  EXPECT_EQ(parse_prefer("np:max").text(), "np:max");
  EXPECT_EQ(parse_prefer(" gpus , ttft.p99:min ").text(), "gpus:min,ttft.p99:min");
  for (const char* bad : {"np:up", ",np", "np,", "a b", "np,np", ":min", "n{p}"}) {
    EXPECT_THROW(parse_prefer(bad), std::invalid_argument) << bad;
  }
  try {
    parse_prefer("np:up");
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "--prefer 'np:up': 'up' is no direction (write :min or :max)");
  }
}

TEST(Prefer, ValuesCompareAsNumbersBeforeTextBeforeNone) {
  TrialRecord a;
  TrialRecord b;
  a.params = {{"cp", "true"}, {"mode", "fast"}, {"np", "10"}};
  b.params = {{"cp", "false"}, {"mode", "slow"}, {"np", "9"}};
  EXPECT_GT(prefer_compare(a, b, {"np", false}), 0);  // 10 > 9 numerically
  EXPECT_LT(prefer_compare(a, b, {"cp", true}), 0);   // true = 1
  EXPECT_LT(prefer_compare(a, b, {"mode", false}), 0);
  EXPECT_LT(prefer_compare(a, b, {"gpus", false}) , 1);
  b.gpus = 4;
  EXPECT_GT(prefer_compare(a, b, {"gpus", false}), 0);  // none comes after a value
  EXPECT_EQ(prefer_value_text(b, "gpus"), "gpus 4");
  EXPECT_EQ(prefer_value_text(a, "gpus"), "gpus -");
}

}  // namespace
}  // namespace llmperf

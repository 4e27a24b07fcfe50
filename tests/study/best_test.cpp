// The best trial of a study (study/best.h) on hand-made ledgers: best_trial (status ok only, ties
// to the lower index, min and max); the table's rows (highest rung, a rerun replacing its
// interrupted line); successive halving, where a short rung's trial has the best objective but
// never beats the full benchmark, and falls back to an earlier rung (measured short) when the last
// rung has no ok trial or was never reached; and every reason for having no best.
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "study/best.h"

namespace llmperf {
namespace {

TrialRecord best_record(int64_t trial, int rung, TrialStatus status,
                        std::optional<double> objective) {
  TrialRecord record;
  record.trial = trial;
  record.rung = rung;
  record.status = status;
  record.objective = objective;
  return record;
}

std::vector<TrialRecord> best_flat_trials() {
  return {best_record(0, 0, TrialStatus::kOk, 100),
          best_record(1, 0, TrialStatus::kSloViolated, 500),
          best_record(2, 0, TrialStatus::kOk, 300),
          best_record(3, 0, TrialStatus::kStartFailed, std::nullopt),
          best_record(4, 0, TrialStatus::kOk, 300),
          best_record(5, 0, TrialStatus::kOk, std::nullopt),
          best_record(6, 0, TrialStatus::kInterrupted, 900),
          best_record(7, 0, TrialStatus::kOk, 50),
          best_record(8, 0, TrialStatus::kOk, std::nan(""))};
}

TEST(BestTrial, IsTheBestOkObjectiveAndTiesGoToTheLowerIndex) {
  EXPECT_EQ(best_trial(best_flat_trials(), true), 2u);   // 300 at 2 and 4; 500 violates an SLO
  EXPECT_EQ(best_trial(best_flat_trials(), false), 7u);  // 50
  std::vector<TrialRecord> none = best_flat_trials();
  for (TrialRecord& trial : none) {
    if (trial.status == TrialStatus::kOk) trial.status = TrialStatus::kBenchFailed;
  }
  EXPECT_EQ(best_trial(none, true), std::nullopt);
  EXPECT_EQ(best_trial({}, true), std::nullopt);
}

TEST(StudyBest, WithoutRungsIsBestTrialOverTheRows) {
  const StudyBest max = study_best(best_flat_trials(), 0, true);
  EXPECT_EQ(max.trial, 2u);
  EXPECT_EQ(max.rung, 0);
  EXPECT_FALSE(max.short_of_full());
  EXPECT_EQ(max.why_none, NoBestReason::kNone);
  EXPECT_EQ(study_best(best_flat_trials(), 0, false).trial, 7u);
}

TEST(StudyBest, TiesGoToTheLowerTrialIndexWhateverTheLedgerOrder) {
  const std::vector<TrialRecord> trials = {best_record(2, 0, TrialStatus::kOk, 300),
                                           best_record(1, 0, TrialStatus::kOk, 300)};
  EXPECT_EQ(study_best(trials, 0, true).trial, 1u);  // the line of trial 1
}

TEST(StudyRowLines, TakeEachTrialAtItsHighestRungTheLastLineAmongEquals) {
  const std::vector<TrialRecord> trials = {
      best_record(3, 0, TrialStatus::kOk, 1),           // 0: superseded by line 4
      best_record(1, 0, TrialStatus::kInterrupted, 2),  // 1: rerun as line 3
      best_record(0, 0, TrialStatus::kOk, 3),           // 2
      best_record(1, 0, TrialStatus::kOk, 4),           // 3
      best_record(3, 1, TrialStatus::kOk, 5),           // 4
  };
  EXPECT_EQ(study_row_lines(trials), (std::vector<size_t>{2, 3, 4}));
  EXPECT_TRUE(study_row_lines({}).empty());
}

TEST(StudyBest, ARerunReplacesItsInterruptedLine) {
  const std::vector<TrialRecord> trials = {best_record(0, 0, TrialStatus::kOk, 100),
                                           best_record(1, 0, TrialStatus::kOk, 900),
                                           best_record(1, 0, TrialStatus::kSloViolated, 950)};
  // Trial 1's first line (900, ok) was replaced by its rerun, which missed an SLO.
  EXPECT_EQ(study_best(trials, 0, true).trial, 0u);
}

// Successive halving, 4 configurations, eta 2: rung 0 runs all four short; trials 1 and 3 go on
// to rung 1, the full benchmark. Trial 1's short run has the best objective of the study (300).
std::vector<TrialRecord> best_halving_trials() {
  return {best_record(0, 0, TrialStatus::kOk, 100), best_record(1, 0, TrialStatus::kOk, 300),
          best_record(2, 0, TrialStatus::kOk, 200), best_record(3, 0, TrialStatus::kOk, 250),
          best_record(1, 1, TrialStatus::kOk, 280), best_record(3, 1, TrialStatus::kOk, 290)};
}

TEST(StudyBest, HalvingAShortRunNeverBeatsTheFullBenchmark) {
  const StudyBest best = study_best(best_halving_trials(), 2, true);
  EXPECT_EQ(best.trial, 5u);  // trial 3 at rung 1 (290), not trial 1's short 300
  EXPECT_EQ(best.rung, 1);
  EXPECT_EQ(best.full_rung, 1);
  EXPECT_EQ(best.deepest_rung, 1);
  EXPECT_FALSE(best.short_of_full());
}

// Where the two rules this one replaced disagreed: the tune command's (only the last rung's ok
// trials, so no best and exit code 3) and the study's outputs' (the deepest rung with an ok row).
TEST(StudyBest, HalvingFallsBackToTheDeepestRungWithAnOkRowMeasuredShort) {
  std::vector<TrialRecord> trials = best_halving_trials();
  trials[4].status = trials[5].status = TrialStatus::kSloViolated;
  const StudyBest best = study_best(trials, 2, true);
  // The rows at rung 0 are trials 0 and 2 (trial 1's short 300 is superseded by its rung 1 line).
  EXPECT_EQ(best.trial, 2u);
  EXPECT_EQ(best.rung, 0);
  EXPECT_EQ(best.full_rung, 1);
  EXPECT_EQ(best.deepest_rung, 1);  // rung 1 was run: none of it ended ok
  EXPECT_TRUE(best.short_of_full());
  EXPECT_EQ(best.why_none, NoBestReason::kNone);
}

TEST(StudyBest, HalvingStoppedBeforeItsLastRungTakesTheShortRuns) {
  std::vector<TrialRecord> trials = best_halving_trials();
  trials.resize(4);
  const StudyBest best = study_best(trials, 2, true);
  EXPECT_EQ(best.trial, 1u);  // 300
  EXPECT_EQ(best.full_rung, 1);
  EXPECT_EQ(best.deepest_rung, 0);  // rung 1 was never reached
  EXPECT_TRUE(best.short_of_full());
  // Without a plan (a study.json without rungs), the deepest rung run is the full benchmark.
  EXPECT_FALSE(study_best(trials, 0, true).short_of_full());
}

TEST(StudyBest, SaysWhyThereIsNone) {
  const StudyBest empty = study_best({}, 0, true);
  EXPECT_FALSE(empty.trial);
  EXPECT_EQ(empty.why_none, NoBestReason::kNoTrials);
  EXPECT_EQ(empty.deepest_rung, -1);

  const StudyBest failed = study_best({best_record(0, 0, TrialStatus::kStartFailed, std::nullopt),
                                       best_record(1, 0, TrialStatus::kExcluded, std::nullopt)},
                                      0, true);
  EXPECT_EQ(failed.why_none, NoBestReason::kNoneBenchmarked);
  EXPECT_FALSE(failed.closest);

  const std::vector<TrialRecord> violated = {
      best_record(0, 0, TrialStatus::kSloViolated, 200),
      best_record(1, 0, TrialStatus::kSloViolated, 400),
      best_record(2, 0, TrialStatus::kSloViolated, 400),
      best_record(3, 0, TrialStatus::kSloViolated, std::nullopt),
      best_record(4, 0, TrialStatus::kStartFailed, std::nullopt)};
  const StudyBest max = study_best(violated, 0, true);
  EXPECT_FALSE(max.trial);
  EXPECT_EQ(max.why_none, NoBestReason::kNoneMetSlo);
  // 400, ties to the lower trial index
  EXPECT_EQ(max.closest, 1u);
  EXPECT_EQ(study_best(violated, 0, false).closest, 0u);  // 200
  EXPECT_FALSE(study_best({violated[3]}, 0, true).closest);

  const StudyBest no_value = study_best({best_record(0, 0, TrialStatus::kOk, std::nullopt),
                                         best_record(1, 0, TrialStatus::kSloViolated, 10)},
                                        0, true);
  EXPECT_FALSE(no_value.trial);
  EXPECT_EQ(no_value.why_none, NoBestReason::kNoObjective);
  EXPECT_FALSE(no_value.closest);
}

}  // namespace
}  // namespace llmperf

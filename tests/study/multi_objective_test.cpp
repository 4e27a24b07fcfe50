// Several objectives (study/multi_objective.h) on hand-made points and ledgers: the non-dominated
// points in two and three dimensions, every direction, equal points; the study's front (ok rows
// only, a value of every objective, the table's rows: a rerun replaces its interrupted line,
// --confirm's reruns are no rows); and what the sampler is told.
#include <cmath>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "study/multi_objective.h"

namespace llmperf {
namespace {

using Lines = std::vector<size_t>;

const std::vector<StudyObjective> kThroughputAndTtft = {{"output_throughput", "tok/s", true},
                                                        {"ttft.p99", "ms", false}};

TrialRecord mo_record(int64_t trial, TrialStatus status, std::optional<double> throughput,
                      std::optional<double> ttft) {
  TrialRecord record;
  record.trial = trial;
  record.status = status;
  record.objective = throughput;
  if (throughput) record.metrics["output_throughput"] = *throughput;
  if (ttft) record.metrics["ttft.p99"] = *ttft;
  return record;
}

TEST(NonDominated, TwoObjectivesInEveryDirection) {
  // (throughput, ttft)
  const std::vector<std::vector<double>> points = {
      {1000, 300},  // 0
      {2000, 500},  // 1
      {1500, 500},  // 2: dominated by 1 when more throughput and less ttft are better
      {3000, 900},  // 3
      {3000, 950},  // 4: dominated by 3 (same throughput, more ttft)
      {900, 300},   // 5: dominated by 0 (same ttft, less throughput)
  };
  EXPECT_EQ(non_dominated(points, {true, false}), (Lines{0, 1, 3}));
  // More of both: 3 (3000, 950) beats every other.
  EXPECT_EQ(non_dominated(points, {true, true}), (Lines{4}));
  // Less of both: 5 (900, 300) beats every other.
  EXPECT_EQ(non_dominated(points, {false, false}), (Lines{5}));
}

TEST(NonDominated, ThreeObjectivesEqualPointsAndEdges) {
  // A point best on one objective alone is on the front in three dimensions.
  const std::vector<std::vector<double>> points = {
      {10, 1, 1},  // 0: best first
      {1, 10, 1},  // 1: best second
      {1, 1, 10},  // 2: best third
      {5, 5, 5},   // 3: nowhere best, but dominated by none
      {4, 4, 4},   // 4: dominated by 3
      {5, 5, 5},   // 5: equal to 3: kept too
  };
  EXPECT_EQ(non_dominated(points, {true, true, true}), (Lines{0, 1, 2, 3, 5}));
  EXPECT_EQ(non_dominated({}, {true, true}), Lines{});
  EXPECT_EQ(non_dominated({{1, 2}}, {true, false}), Lines{0});
}

TEST(StudyFront, OnlyOkRowsWithEveryValueAndTheTablesRows) {
  std::vector<TrialRecord> trials = {
      mo_record(0, TrialStatus::kOk, 1000, 300),
      mo_record(1, TrialStatus::kSloViolated, 5000, 100),  // better on both, but missed an SLO
      mo_record(2, TrialStatus::kOk, 2000, 500),
      mo_record(3, TrialStatus::kOk, 1500, 600),           // dominated by 2
      mo_record(4, TrialStatus::kOk, 9000, std::nullopt),  // no ttft: not comparable
      mo_record(5, TrialStatus::kStartFailed, std::nullopt, std::nullopt),
      mo_record(6, TrialStatus::kInterrupted, 9000, 50),
      mo_record(6, TrialStatus::kOk, 2500, 800),  // trial 6's rerun replaces its interrupted line
      mo_record(7, TrialStatus::kOk, 2600, 50),   // dominated by nothing ...
  };
  trials.push_back(mo_record(7, TrialStatus::kOk, 9999, 1));  // ... and this is its rerun,
  trials.back().confirm = true;                               // --confirm's: no row
  const std::vector<StudyObjective> objectives = kThroughputAndTtft;
  // 7 (2600, 50) dominates 0, 2 and 6: it alone is left.
  EXPECT_EQ(study_front(trials, objectives), Lines{8});
  trials[8] = mo_record(7, TrialStatus::kOk, 1900, 400);
  EXPECT_EQ(study_front(trials, objectives), (Lines{0, 2, 7, 8}));
  // No ok row with every value: no front.
  EXPECT_EQ(study_front({trials[1], trials[4], trials[5]}, objectives), Lines{});
}

TEST(StudyFront, ObjectiveValuesReadTheMetricsByName) {
  const TrialRecord record = mo_record(0, TrialStatus::kOk, 1000, std::nan(""));
  const std::vector<std::optional<double>> values = objective_values(record, kThroughputAndTtft);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0], 1000);
  EXPECT_FALSE(values[1]) << "a non-finite value is none";
}

TEST(MultiObjectiveOutcome, AValuePerObjectiveOrInfeasible) {
  const SamplerOutcome ok =
      multi_objective_outcome(mo_record(0, TrialStatus::kOk, 1000, 300), kThroughputAndTtft);
  EXPECT_TRUE(ok.feasible);
  EXPECT_EQ(ok.values, (std::vector<double>{1000, 300}));
  // An SLO violation is infeasible, with its values.
  TrialRecord violated = mo_record(1, TrialStatus::kSloViolated, 2000, 900);
  violated.reason = "--slo 'ttft.p99<=500ms'";
  const SamplerOutcome slo = multi_objective_outcome(violated, kThroughputAndTtft);
  EXPECT_FALSE(slo.feasible);
  EXPECT_EQ(slo.values, (std::vector<double>{2000, 900}));
  EXPECT_EQ(slo.reason, "slo_violated: --slo 'ttft.p99<=500ms'");
  // A value missing: no values (the bridge tells the worst so far), and not feasible.
  const SamplerOutcome missing = multi_objective_outcome(
      mo_record(2, TrialStatus::kOk, 1000, std::nullopt), kThroughputAndTtft);
  EXPECT_FALSE(missing.feasible);
  EXPECT_TRUE(missing.values.empty());
  EXPECT_EQ(missing.reason, "no value of every --objective");
  const SamplerOutcome failed = multi_objective_outcome(
      mo_record(3, TrialStatus::kStartFailed, std::nullopt, std::nullopt), kThroughputAndTtft);
  EXPECT_FALSE(failed.feasible);
  EXPECT_TRUE(failed.values.empty());
}

}  // namespace
}  // namespace llmperf

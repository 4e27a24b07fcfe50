// A study with several --objective (issue 39, item 1: nsga2:N): there is no single best, and the
// study's answer is the Pareto front of its feasible trials over those objectives. Each trial
// keeps the value of every objective in its metrics under the objective's name (the first one is
// also its `objective`), all from the one run that stands for the trial (with --num-runs, the
// median repeat by the first objective): the front compares those point values, not their
// 95 % intervals. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "study/sampler_space.h"
#include "study/trial.h"

namespace llmperf {

// One objective of a study, as its tables and the sampler see it.
struct StudyObjective {
  std::string name;  // the metric key: "output_throughput", "ttft.p99", "cost_per_mtok"
  std::string unit;  // "tok/s", "ms"
  bool maximize = true;
  bool operator==(const StudyObjective&) const = default;
};

// The value of each objective in `record` (its metrics under the objective's name), in order;
// none where the record has no finite value.
std::vector<std::optional<double>> objective_values(const TrialRecord& record,
                                                    const std::vector<StudyObjective>& objectives);

// The indices of the points that no other point dominates (at least as good on every objective
// and better on one), ascending; equal points are all kept. `maximize[k]`: whether more is better
// on objective k; every point has one value per objective. O(n^2 k), for a study's few hundred
// trials.
std::vector<size_t> non_dominated(const std::vector<std::vector<double>>& points,
                                  const std::vector<bool>& maximize);

// The study's answer: the Pareto front over `objectives` of the table's rows (study_row_lines)
// that ended ok (benchmarked and met every --slo) and have a value of every objective. Returns
// their positions in `trials` (ledger lines), by trial index.
std::vector<size_t> study_front(const std::vector<TrialRecord>& trials,
                                const std::vector<StudyObjective>& objectives);

// What a finished trial tells a multi-objective sampler: sampler_outcome's, with the value of
// every objective (none when one is missing; a feasible trial without them is told infeasible).
SamplerOutcome multi_objective_outcome(const TrialRecord& record,
                                       const std::vector<StudyObjective>& objectives);

}  // namespace llmperf

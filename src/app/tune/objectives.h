// Several --objective at once (issue 39, item 1: nsga2:N): each parsed, checked against what else
// the study asks before anything starts, and the value of each recorded in a trial's metrics
// (study/multi_objective.h reads them back for the Pareto front and the sampler).
#pragma once

#include <vector>

#include "app/tune/study.h"
#include "study/multi_objective.h"
#include "study/space.h"
#include "study/study_spec.h"
#include "study/trial.h"

namespace llmperf {

struct RunResult;

// Every --objective of `spec`, in order (parse_objective each). Throws std::invalid_argument
// naming --objective when two name the same figure.
std::vector<Objective> parse_objectives(const StudySpec& spec);

// With several objectives, throws std::invalid_argument for what cannot go with them: cmaes:N
// (Optuna 3.1's CMA-ES optimises one objective), halving (it ranks by one objective to promote),
// --search (each trial's objective is then its search's answer), and --confirm (it confirms a
// single best). Nothing with one objective.
void check_several_objectives(const StudySpec& spec, const Strategy& strategy, const Config& base);

// The objectives as study.json and the sampler see them; empty with one objective (the study's
// files are then what they were before several were possible).
std::vector<StudyObjective> study_objectives(const std::vector<Objective>& objectives);

// Records in `record.metrics` the value of each objective (by its name) in `run`, the run that
// stands for the trial; nothing with one objective.
void record_objective_values(TrialRecord& record, const RunResult& run,
                             const std::vector<Objective>& objectives, const StudySpec& spec);

}  // namespace llmperf

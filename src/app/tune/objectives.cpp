// Several --objective (objectives.h).
#include "app/tune/objectives.h"

#include <stdexcept>

#include <fmt/format.h>

#include "app/benchmark.h"
#include "verdict/slo.h"

namespace llmperf {

std::vector<Objective> parse_objectives(const StudySpec& spec) {
  std::vector<Objective> objectives;
  for (const std::string& text : spec_objectives(spec)) {
    Objective objective = parse_objective(text);
    for (const Objective& before : objectives) {
      if (before.name() == objective.name()) {
        throw std::invalid_argument(
            fmt::format("--objective {} is given twice: each objective once", objective.name()));
      }
    }
    objectives.push_back(std::move(objective));
  }
  return objectives;
}

void check_several_objectives(const StudySpec& spec, const Strategy& strategy, const Config& base) {
  if (spec.more_objectives.empty()) return;
  const size_t count = spec.more_objectives.size() + 1;
  if (strategy.kind == StrategyKind::kCmaes) {
    throw std::invalid_argument(fmt::format(
        "--strategy cmaes: CMA-ES optimises one objective (Optuna 3.1), not {}; use nsga2:N or "
        "tpe:N for several --objective",
        count));
  }
  if (strategy.kind == StrategyKind::kHalving) {
    throw std::invalid_argument(fmt::format(
        "--strategy halving: successive halving promotes by one objective, and {} --objective "
        "give no single order; use grid, random:N, nsga2:N or tpe:N, or give one --objective",
        count));
  }
  if (!base.verdicts.search.empty()) {
    throw std::invalid_argument(fmt::format(
        "--search {}: each trial's objective is its search's answer, so give no --objective "
        "({} given)",
        base.verdicts.search, count));
  }
  if (spec.confirm) {
    throw std::invalid_argument(fmt::format(
        "--confirm reruns a single best, and with {} --objective the answer is a Pareto front",
        count));
  }
}

std::vector<StudyObjective> study_objectives(const std::vector<Objective>& objectives) {
  std::vector<StudyObjective> out;
  if (objectives.size() < 2) return out;
  for (const Objective& objective : objectives) {
    out.push_back({objective.name(), objective.unit(), objective.maximize});
  }
  return out;
}

void record_objective_values(TrialRecord& record, const RunResult& run,
                             const std::vector<Objective>& objectives, const StudySpec& spec) {
  if (objectives.size() < 2 || run.summary.succeeded <= 0) return;
  for (const Objective& objective : objectives) {
    const std::optional<double> value =
        objective_value(objective, metric_value(objective.metric, run.summary), record.gpus, spec);
    if (value) record.metrics[objective.name()] = *value;
  }
}

}  // namespace llmperf

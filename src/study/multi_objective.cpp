// Several objectives (multi_objective.h): the values of a trial, the non-dominated trials and
// what the sampler is told.
#include "study/multi_objective.h"

#include <cmath>

#include "study/best.h"

namespace llmperf {

std::vector<std::optional<double>> objective_values(const TrialRecord& record,
                                                    const std::vector<StudyObjective>& objectives) {
  std::vector<std::optional<double>> values;
  for (const StudyObjective& objective : objectives) {
    const auto found = record.metrics.find(objective.name);
    if (found != record.metrics.end() && std::isfinite(found->second)) {
      values.emplace_back(found->second);
    } else {
      values.emplace_back();
    }
  }
  return values;
}

std::vector<size_t> non_dominated(const std::vector<std::vector<double>>& points,
                                  const std::vector<bool>& maximize) {
  // a dominates b: a is nowhere worse and somewhere better.
  const auto dominates = [&](const std::vector<double>& a, const std::vector<double>& b) {
    bool better = false;
    for (size_t k = 0; k < maximize.size(); ++k) {
      const double gain = maximize[k] ? a[k] - b[k] : b[k] - a[k];
      if (gain < 0) return false;
      better = better || gain > 0;
    }
    return better;
  };
  std::vector<size_t> front;
  for (size_t i = 0; i < points.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < points.size() && !dominated; ++j) {
      dominated = j != i && dominates(points[j], points[i]);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

std::vector<size_t> study_front(const std::vector<TrialRecord>& trials,
                                const std::vector<StudyObjective>& objectives) {
  std::vector<size_t> lines;
  std::vector<std::vector<double>> points;
  for (const size_t line : study_row_lines(trials)) {
    if (trials[line].status != TrialStatus::kOk) continue;
    std::vector<double> point;
    for (const std::optional<double>& value : objective_values(trials[line], objectives)) {
      if (value) point.push_back(*value);
    }
    if (point.size() != objectives.size()) continue;  // a value is missing: not comparable
    lines.push_back(line);
    points.push_back(std::move(point));
  }
  std::vector<bool> maximize;
  for (const StudyObjective& objective : objectives) maximize.push_back(objective.maximize);
  std::vector<size_t> front;
  for (const size_t k : non_dominated(points, maximize)) front.push_back(lines[k]);
  return front;
}

SamplerOutcome multi_objective_outcome(const TrialRecord& record,
                                       const std::vector<StudyObjective>& objectives) {
  SamplerOutcome outcome = sampler_outcome(record);
  outcome.values.clear();
  for (const std::optional<double>& value : objective_values(record, objectives)) {
    if (!value) {
      outcome.values.clear();
      break;
    }
    outcome.values.push_back(*value);
  }
  if (outcome.feasible && outcome.values.empty()) {
    outcome.feasible = false;
    outcome.reason = "no value of every --objective";
  }
  return outcome;
}

}  // namespace llmperf

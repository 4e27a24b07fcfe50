// The learned searches' loop (--strategy tpe:N, cmaes:N, nsga2:N): ask the Optuna bridge for a
// configuration, run it as a trial, tell the sampler how it went, until the budget is spent
// (study/sampler_space.h's SearchBudget). On --resume the ledger's trials are retold first, so
// that the sampler continues from what it had learned.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "study/multi_objective.h"
#include "study/space.h"
#include "study/trial.h"

namespace llmperf {

class OptunaBridge;

struct LearnedSearchOptions {
  const std::vector<ParamSpace>* spaces = nullptr;
  Strategy strategy;     // kTpe, kCmaes or kNsga2, with its budget
  bool maximize = true;  // the objective's direction
  uint64_t seed = 0;     // the sampler's seed (--seed)
  std::string python;    // --python ("" = python3 on $PATH, then /usr/bin/python3)
  // Several --objective: each (a multi-objective Optuna study, told a value per objective);
  // empty: the one objective, `maximize`.
  std::vector<StudyObjective> objectives;
};

// Runs trial `index` with `params` (or returns its finished record from the ledger) and returns
// its record; the caller appends new records to the ledger and prints their lines.
using RunConfig = std::function<TrialRecord(size_t index, const Assignment& params)>;

// Checks the strategy against the space and starts the bridge; returns the lines that say which
// Python and sampler it uses. Then: every configuration of `previous` (the ledger's trials, by
// index: --resume) is run again through `run` (which keeps finished ones) and retold, and new
// ones are asked until the budget is spent, the study is interrupted, or the sampler offers
// only configurations it has had (100 asks in a row). Returns every trial's record, in order.
// Throws std::invalid_argument when no Python has Optuna or the space does not suit the sampler.
class LearnedSearch {
 public:
  explicit LearnedSearch(const LearnedSearchOptions& options);
  ~LearnedSearch();
  LearnedSearch(const LearnedSearch&) = delete;
  LearnedSearch& operator=(const LearnedSearch&) = delete;

  std::string describe() const;  // which Python, Optuna, sampler, budget and encoding
  std::vector<TrialRecord> run(const std::vector<TrialRecord>& previous, const RunConfig& run);

 private:
  SamplerOutcome outcome_of(const TrialRecord& record) const;  // told for one objective or each

  LearnedSearchOptions options_;
  std::unique_ptr<OptunaBridge> bridge_;
};

}  // namespace llmperf

// The best trial of a study: the one rule that `llmperf tune`'s exit code, its closing text,
// study_summary.json and study.html all follow, and why a study has none. A study's table shows
// one row per configuration (its ledger line at the highest rung it reached); the best is the
// row with status ok and the best objective at the deepest rung that has one, so that with
// successive halving a short run never beats the full benchmark, and a study without an ok row at
// its last rung still names its best configuration, measured short. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "study/trial.h"

namespace llmperf {

// The index in `trials` of the best objective among the trials with status ok and a finite
// objective (slo_violated trials are not eligible); the lowest index among equals. None when no
// trial is eligible. `maximize`: whether more is better.
std::optional<size_t> best_trial(const std::vector<TrialRecord>& trials, bool maximize);

// The rows of a study's table: for each trial index, ascending, the position in `trials` (the
// ledger's lines, in ledger order) of its line at the highest rung it reached, the last line among
// equals (so a resumed trial's rerun replaces its interrupted line).
std::vector<size_t> study_row_lines(const std::vector<TrialRecord>& trials);

// Why a study has no best trial.
enum class NoBestReason {
  kNone,             // it has one
  kNoTrials,         // no trial has finished yet
  kNoObjective,      // some row ended ok (met every --slo) but none has a value of the objective
  kNoneMetSlo,       // rows were benchmarked, but every one missed some --slo
  kNoneBenchmarked,  // no row finished its benchmark (start failures, exclusions, ...)
};

// The study's best trial, or why there is none.
struct StudyBest {
  std::optional<size_t> trial;  // the best row's line: an index into the ledger's trials
  int rung = -1;                // the rung the best was measured at (-1 without a best)
  // The rung of the full benchmark: the plan's last rung, or without a plan (grid, random, a
  // study.json without rungs) the deepest rung any row reached. The best was measured short of the
  // full benchmark when its rung is lower.
  int full_rung = 0;
  int deepest_rung = -1;  // the deepest rung any row reached (-1 without rows)
  NoBestReason why_none = NoBestReason::kNone;
  // kNoneMetSlo: the slo_violated row with the best finite objective (an index into the ledger's
  // trials; the lowest trial index among equals), if any has one.
  std::optional<size_t> closest;

  // The best was measured at a rung short of the full benchmark (successive halving only).
  bool short_of_full() const;
};

// The best of a study's ledger lines (`trials`, in ledger order). `planned_rungs`: successive
// halving's rungs in the plan (0 for other strategies); `maximize`: whether more of the objective
// is better. Among the rows (study_row_lines), from the deepest rung up to rung 0, the first rung
// with a best_trial gives the best; ties go to the lower trial index.
StudyBest study_best(const std::vector<TrialRecord>& trials, size_t planned_rungs, bool maximize);

}  // namespace llmperf

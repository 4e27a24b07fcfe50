// The best trial of a study: the one rule that `llmperf tune`'s exit code, its closing text,
// study_summary.json and study.html all follow, and why a study has none. A study's table shows
// one row per configuration (its ledger line at the highest rung it reached); the best is the
// row with status ok and the best objective at the deepest rung that has one, so that with
// successive halving a short run never beats the full benchmark, and a study without an ok row at
// its last rung still names its best configuration, measured short.
//
// A winner only when it is one: the row with the best objective is the *leader*. With --num-runs
// K >= 2 every row has a 95 % confidence interval of its objective (TrialRecord::ci95_low/high),
// and the rows of the leader's rung whose interval overlaps the leader's are *tied within noise*
// with it. Without repeats, --confirm reruns the leader and the runner-up once (ledger lines with
// `confirm`); when the runner-up's rerun beat the leader's, their order did not hold and the two
// are tied. Among tied rows the tie-break (--prefer, prefer.h; by default fewer GPUs, then less GPU
// memory) names the best, then the better objective, then the lower trial index. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "study/prefer.h"
#include "study/trial.h"

namespace llmperf {

// The index in `trials` of the best objective among the trials with status ok and a finite
// objective (slo_violated trials are not eligible); the lowest index among equals. None when no
// trial is eligible. `maximize`: whether more is better.
std::optional<size_t> best_trial(const std::vector<TrialRecord>& trials, bool maximize);

// The rows of a study's table: for each trial index, ascending, the position in `trials` (the
// ledger's lines, in ledger order) of its line at the highest rung it reached, the last line among
// equals (so a resumed trial's rerun replaces its interrupted line). --confirm's reruns are no
// rows.
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

  // The row with the best objective; `trial` differs from it only when the tie-break chose
  // another row of `tied`.
  std::optional<size_t> leader;
  // The rows tied within noise with the leader (their lines), the best first, in the tie-break's
  // order; empty when nothing is tied with the leader.
  std::vector<size_t> tied;
  // What tied them: "repeats" (overlapping 95 % intervals) or "confirm" (the order did not hold);
  // "" when nothing is tied.
  std::string tied_by;
  std::string tie_break;   // the tie-break applied (Preference::text()), with `tied` only
  std::string decided_by;  // what named the best among the tied: a --prefer key, "objective" or
                           // "trial" (the lower index); with `tied` only
  // --confirm without repeats: the runner-up's row line and each one's rerun line, and whether the
  // leader's rerun was at least as good as the runner-up's.
  struct Confirmation {
    size_t runner_up = 0;
    size_t leader_rerun = 0;
    size_t runner_up_rerun = 0;
    bool held = true;
  };
  std::optional<Confirmation> confirmation;

  // The best was measured at a rung short of the full benchmark (successive halving only).
  bool short_of_full() const;
};

// The leader's runner-up among the rows at the leader's rung (the next best objective of an ok
// row): the row --confirm runs again with the leader. Lines into `trials`; confirm lines are no
// rows.
std::optional<size_t> runner_up(const std::vector<TrialRecord>& trials, size_t leader, bool maximize);

// The best of a study's ledger lines (`trials`, in ledger order). `planned_rungs`: successive
// halving's rungs in the plan (0 for other strategies); `maximize`: whether more of the objective
// is better. Among the rows (study_row_lines), from the deepest rung up to rung 0, the first rung
// with a best_trial gives the leader; then the rule above names the best among its ties.
// `prefer`: the tie-break (parse_prefer("") by default).
StudyBest study_best(const std::vector<TrialRecord>& trials, size_t planned_rungs, bool maximize,
                     const Preference& prefer = parse_prefer(""));

}  // namespace llmperf

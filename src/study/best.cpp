// The best trial of a study and why there is none (best.h).
#include "study/best.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace llmperf {

std::optional<size_t> best_trial(const std::vector<TrialRecord>& trials, bool maximize) {
  std::optional<size_t> best;
  for (size_t i = 0; i < trials.size(); ++i) {
    const TrialRecord& trial = trials[i];
    if (trial.status != TrialStatus::kOk || !trial.objective || !std::isfinite(*trial.objective)) {
      continue;
    }
    const double value = *trial.objective;
    const double current = best ? *trials[*best].objective : 0;
    if (!best || (maximize ? value > current : value < current)) best = i;
  }
  return best;
}

std::vector<size_t> study_row_lines(const std::vector<TrialRecord>& trials) {
  std::map<int64_t, size_t> shown;  // trial index -> the position of its row's line
  for (size_t i = 0; i < trials.size(); ++i) {
    auto [it, fresh] = shown.emplace(trials[i].trial, i);
    if (!fresh && trials[i].rung >= trials[it->second].rung) it->second = i;
  }
  std::vector<size_t> lines;
  lines.reserve(shown.size());
  for (const auto& [trial, line] : shown) lines.push_back(line);
  return lines;
}

bool StudyBest::short_of_full() const { return trial.has_value() && rung < full_rung; }

namespace {

// Why no row qualifies: `rows` are the rows' lines, and none has an ok status with a finite
// objective at any rung.
void explain_no_best(const std::vector<TrialRecord>& trials, const std::vector<size_t>& rows,
                     bool maximize, StudyBest& out) {
  if (rows.empty()) {
    out.why_none = NoBestReason::kNoTrials;
    return;
  }
  size_t violated = 0;
  bool ok_without_objective = false;
  for (size_t line : rows) {
    const TrialRecord& row = trials[line];
    if (row.status == TrialStatus::kOk) ok_without_objective = true;  // no value, else a best
    if (row.status != TrialStatus::kSloViolated) continue;
    ++violated;
    if (!row.objective || !std::isfinite(*row.objective)) continue;
    const double current = out.closest ? *trials[*out.closest].objective : 0;
    if (!out.closest || (maximize ? *row.objective > current : *row.objective < current)) {
      out.closest = line;
    }
  }
  if (ok_without_objective) {
    out.why_none = NoBestReason::kNoObjective;
    out.closest.reset();
  } else if (violated > 0) {
    out.why_none = NoBestReason::kNoneMetSlo;
  } else {
    out.why_none = NoBestReason::kNoneBenchmarked;
  }
}

}  // namespace

StudyBest study_best(const std::vector<TrialRecord>& trials, size_t planned_rungs, bool maximize) {
  StudyBest out;
  const std::vector<size_t> rows = study_row_lines(trials);
  for (size_t line : rows) out.deepest_rung = std::max(out.deepest_rung, trials[line].rung);
  out.full_rung = planned_rungs == 0 ? out.deepest_rung : static_cast<int>(planned_rungs) - 1;
  for (int rung = out.deepest_rung; rung >= 0; --rung) {
    std::vector<TrialRecord> at_rung;
    std::vector<size_t> lines;
    for (size_t line : rows) {
      if (trials[line].rung != rung) continue;
      at_rung.push_back(trials[line]);
      lines.push_back(line);
    }
    if (const std::optional<size_t> best = best_trial(at_rung, maximize)) {
      out.trial = lines[*best];
      out.rung = rung;
      return out;
    }
  }
  explain_no_best(trials, rows, maximize, out);
  return out;
}

}  // namespace llmperf

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
    if (trials[i].confirm) continue;  // a --confirm rerun, not a row
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

bool eligible(const TrialRecord& row) {
  return row.status == TrialStatus::kOk && row.objective && std::isfinite(*row.objective);
}

bool better(double a, double b, bool maximize) { return maximize ? a > b : a < b; }

// A row's 95 % interval of its objective, when its repeats gave one.
struct Interval {
  double low = 0;
  double high = 0;
};
std::optional<Interval> interval_of(const TrialRecord& row) {
  if (!row.ci95_low || !row.ci95_high || !std::isfinite(*row.ci95_low) ||
      !std::isfinite(*row.ci95_high)) {
    return std::nullopt;
  }
  return Interval{*row.ci95_low, *row.ci95_high};
}

// The last --confirm rerun of `row` (same trial and rung) with a finite objective.
std::optional<size_t> rerun_of(const std::vector<TrialRecord>& trials, const TrialRecord& row) {
  std::optional<size_t> found;
  for (size_t i = 0; i < trials.size(); ++i) {
    const TrialRecord& line = trials[i];
    if (line.confirm && line.trial == row.trial && line.rung == row.rung && line.objective &&
        std::isfinite(*line.objective)) {
      found = i;
    }
  }
  return found;
}

// The tie-break's order: the preference's keys, then the better objective, then the lower trial
// index. Returns what separates `a` from `b`: < 0 when `a` comes first, and in `*by` the key that
// decided.
int tie_order(const TrialRecord& a, const TrialRecord& b, const Preference& prefer, bool maximize,
              std::string* by) {
  for (const PreferKey& key : prefer.keys) {
    if (const int order = prefer_compare(a, b, key); order != 0) {
      if (by != nullptr) *by = key.name;
      return order;
    }
  }
  if (*a.objective != *b.objective) {
    if (by != nullptr) *by = "objective";
    return better(*a.objective, *b.objective, maximize) ? -1 : 1;
  }
  if (by != nullptr) *by = "trial";
  return a.trial < b.trial ? -1 : a.trial > b.trial ? 1 : 0;
}

// The rows tied with the leader (out.leader) among `rung_rows` (row lines at its rung), by
// overlapping intervals or by a --confirm whose order did not hold; then the tie-break names the
// best of them.
void break_ties(const std::vector<TrialRecord>& trials, const std::vector<size_t>& rung_rows,
                bool maximize, const Preference& prefer, StudyBest& out) {
  const size_t leader = *out.leader;
  std::vector<size_t> tied;
  if (const std::optional<Interval> lead = interval_of(trials[leader])) {
    for (size_t line : rung_rows) {
      if (line == leader || !eligible(trials[line])) continue;
      const std::optional<Interval> other = interval_of(trials[line]);
      if (other && other->low <= lead->high && lead->low <= other->high) tied.push_back(line);
    }
    if (!tied.empty()) out.tied_by = "repeats";
  } else if (const std::optional<size_t> second = runner_up(trials, leader, maximize)) {
    const std::optional<size_t> a = rerun_of(trials, trials[leader]);
    const std::optional<size_t> b = rerun_of(trials, trials[*second]);
    if (a && b) {
      const bool held = !better(*trials[*b].objective, *trials[*a].objective, maximize);
      out.confirmation = StudyBest::Confirmation{*second, *a, *b, held};
      if (!held) {
        tied.push_back(*second);
        out.tied_by = "confirm";
      }
    }
  }
  if (tied.empty()) return;
  tied.push_back(leader);
  std::sort(tied.begin(), tied.end(), [&](size_t a, size_t b) {
    return tie_order(trials[a], trials[b], prefer, maximize, nullptr) < 0;
  });
  out.tied = tied;
  out.trial = tied.front();
  out.tie_break = prefer.text();
  tie_order(trials[tied[0]], trials[tied[1]], prefer, maximize, &out.decided_by);
}

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

std::optional<size_t> runner_up(const std::vector<TrialRecord>& trials, size_t leader,
                                bool maximize) {
  std::optional<size_t> second;
  for (size_t line : study_row_lines(trials)) {
    const TrialRecord& row = trials[line];
    if (line == leader || row.rung != trials[leader].rung || !eligible(row)) continue;
    if (!second || better(*row.objective, *trials[*second].objective, maximize)) second = line;
  }
  return second;
}

StudyBest study_best(const std::vector<TrialRecord>& trials, size_t planned_rungs, bool maximize,
                     const Preference& prefer) {
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
      out.leader = out.trial;
      out.rung = rung;
      break_ties(trials, lines, maximize, prefer, out);
      return out;
    }
  }
  explain_no_best(trials, rows, maximize, out);
  return out;
}

}  // namespace llmperf

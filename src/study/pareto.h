// Choosing among a study's trials: the Pareto front of two metrics (tokens/s per user against
// tokens/s in total, as vLLM's plot_pareto; throughput against p99 latency) and the best trial by
// the objective. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "study/trial.h"

namespace llmperf {

// One configuration's two metrics.
struct ParetoPoint {
  double x = 0;
  double y = 0;
};

// The indices of the points no other point dominates (at least as good on both axes and better on
// one), sorted by x, then by index; equal points are all kept. Points with a non-finite
// coordinate are left out. `maximize_x`/`maximize_y`: whether more is better on that axis.
std::vector<size_t> pareto_front(const std::vector<ParetoPoint>& points, bool maximize_x,
                                 bool maximize_y);

// The index in `trials` of the best objective among the trials with status ok and an objective
// (slo_violated trials are not eligible); the lowest index among equals. None when no trial is
// eligible. `maximize`: whether more is better.
std::optional<size_t> best_trial(const std::vector<TrialRecord>& trials, bool maximize);

}  // namespace llmperf

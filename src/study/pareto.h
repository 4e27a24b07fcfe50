// The Pareto front of two metrics among a study's trials (tokens/s per user against tokens/s in
// total, as vLLM's plot_pareto; throughput against p99 latency). The best trial by the objective
// is best.h's. Pure.
#pragma once

#include <cstddef>
#include <vector>

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

}  // namespace llmperf

// Arrival schedules (see schedule.h). Gamma inter-arrival gaps with shape k = burstiness and scale
// 1/(rate*k) have mean 1/rate and variance 1/(k*rate^2), as in vLLM's benchmark_serving.
#include "engine/schedule.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace llmperf {

Arrival parse_arrival(const std::string& name) {
  if (name == "constant") return Arrival::kConstant;
  if (name == "poisson") return Arrival::kPoisson;
  if (name == "gamma") return Arrival::kGamma;
  throw std::invalid_argument("--arrival must be constant, poisson or gamma, not '" + name + "'");
}

const char* arrival_name(Arrival arrival) {
  switch (arrival) {
    case Arrival::kConstant:
      return "constant";
    case Arrival::kPoisson:
      return "poisson";
    case Arrival::kGamma:
      return "gamma";
  }
  return "?";
}

std::vector<int64_t> make_schedule(const ScheduleSpec& spec, int64_t count) {
  std::vector<int64_t> offsets;
  if (count <= 0) return offsets;
  offsets.reserve(static_cast<size_t>(count));
  const auto rate_of = [&](int64_t i) {
    return spec.ramp.on() ? spec.ramp.rate_at(i, count) : spec.rate;
  };
  if (spec.arrival == Arrival::kConstant && !spec.ramp.on()) {
    // Each offset is computed from its index, so rounding never accumulates.
    const double mean_gap_s = 1.0 / spec.rate;
    for (int64_t i = 0; i < count; ++i) {
      offsets.push_back(std::llround(static_cast<double>(i) * mean_gap_s * 1e9));
    }
    return offsets;
  }
  const double shape = spec.arrival == Arrival::kPoisson ? 1.0 : spec.burstiness;
  std::mt19937_64 rng(spec.seed);
  double t_s = 0;
  offsets.push_back(0);
  for (int64_t i = 1; i < count; ++i) {
    const double mean_gap_s = 1.0 / rate_of(i);
    if (spec.arrival == Arrival::kConstant) {
      t_s += mean_gap_s;
    } else {
      std::gamma_distribution<double> gap(shape, mean_gap_s / shape);
      t_s += gap(rng);
    }
    offsets.push_back(std::llround(t_s * 1e9));
  }
  if (spec.exact_mean && !spec.ramp.on() && offsets.back() > 0) {
    const double scale = static_cast<double>(count - 1) / spec.rate * 1e9 /
                         static_cast<double>(offsets.back());
    for (int64_t& offset : offsets) {
      offset = std::llround(static_cast<double>(offset) * scale);
    }
  }
  return offsets;
}

}  // namespace llmperf

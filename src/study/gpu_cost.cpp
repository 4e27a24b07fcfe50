// Per GPU and per dollar (gpu_cost.h).
#include "study/gpu_cost.h"

#include <cmath>

namespace llmperf {

std::optional<double> throughput_per_gpu(double output_tps, int gpus) {
  if (gpus <= 0 || !std::isfinite(output_tps)) return std::nullopt;
  return output_tps / gpus;
}

std::optional<double> cost_per_mtok(double output_tps, int gpus, double gpu_hour_cost) {
  if (gpus <= 0 || !(output_tps > 0) || !std::isfinite(output_tps) || !(gpu_hour_cost > 0) ||
      !std::isfinite(gpu_hour_cost)) {
    return std::nullopt;
  }
  return gpu_hour_cost * gpus / 3600.0 / output_tps * 1e6;
}

}  // namespace llmperf

// Default request count of a calibration run (see calibration_plan.h).
#include "core/calibration_plan.h"

#include <algorithm>
#include <cmath>

namespace llmperf {

int64_t CalibrationPlan::requests() const {
  if (number > 0) return number;
  if (rate > 0) return std::max<int64_t>(50, std::llround(rate * kTargetSeconds));
  // Closed loop: each slot runs one request after another, each lasting TTFT + (L - 1) x ITL.
  const double request_s = std::max(
      1e-3, (ttft_ms + static_cast<double>(std::max<int64_t>(0, max_tokens - 1)) * itl_ms) / 1e3);
  const auto rounds = static_cast<int64_t>(std::ceil(kTargetSeconds / request_s));
  return std::max<int64_t>({200, int64_t{2} * parallel, rounds * parallel});
}

int64_t CalibrationPlan::warmup() const {
  if (rate > 0) return std::clamp<int64_t>(std::llround(std::ceil(rate)), 1, parallel);
  return parallel;
}

}  // namespace llmperf

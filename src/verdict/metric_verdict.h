// The verdict on one metric of a run compared with what came before it: against one stored run
// (--baseline summary.json, verdict/baseline.h, and --num-runs' intervals, verdict/repeats.h) or
// against the noise band of a history (--baseline db:FILE, verdict/history_baseline.h).
#pragma once

namespace llmperf {

enum class MetricVerdict {
  kOk,          // within the tolerance, or inside the noise band
  kRegression,  // worse by more than the tolerance, or outside the band on the worse side
  kImproved,    // better by more than the tolerance, or outside the band on the better side
  kNotJudged,   // missing on either side, or too few runs of history
};

}  // namespace llmperf

// `llmperf calibrate`: its flags (CLI11) and the benchmark Config its run uses. The run itself
// (starting llmperf-mock, pinning, comparing) is app/calibrate/calibrate.h.
#pragma once

#include <string>

#include "core/calibration_plan.h"
#include "core/command_outcome.h"
#include "core/config.h"

namespace llmperf {

struct CalibrateCli {
  bool proceed = false;       // true: run `plan`
  CommandOutcome outcome;     // when !proceed: help (exit 0) or a usage error (exit 2)
  CalibrationPlan plan;
};

// Parses `llmperf calibrate ...` (argv[1] is "calibrate").
CalibrateCli parse_calibrate(int argc, const char* const* argv);

// The validated benchmark config of a calibration run of `plan` against the chat completions
// endpoint `url`, writing into `outputs_dir`. Throws std::invalid_argument with the errors.
Config calibration_config(const CalibrationPlan& plan, const std::string& url,
                          const std::string& outputs_dir);

}  // namespace llmperf

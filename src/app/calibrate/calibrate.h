// `llmperf calibrate`: runs a planned load against a local llmperf-mock with known timings, using
// the benchmark's own runner, and reports how far llmperf's stamps are from the mock's record of
// its writes (metrics/calibration.h): the client's error floor on this machine.
#pragma once

#include <functional>
#include <string>

#include "core/calibration_plan.h"
#include "core/config.h"

namespace llmperf {

// The benchmark config of the calibration run against the mock's chat URL, writing into
// outputs_dir (cli/calibrate.h's calibration_config; throws std::invalid_argument).
using CalibrationConfigFactory =
    std::function<Config(const std::string& url, const std::string& outputs_dir)>;

// Runs the calibration; prints the text block to stdout and writes calibration.json. Returns the
// exit code: 0 faithful, 3 not faithful, 1 the mock could not start or the run failed, 2 a bad
// plan, 130 interrupted.
int run_calibration(const CalibrationPlan& plan, const CalibrationConfigFactory& make_config);

}  // namespace llmperf

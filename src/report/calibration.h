// `llmperf calibrate`'s outputs: the short text block for stdout and calibration.json
// (schema "llmperf.calibration/1"). Presentation only: the numbers come from
// metrics/calibration.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/calibration_plan.h"
#include "metrics/calibration.h"

namespace llmperf {

// Which CPUs the simulated server and the client ran on.
struct CalibrationPinning {
  bool pinned = false;           // false: both shared whatever the scheduler gave them
  int mock_cpu = -1;             // the CPU llmperf-mock was pinned to (-1: not pinned)
  std::vector<int> client_cpus;  // the CPUs llmperf was pinned to (all usable ones when not)
};

struct CalibrationReport {
  CalibrationPlan plan;        // the planned load and the mock's timings
  int64_t requests = 0;        // requests sent (plan.requests())
  int64_t succeeded = 0;       // of them, successful
  std::string threads_reason;  // how --threads chose the workers
  std::string mock_path;       // the llmperf-mock binary that was run
  std::string run_dir;         // the run's normal outputs
  CalibrationPinning pinning;
  CalibrationErrors errors;
  ClientLoad load;
  CalibrationVerdict verdict;
};

std::string render_calibration_text(const CalibrationReport& report);
std::string calibration_to_json(const CalibrationReport& report);  // pretty-printed, newline-ended

}  // namespace llmperf

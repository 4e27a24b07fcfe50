// What `llmperf calibrate` is asked to measure: the planned load, and the timings the simulated
// server (llmperf-mock) is started with. Bound to flags by cli/calibrate.cpp, run by
// app/calibrate/calibrate.cpp.
#pragma once

#include <cstdint>
#include <string>

namespace llmperf {

struct CalibrationPlan {
  int parallel = 100;        // --parallel: concurrency (closed loop) or in-flight cap (open loop)
  double rate = -1;          // --rate: requests/s; -1: closed loop
  int threads = 0;           // --threads: worker threads; 0: auto (as the benchmark's --threads)
  int64_t max_tokens = 100;  // --max-tokens: output tokens per request (the mock's reply length)
  int64_t number = 0;        // -n: requests; 0: enough for about kTargetSeconds
  double ttft_ms = 100;      // --ttft-ms: the mock's delay before the first content chunk
  double itl_ms = 10;        // --itl-ms: the mock's gap between content chunks
  std::string mock_path;     // --mock: llmperf-mock binary; "": next to llmperf, else on PATH
  std::string outputs_dir;   // --outputs-dir: where the run and calibration.json go; "": temp dir

  static constexpr double kTargetSeconds = 10;  // default -n aims at a run this long

  // -n when given, else enough requests for about kTargetSeconds at the mock's timings (at least
  // 2 x parallel and 200 closed loop; at least 50 open loop).
  int64_t requests() const;
  // Warm-up requests sent first and left out of the comparison: they open the connections, whose
  // set-up a long run pays once (closed loop: one per slot; open loop: about a second's worth,
  // at most one per slot).
  int64_t warmup() const;
};

}  // namespace llmperf

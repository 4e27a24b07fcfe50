// The highest rate a server really sustains, found independently of llmperf's own verdicts: a
// sweep of --rate values whose runs are judged here, from requests.jsonl alone, on what a user of
// the server would see. `--search rate`'s answer is tested against it (issue 37).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "llmperf_run.h"

namespace llmperf::testing {

// One open-loop run judged from its requests.jsonl.
struct RateProbeCheck {
  double rate = 0;            // the --rate asked for
  double scheduled = 0;       // (planned sends - 1) / their span (req/s)
  double sustained = 0;       // (successful ends - 1) / their span (req/s)
  double ttft_p99_ms = 0;     // TTFT from the planned send, p99 (linear interpolation)
  int64_t ok = 0, total = 0;  // successful and all measured requests
  bool passed = false;        // every request ok, sustained >= 95 % of scheduled, TTFT in limit
  std::string describe() const;
};

// Judges the run in `run_dir` against `ttft_limit_ms` (TTFT p99 from the planned send).
RateProbeCheck check_rate_probe(const std::filesystem::path& run_dir, double ttft_limit_ms);

// The answer `--search rate` printed ("Highest rate (req/s) meeting every --slo: X"); -1 when it
// found none, NaN when the output has no answer.
double search_answer(const std::string& out);

// The highest of `rates` whose run passes, judged by check_rate_probe, from one llmperf sweep
// (`args` plus --rate RATES...); 0 when none passes. `table` receives a line per run.
double highest_sustained_rate(const std::vector<std::string>& args, const std::vector<double>& rates,
                              double ttft_limit_ms, std::string& table);

}  // namespace llmperf::testing

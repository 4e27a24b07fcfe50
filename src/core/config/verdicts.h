// The verdicts: what a run is judged by (--slo, --goodput, --baseline), the search for the highest
// load that passes (--search) and the rules that stop a run early.
// A section of core/config.h's Config (Config::verdicts); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llmperf {

struct VerdictConfig {
  std::vector<std::string> goodput;  // --goodput ttft:MS tpot:MS e2el:MS
  std::vector<std::string> slo;      // --slo EXPR, repeatable
  std::string baseline_path;         // --baseline PATH/summary.json
  std::string tolerance = "10%";     // --tolerance: allowed regression against the baseline
  // --baseline db:FILE (verdict/history_baseline.h): judged against the last --baseline-runs
  // matching runs of the history, with a noise band of --noise-k scaled MADs.
  int baseline_runs = 10;
  double noise_k = 3;
  // --baseline-ignore-tag KEY: tags that change on every run (a commit) that --baseline db: does
  // not match on
  std::vector<std::string> baseline_ignore_tags;

  // --- --search ---
  std::string search;                   // --search parallel | rate ("" = off)
  std::vector<double> search_range;     // --search-range LO HI
  bool search_doubling = false;         // double from LO, then bisect (EvalScope's --sla-auto-tune)
  double search_number_multiplier = 0;  // each probe's -n = its value x this (--sla-number-
                                        // multiplier); 0: -n as given
  // --rate-tolerance: a rate probe of --search fails when the server sustained less than the rate
  // asked by more than this many percent (the implicit SLO rate_sustained >= 100 - this).
  double rate_tolerance_pct = 5;
  // --search-precision: --search rate stops when the interval between the highest passing and the
  // lowest failing rate is within this many percent of the failing one.
  double search_precision_pct = 2;

  // --- early stops (docs/flags.md, "Early stops") ---
  double max_error_rate = -1;  // --max-error-rate: failed share of the last --error-window
                               // finished measured requests that stops a run (< 0: off)
  int64_t error_window = 100;  // --error-window: requests the error rate is taken over
  int64_t max_errors = 0;      // --max-errors: failed measured requests that stop a run (0: off)
  bool stop_on_saturation = false;  // --stop-on-saturation (open loop): the server cannot keep up
  double saturation_window_s = 2;   // --saturation-window: seconds per window of that test
  std::string on_stop = "next";     // --on-stop: after a stopped run, next (go on) | abort
};

}  // namespace llmperf

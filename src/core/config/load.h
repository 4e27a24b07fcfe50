// The load: the runs of a sweep (concurrency, requests, rates), the open loop's arrivals, warm-up,
// duration, ramp-up and cancels, the seed, repeats and the shard of a benchmark split across
// processes.
// A section of core/config.h's Config (Config::load); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/run_types.h"

namespace llmperf {

struct LoadConfig {
  std::vector<int> parallel = {1};       // --parallel: concurrency per run (a list sweeps)
  std::vector<int64_t> number = {1000};  // -n/--number: requests per run (paired with parallel)
  int threads = 0;  // --threads: worker threads, each with a curl multi; 0: auto (per run)
  double sleep_interval_s = 5.0;  // --sleep-interval: pause between runs of a sweep
  uint64_t seed = 0;              // --seed
  int num_runs = 1;               // --num-runs: repeats of each run, for confidence intervals

  // --- open loop, warm-up and duration ---
  std::vector<double> rate;  // --rate: requests/s per run (a list sweeps); empty: closed loop
  std::string arrival = "poisson";   // --arrival: constant | poisson | gamma
  double burstiness = 1.0;           // --burstiness: gamma shape (1 = Poisson, as in vLLM)
  double duration_s = 0;             // --duration: stop dispatching after this long (0: no limit)
  double warmup_num = 0;             // --warmup-num: a count, or a fraction of -n when < 1
  bool open_loop_unbounded = false;  // --open-loop: no cap on requests in flight (EvalScope)
  bool default_cap = false;          // no cap the user chose: --rate without --parallel (the cap
                                     // is kOpenLoopDefaultCap), or everything at once
  RampUp ramp_up;                    // --ramp-up-*: the rate moves across each run
  // --cancel-rate P: this fraction of the measured requests is closed on purpose, at the moment
  // --cancel-after says (chosen reproducibly from --seed); --include-cancelled keeps them in the
  // latency statistics.
  double cancel_rate = 0;
  std::string cancel_after = "ttft";  // --cancel-after SECONDS | ttft | N-tokens
  bool include_cancelled = false;     // --include-cancelled

  // --- sharded runs: one benchmark split across processes (--shard, or the launcher's env) ---
  int shard = 0;                  // this process's index, 0-based
  int shards = 1;                 // processes in the benchmark (1: not sharded)
  std::string shard_source;       // where shard/shards came from: "--shard", "Slurm (...)", ...
  int64_t start_at_unix_ns = -1;  // --start-at: wall-clock instant of the first send (-1: at once)

  // Warm-up requests for a run of `number` measured requests (--warmup-num).
  int64_t warmup_count(int64_t number) const;
};

}  // namespace llmperf

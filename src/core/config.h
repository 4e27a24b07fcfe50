// The one validated configuration of an llmperf invocation: what the user asked for, in sections
// (core/config/*.h; the small types they share in core/run_types.h). CLI11 binds flags to their
// fields (cli/flags.cpp), resolve_config completes what the flags leave implicit (the
// API from the URL, which flags were given) and validate_config checks it; nothing else sees argv.
// run_benchmark takes a Config as it is: what the server and the workload settle before the first
// run (the model without --model, a trace's -n and rate) goes into plan/run_plan.h's
// BenchmarkPlan. (`llmperf tune` and `llmperf calibrate` write a Config of their own for each run
// they ask for.) Defaults live in the sections and follow EvalScope's `perf` defaults.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/config/load.h"
#include "core/config/output.h"
#include "core/config/request_body.h"
#include "core/config/run_grid.h"
#include "core/config/server_view.h"
#include "core/config/target.h"
#include "core/config/verdicts.h"
#include "core/config/workload.h"
#include "core/run_types.h"

namespace llmperf {

// Config is made of sections, one struct each in core/config/, in the order the data flows: where
// the requests go, what they carry, how they are sent, how the run is judged, what is written and
// what the server's own APIs tell. A stage reads its section (or the narrower struct that plan/
// builds from the Config), never the whole Config.
struct Config {
  TargetConfig target;      // --url, --api, --model, TLS, HTTP/2, timeouts, --probe
  WorkloadConfig workload;  // --dataset and its kinds, synthetic lengths, conversations, trace
  RequestBodyConfig body;   // --stream, --max-tokens, sampling parameters, --extra-args
  LoadConfig load;          // --parallel, -n, --rate and the open loop, --seed, shards
  VerdictConfig verdicts;   // --slo, --goodput, --baseline, --search, early stops
  OutputConfig output;      // --outputs-dir, --name, --tag, summaries, --results-db, --junit
  ServerViewConfig server;  // --server-metrics, --metrics-url, --profile
};

// What the sections imply for the whole sweep, as free functions so that Config stays its
// sections (core/config/run_grid.h has the same over the sections alone).
// The flags plan_benchmark resolves, as the user gave them.
inline ResolvedFlags as_given(const Config& config) {
  return {config.target.model, config.load.number, config.load.rate};
}
// The runs of the sweep the flags describe, with `resolved`'s -n and --rate in place of their own.
inline std::vector<RunSpec> run_specs(const Config& config, const ResolvedFlags& resolved) {
  return run_specs(config.load, config.workload, resolved);
}
inline std::vector<RunSpec> run_specs(const Config& config) {
  return run_specs(config, as_given(config));
}
// (parallel, number) pairs in run order: lists pair by position; a single -n applies to all.
inline std::vector<std::pair<int, int64_t>> runs(const Config& config) {
  std::vector<std::pair<int, int64_t>> result;
  for (const RunSpec& run : run_specs(config)) result.emplace_back(run.parallel, run.number);
  return result;
}
inline int64_t texts_per_request(const Config& config) {
  return texts_per_request(config.target.api_kind, config.workload);
}

}  // namespace llmperf

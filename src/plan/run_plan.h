// What a Config implies for a benchmark and each of its runs, worked out before the first run
// starts: what the server and the workload settle (the model, a trace's -n and rate), the runs of
// the sweep, what each stage that runs the benchmark takes of the Config (so that the app's
// Benchmark never sees it), and for each run its name and directory, how it is announced, what
// the engine is asked to do (concurrency, the shard's share, warm-up, the open-loop schedule), its
// worker threads, and how many requests it sends.
// Pure: no I/O, no clock (the app stage runs what is planned here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/load.h"
#include "core/run_types.h"
#include "core/workload_info.h"
#include "engine/engine.h"
#include "engine/worker_threads.h"
#include "metrics/metrics.h"
#include "plan/output_plan.h"
#include "plan/side_channels.h"
#include "plan/verdict_plan.h"
#include "report/report.h"
#include "workload/replay/session_script.h"

namespace llmperf {

// core/config.h: what the user asked for. Only the functions that plan from it take it, so that
// what runs a plan (the app's Benchmark) never sees its definition; run_plan.cpp includes it
// through stage_options.h.
struct Config;
struct PrepareSections;  // core/config/prepare_sections.h: the prepare stage's share

// What the prepared workload tells the plan (prepare stage): a trace's own send times and the
// conversations of --multi-turn, each null when the workload has none.
struct WorkloadShape {
  const std::vector<int64_t>* trace_schedule = nullptr;
  const std::vector<SessionScript>* sessions = nullptr;
};

struct RunPlan {
  RunSpec spec;     // the run's (parallel, number, rate, input, output) in the sweep
  std::string name;         // its directory name, e.g. "parallel_8_number_100" or "rate_2_..."
  std::string output_dir;   // <sweep dir>/<name>
  std::string label;        // how the log announces it, e.g. "rate 2/s (cap 8), input 128"
  LoadPlan load;            // what the engine runs (this shard's share)
  WorkerThreads workers;    // worker threads, and why that many
  int64_t requests = 0;     // requests this process sends: the progress bar's total
  int parallel = 1;         // this directory's concurrency (sharded: the shard's share)
  int64_t number = 0;       // this directory's measured requests (sharded: the shard's share)
  bool replay = false;      // a trace's requests at their own times
  RampUp ramp_up;           // --ramp-up-*: how the rate moves across the run (off: it does not)
};

// What planning a run reads of the Config, kept in the benchmark's plan so that each run (and
// each of --search's probes, whose specs are made as the search goes) is planned without it: the
// load section, and the few fields of others that name a run or size its threads.
struct RunPlanner {
  LoadConfig load;               // the share of a shard, warm-up, threads, duration, open loop
  double trace_speedup = 1;      // --trace-speedup: a replay's name and label
  bool loopback = false;         // --url is on this machine (worker threads)
  bool exact_mean_rate = false;  // --search rate: each probe asks exactly its rate on average
};

// The order of the runs: repeats, the pause between runs, and when the first starts.
struct SeriesPlan {
  int num_runs = 1;               // --num-runs: repeats of each run
  double sleep_interval_s = 0;    // --sleep-interval: the pause between runs
  int64_t start_at_unix_ns = -1;  // --start-at: wall-clock instant of the first send (-1: at once)
};

// What a whole benchmark comes to, once the server and the workload are known. The Config is what
// the user asked for and is never changed; what the server or the workload settles is here, with
// what the stages that run it take of the Config (stage_options.h, verdict_plan.h, output_plan.h,
// side_channels.h), the resolved flags included: the app's Benchmark takes this alone.
struct BenchmarkPlan {
  ResolvedFlags resolved;             // the model, -n and --rate as run
  std::vector<RunSpec> runs;  // the sweep's runs in order (--search starts from the first)
  std::string sweep_dir;              // the benchmark's directory: its runs' are below it
  ReportOptions report;               // the reports' options, with the resolved flags
  MetricsOptions metrics;             // what every run's summary shares
  VerdictPlan verdicts;               // how runs are judged: SLOs, baselines, --search, stops
  OutputPlan output;                  // --junit, --results-db, the progress display, --push-gateway
  ServerViewOptions server;           // the server's side: identity, /metrics, --profile
  RequestSettings settings;           // the engine's: how each request is sent and read
  RunPlanner planner;                 // what plan_run reads: each run is planned as it comes
  SeriesPlan series;                  // --num-runs, --sleep-interval, --start-at
  // The shard of the benchmark this process runs (count 1: not sharded): every run's
  // RunInfo::shard; run_id, the benchmark the shards share, is "" when not sharded.
  RunInfo::Shard shard;
};

// Plans the benchmark `config` against the model `model` (--model, or the one the server lists).
// A trace's benchmark is its requests at their own times: -n is the number read and the nominal
// rate (run names, the open-loop outputs) their mean rate after --trace-speedup, one per cap.
// The directory is <--outputs-dir>[/<timestamp>]/<--name or the model>, with a "_shard_I_of_N"
// suffix for a shard; --no-timestamp leaves out the `timestamp` level.
BenchmarkPlan plan_benchmark(const Config& config, std::string model, const TraceInfo& trace,
                             const std::string& timestamp);

// Plans run `spec` of the benchmark (its plan's `planner`) into `sweep_dir`.
RunPlan plan_run(const RunPlanner& planner, const RunSpec& spec, const WorkloadShape& workload,
                 const std::string& sweep_dir);

// What plan_run reads of `config`.
RunPlanner run_planner(const Config& config);

// The engine's share of the Config: how each request is sent and read.
RequestSettings request_settings(const Config& config);

// The prepare stage's share of the Config: PromptSource and the prompt makers take it.
PrepareSections prepare_sections(const Config& config);

}  // namespace llmperf

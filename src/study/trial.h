// A trial's outcome as the study ledger `study.jsonl` holds it: one JSON object per line
// (schema "llmperf.study.trial/1"), appended as each trial ends, so that a study resumes after a
// crash. The line's one writer (trial_to_json) and one reader (trial_from_json, read_ledger) sit
// here side by side. Fields that do not apply are omitted from the line, never written as null;
// times in seconds, metrics in the units of summary.json's text (ms for latencies, tok/s, req/s).
// Pure but for read_ledger, which reads a file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "study/space.h"

namespace llmperf {

// The ledger line's schema.
inline constexpr std::string_view kTrialSchema = "llmperf.study.trial/1";

// How a trial ended.
enum class TrialStatus {
  kOk,            // benchmarked, every --slo met
  kExcluded,      // matched an --exclude: never started
  kStartFailed,   // the server exited (or its command failed) before it was ready
  kReadyTimeout,  // the server was not ready within --ready-timeout
  kBenchFailed,   // the benchmark could not run or had no successful request
  kSloViolated,   // benchmarked, but some --slo failed
  kInterrupted,   // stopped by Ctrl-C (or a crash): --resume runs it again
};

// The status's name in the ledger: "ok", "excluded", "start_failed", "ready_timeout",
// "bench_failed", "slo_violated", "interrupted".
std::string_view trial_status_name(TrialStatus status);

// The status a name stands for, if any.
std::optional<TrialStatus> parse_trial_status(std::string_view name);

// Whether a trial with this status is done (every status but interrupted): --resume skips it.
bool trial_status_final(TrialStatus status);

// One benchmark run of a trial (a sweep or --num-runs gives several).
struct TrialRun {
  std::string name;                 // the run's name, e.g. "parallel_100_number_300"
  std::optional<double> objective;  // the objective's value in this run (--search: the probe's
                                    // rate or concurrency)
  std::optional<bool> passed_slo;   // every --slo met (absent without --slo)
};

// Peak GPU memory of one GPU during the trial (nvidia-smi's memory.used / memory.total).
struct GpuMemory {
  int index = 0;          // the GPU's index
  int64_t used_mib = 0;   // the most memory in use seen, MiB
  int64_t total_mib = 0;  // the GPU's memory, MiB
  bool operator==(const GpuMemory&) const = default;
};

// The benchmark client's own health over a trial's runs (metrics/client_health.h), recorded with
// --slots: trials side by side share the machine's CPUs, and a client that could not keep up
// measures itself, not the server.
struct TrialClient {
  double cpu_s = 0;            // CPU time of the benchmark's worker threads, over every run, s
  double cpu_share = 0;        // the highest share of a run's worker-thread time spent busy (0-1)
  double lateness_p99_ms = 0;  // the highest p99 lateness of a run: ready events stamped late, or
                               // (open loop) requests sent late by the client's own doing, ms
  bool busy = false;           // some run was client-bound, or late while the machine was busy
  std::string why;             // the first reason it was busy ("" when not)
  bool operator==(const TrialClient&) const = default;
};

// One ledger line.
struct TrialRecord {
  int64_t trial = 0;  // the trial's index (0-based, in the strategy's order)
  std::string label;  // "0-enable-64" (label.h)
  int rung = 0;       // successive halving's rung (0 for grid and random)
  int stage = 0;      // the --stage it belongs to, from 1 (0: the study has no stages)
  Assignment params;  // the trial's values, in --param order
  TrialStatus status = TrialStatus::kOk;
  std::string reason;                     // why it ended so: the server's first error line, the
                                          // matching --exclude, the failed SLO; "" when none
  std::string server_command;             // the --serve command as run (substituted)
  // The same command to paste: {port} left as it is, or the port the benchmark's --url names when
  // it names one instead of {port}; "" in ledgers written before it was recorded.
  std::string server_command_template;
  std::vector<std::string> bench_args;    // the benchmark's arguments (substituted)
  std::optional<int> port;                // the loopback port given as {port}
  std::string dir;                        // the trial's directory, relative to the study's
  std::string started;                    // when it started, ISO 8601
  std::optional<double> ready_s;          // from start to ready, s
  std::optional<double> duration_s;       // from start to the server's stop, s
  std::optional<double> bench_s;          // the benchmark (every --num-runs run), s
  std::optional<double> stop_s;           // stopping the server until it was gone, s
  // The objective (median over --num-runs runs); with --search, the search's answer: the highest
  // rate or concurrency that met every --slo.
  std::optional<double> objective;
  std::map<std::string, double> metrics;  // "ttft.p50", "output_throughput", ...: summary values
  std::vector<TrialRun> runs;             // each benchmark run
  std::vector<GpuMemory> gpu;             // peak memory per GPU (empty without nvidia-smi)
  // How many GPUs the trial had: --gpus-per-trial (a slot's own count when trials get slots).
  // Output tok/s per GPU and the cost per million tokens follow from it (gpu_cost.h).
  std::optional<int> gpus;
  // --num-runs K >= 2: the objective of each repeat, in run order, and the two-sided 95 %
  // confidence interval of their mean (Student t over the K repeats, as `llmperf --num-runs`
  // gives its figures); best.h ties the configurations whose intervals overlap the leader's.
  std::vector<double> repeats;
  std::optional<double> ci95_low;
  std::optional<double> ci95_high;
  // A --confirm rerun of a configuration (the leader or the runner-up), not one of the table's
  // rows: best.h reads whether their order held.
  bool confirm = false;
  std::string server_log;                 // the server's log, relative to the study's directory
  std::vector<std::string> log_tail;      // the log's last lines (start failures)
  // --slots: the slot the trial ran in, from 0 (absent without --slots), and its client's health
  // (absent when no benchmark ran). With --slots, `started` has milliseconds, so that the ledger
  // shows which trials overlapped.
  std::optional<int> slot;
  std::optional<TrialClient> client;
};

// The record as one ledger line (no newline). Non-finite numbers are left out; text that is not
// valid UTF-8 (a server's log) is repaired with U+FFFD.
std::string trial_to_json(const TrialRecord& record);

// Reads one ledger line. Unknown fields are ignored and missing optional ones left empty;
// "schema", "trial" and "status" are required. Throws std::invalid_argument starting with
// `where` (e.g. "study.jsonl:3") and saying what is wrong.
TrialRecord trial_from_json(std::string_view line, std::string_view where);

// What read_ledger found.
struct Ledger {
  std::vector<TrialRecord> trials;    // the good lines, in the file's order
  std::vector<std::string> problems;  // each bad line: "PATH:3: not JSON (...)"
  bool truncated_tail = false;        // the last line had no newline and did not parse: a write cut
                                      // short by a crash, dropped (not a problem)
  uint64_t keep_bytes = 0;     // the file's length without that cut-short tail: truncate to it
                               // before appending
  bool needs_newline = false;  // the kept bytes do not end with a newline: write one first
};

// Reads a ledger. Blank lines are skipped. Throws std::runtime_error when the file cannot be read.
Ledger read_ledger(const std::string& path);

}  // namespace llmperf

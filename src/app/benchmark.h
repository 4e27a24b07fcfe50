// A benchmark as a function: run_benchmark loads the workload once, probes the server, runs every
// run of the sweep (or --search's probes) in order, writes each run's files and the sweep's, and
// returns what it measured and judged. It prints nothing on stdout and chooses no exit code: that
// is the caller's (app/command.h for `llmperf`, calibrate for `llmperf calibrate`).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/report.h"
#include "report/run_control.h"
#include "verdict/baseline.h"
#include "verdict/history_baseline.h"
#include "verdict/search.h"
#include "verdict/slo.h"

namespace llmperf {

struct Config;  // core/config.h: what the user asked for

// One run of a benchmark: what it measured, what it judged, and where its files went.
struct RunResult {
  RunInfo info;        // the run's settings and identity; info.output_dir holds its files
  RunSummary summary;  // what summary.json holds
  RunVerdict verdict;  // the --slo outcomes (none without --slo)
  std::optional<BaselineComparison> baseline;  // against --baseline
  std::optional<HistoryComparison> history_baseline;  // against --baseline db:FILE
  std::string text;  // the run's block for a terminal: summary, load, server, verdicts, baseline
  // Every record of the run (warm-up included), in completion order: only with
  // BenchmarkOptions::keep_records; requests.jsonl holds them otherwise.
  std::vector<RequestRecord> records;
};

// A whole benchmark: its runs in order, and what covers them all.
struct BenchmarkResult {
  std::string sweep_dir;  // the benchmark's directory (its runs are subdirectories)
  std::vector<RunResult> runs;
  std::optional<SearchOutcome> search;  // --search: the bisection's probes and answer
  std::string search_text;              // --search: its table and answer, as search_summary.md
  bool probe_failed = false;  // the start-up probe showed the run cannot proceed (nothing ran)
  bool interrupted = false;   // Ctrl-C/SIGTERM cut it short: the results are partial
  int slo_failures = 0;       // runs that violated an --slo (--search: 1 when no probe passed)
  int regressions = 0;        // runs that regressed against --baseline
  // Runs stopped early (RunInfo::stopped_early). --search counts them only when --on-stop abort
  // ended it: otherwise a stopped probe is one more probe that failed.
  int stopped_early = 0;
  bool stop_aborted = false;  // --on-stop abort: a stopped run ended the sweep or search
  // --num-runs: each repeated run's table of means and 95 % intervals (and its baseline verdict
  // on intervals), for the closing text.
  std::string repeats_text;
  // --num-runs: each repeated run (its repeats are runs[first_run, first_run + count)), with its
  // metrics over the repeats and its --slo verdict on their intervals.
  std::vector<RepeatedRun> repeated;
  int results_db_failures = 0;  // runs that --results-db could not store (app/results_db.h)
};

struct BenchmarkOptions {
  bool keep_records = false;  // RunResult::records holds every record (calibrate)
  // Called after each run, with its files written (the `llmperf` command prints its text here).
  std::function<void(const RunResult&)> on_run;
};

// The runs as the sweep tables take them (report/report.h's SweepRow).
std::vector<SweepRow> sweep_rows(const BenchmarkResult& result);

// Runs the whole benchmark that a validated config describes. Throws DatasetError /
// std::invalid_argument for what the user must fix and std::runtime_error for other start-up
// problems (the caller maps them to exit codes).
BenchmarkResult run_benchmark(const Config& config, const BenchmarkOptions& options = {});

}  // namespace llmperf

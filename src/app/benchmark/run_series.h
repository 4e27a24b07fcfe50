// The runs of a benchmark in order, each one call of RunSeries::run_one: the sweep's runs
// (sweep_runs.cpp), --search's probes (search_runs.cpp) and --num-runs' repeats of one run
// (repeat_runs.cpp); then what covers them all: the sweep's files and --junit.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "app/benchmark.h"
#include "app/benchmark/run_judge.h"
#include "plan/run_plan.h"
#include "report/report.h"

namespace llmperf {

// What the orders of runs share: the benchmark's plan and verdicts, how one run goes, and the
// result the runs are added to.
struct RunSeries {
  // The runs; plan.series: --num-runs, --sleep-interval; plan.verdicts: --search and its range;
  // plan.report: the reports' options, with the resolved flags
  const BenchmarkPlan& plan;
  const RunJudge& judge;
  // One full run of `spec` (`repeat`: k of --num-runs' repeats, 0 when not a repeat), added to
  // `result`; whether it met every SLO.
  std::function<bool(const RunSpec& spec, size_t index, const std::string& title,
                     int repeat)>
      run_one;
  BenchmarkResult& result;
};

// Runs every (parallel, number, rate) of the sweep in order (each --num-runs times).
void run_sweep(RunSeries& series);

// --search: bisection over parallel or rate, each probe a full run judged by the SLOs; writes
// search_summary.md.
void run_search(RunSeries& series);

// --num-runs: the run K times, each into <run dir>/repeat_<k>, with --sleep-interval between;
// then <run dir>/summary.json (the last repeat's, with "repeats") and the interval verdict.
void run_repeats(RunSeries& series, const RunSpec& spec, size_t index,
                 const std::string& title);

// Sleeps --sleep-interval between runs; false when interrupted meanwhile (result.interrupted).
bool pause_between_runs(const SeriesPlan& series, BenchmarkResult& result);

// Writes what covers all runs (the sweep table's files, --junit) and marks an interrupted result.
// (`output`: the plan's; --junit FILE).
void finish_series(const OutputPlan& output, BenchmarkResult& result);

}  // namespace llmperf

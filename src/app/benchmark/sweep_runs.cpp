// The sweep's runs in order, the pause between runs, and the files that cover them all (see
// run_series.h).
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>
#include <vector>

#include "app/benchmark/run_series.h"
#include "core/files.h"
#include "app/signals.h"
#include "core/clock.h"
#include "report/run_control.h"

namespace llmperf {
namespace {

// Sleeps up to `seconds`, waking early when the user interrupts.
void sleep_unless_interrupted(double seconds) {
  const int64_t until = now_ns() + static_cast<int64_t>(seconds * 1e9);
  while (now_ns() < until && interrupt_count().load() == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

void run_sweep(RunSeries& series) {
  const std::vector<RunSpec>& runs = series.plan.runs;
  BenchmarkResult& result = series.result;
  for (size_t i = 0; i < runs.size() && !result.interrupted; ++i) {
    if (result.stop_aborted) {
      spdlog::warn("--on-stop abort: the {} remaining run(s) are skipped", runs.size() - i);
      break;
    }
    if (i > 0 && !pause_between_runs(series.plan.series, result)) break;
    const std::string title = fmt::format("run {}/{}", i + 1, runs.size());
    if (series.plan.series.num_runs <= 1) {
      series.run_one(runs[i], i, title, 0);
    } else {
      run_repeats(series, runs[i], i, title);
    }
  }
}

bool pause_between_runs(const SeriesPlan& series, BenchmarkResult& result) {
  if (series.sleep_interval_s > 0) {
    spdlog::info("sleeping {:g} s before the next run (--sleep-interval)",
                 series.sleep_interval_s);
    sleep_unless_interrupted(series.sleep_interval_s);
  }
  if (interrupt_count().load() > 0) result.interrupted = true;
  return !result.interrupted;
}

void finish_series(const OutputPlan& output, BenchmarkResult& result) {
  if (!result.runs.empty()) write_sweep_outputs(result.sweep_dir, sweep_rows(result));
  if (!result.repeated.empty()) write_repeats_sweep_outputs(result.sweep_dir, result.repeated);
  if (!output.junit_path.empty()) {
    // A repeated run is one test case, judged on its interval; its repeats are not.
    std::vector<RunVerdict> verdicts;
    std::vector<HistoryComparison> history;  // --baseline db: (never for repeats)
    size_t next = 0;
    for (size_t i = 0; i < result.runs.size(); ++i) {
      if (next < result.repeated.size() && i == result.repeated[next].first_run) {
        verdicts.push_back(result.repeated[next].verdict);
        i += result.repeated[next++].count - 1;
        continue;
      }
      verdicts.push_back(result.runs[i].verdict);
      if (result.runs[i].history_baseline) history.push_back(*result.runs[i].history_baseline);
    }
    write_file_atomic(output.junit_path, render_junit(verdicts, history));
    spdlog::info("JUnit verdicts written to {}", output.junit_path);
  }
  result.interrupted = result.interrupted || interrupt_count().load() > 0;
}

}  // namespace llmperf

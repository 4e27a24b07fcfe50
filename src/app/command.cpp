// `llmperf [flags]` (see command.h).
#include "app/command.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/exit_codes.h"
#include "report/report.h"

namespace llmperf {

std::string closing_text(const BenchmarkResult& result) {
  if (result.runs.empty()) return "";
  std::string text;
  if (result.runs.size() > 1) text += render_sweep_text(sweep_rows(result));
  text += result.repeats_text;
  if (result.repeated.size() > 1) text += render_repeats_sweep_text(result.repeated);
  text += result.search_text;
  text += fmt::format("\nOutputs: {}\n", result.sweep_dir);
  return text;
}

int exit_code(const BenchmarkResult& result) {
  if (result.interrupted) {
    spdlog::warn("interrupted: results above are partial");
    return kExitInterrupted;
  }
  if (result.probe_failed) return kExitCannotProceed;
  if (result.results_db_failures > 0) {  // every file is written; the history lacks the run(s)
    spdlog::error("{} run(s) could not be stored in --results-db (see above)",
                  result.results_db_failures);
    return kExitCannotProceed;
  }
  if (result.stopped_early > 0) {
    spdlog::error("{} run(s) stopped early (summary.json's \"stopped_early\" says why)",
                  result.stopped_early);
    return kExitStoppedEarly;
  }
  if (result.slo_failures > 0 || result.regressions > 0) {
    spdlog::error("{} run(s) violated an --slo, {} regressed against --baseline",
                  result.slo_failures, result.regressions);
    return kExitVerdict;
  }
  return kExitOk;
}

int benchmark_command(const Config& config) {
  BenchmarkOptions options;
  options.on_run = [](const RunResult& run) {
    std::fputs(run.text.c_str(), stdout);
    std::fflush(stdout);
  };
  const BenchmarkResult result = run_benchmark(config, options);
  std::fputs(closing_text(result).c_str(), stdout);
  std::fflush(stdout);
  return exit_code(result);
}

}  // namespace llmperf

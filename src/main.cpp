// llmperf's entry point: a table of commands, each parsing its flags (cli) and running (app) into
// one CommandOutcome, printed here; start-up failures of a benchmark mapped to exit codes (DESIGN
// §4).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "app/calibrate/calibrate.h"
#include "app/command.h"
#include "app/history_command.h"
#include "app/log_tag.h"
#include "app/offline_commands.h"
#include "app/tune/tune_command.h"
#include "cli/calibrate.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history_cli.h"
#include "cli/history_import.h"
#include "cli/subcommands.h"
#include "cli/tune.h"
#include "core/command_outcome.h"
#include "core/exit_codes.h"
#include "workload/dataset.h"

namespace llmperf {
namespace {

// The outcome of a command that printed its output as it went: its exit code alone.
CommandOutcome printed(int exit_code) { return {exit_code, "", ""}; }

CommandOutcome calibrate(int argc, const char* const* argv) {
  const CalibrateCli cli = parse_calibrate(argc, argv);
  if (!cli.proceed) return cli.outcome;
  return printed(run_calibration(cli.plan, [&cli](const std::string& url, const std::string& dir) {
    return calibration_config(cli.plan, url, dir);
  }));
}

CommandOutcome tune(int argc, const char* const* argv) {
  const TuneCli cli = parse_tune(argc, argv);
  if (!cli.proceed) return cli.outcome;
  StudyOptions options;
  options.parse_bench_flags = tune_bench_config;
  options.study_dir = cli.resume_dir.empty() ? cli.study_dir : cli.resume_dir;
  options.resume = !cli.resume_dir.empty();
  options.dry_run = cli.dry_run;
  return printed(tune_command(cli.spec, options));
}

CommandOutcome history_import(int argc, const char* const* argv) {
  const HistoryImportCli cli = parse_history_import(argc, argv);
  return cli.proceed ? history_import_command(cli.options) : cli.outcome;
}

CommandOutcome history(int argc, const char* const* argv) {
  const HistoryCli cli = parse_history_cli(argc, argv);
  return cli.proceed ? printed(history_command(cli.options)) : cli.outcome;
}

CommandOutcome compare(int argc, const char* const* argv) {
  const CompareCli cli = parse_compare(argc, argv);
  return cli.proceed ? compare_command(cli.options) : cli.outcome;
}

CommandOutcome report(int argc, const char* const* argv) {
  const ReportCli cli = parse_report(argc, argv);
  return cli.proceed ? report_command(cli.options, cli.results_db, cli.shared) : cli.outcome;
}

CommandOutcome merge(int argc, const char* const* argv) {
  const MergeCli cli = parse_merge(argc, argv);
  return cli.proceed ? merge_command(cli.options, cli.results_db) : cli.outcome;
}

// `llmperf [flags]` and `llmperf bench serve [flags]`: the benchmark, when no subcommand is named.
CommandOutcome benchmark(int argc, const char* const* argv) {
  Config config;
  const BenchmarkCli cli = parse_cli(argc, argv, config);
  if (!cli.proceed) return cli.outcome;
  for (const std::string& warning : cli.warnings) std::fprintf(stderr, "%s\n", warning.c_str());
  if (config.output.debug) spdlog::set_level(spdlog::level::debug);
  try {
    return printed(benchmark_command(config));
  } catch (const DatasetError& error) {
    spdlog::error("{}", error.what());
    return printed(kExitUsage);
  } catch (const std::invalid_argument& error) {  // e.g. an unreadable --baseline
    spdlog::error("{}", error.what());
    return printed(kExitUsage);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return printed(kExitCannotProceed);
  }
}

using Runner = CommandOutcome (*)(int argc, const char* const* argv);

// What runs each command (cli/commands.h names them); the compiler checks that each has one.
Runner runner(Command command) {
  switch (command) {
    case Command::kBenchmark: return benchmark;
    case Command::kCalibrate: return calibrate;
    case Command::kTune: return tune;
    case Command::kHistoryImport: return history_import;
    case Command::kHistory: return history;
    case Command::kCompare: return compare;
    case Command::kReport: return report;
    case Command::kMerge: return merge;
  }
  return benchmark;
}

CommandOutcome run(int argc, const char* const* argv) {
  return runner(named_command(argc, argv))(argc, argv);
}

}  // namespace
}  // namespace llmperf

int main(int argc, char** argv) {
  auto logger = spdlog::stderr_color_mt("llmperf");
  // %*: the thread's tag, the trial a line belongs to when trials run side by side (log_tag.h).
  logger->set_formatter(llmperf::tagged_log_formatter("%Y-%m-%d %H:%M:%S [%^%l%$] %*%v"));
  spdlog::set_default_logger(logger);

  const llmperf::CommandOutcome outcome = llmperf::run(argc, argv);
  std::fputs(outcome.out.c_str(), stdout);
  std::fputs(outcome.err.c_str(), stderr);
  return outcome.exit_code;
}

// llmperf's entry point: parse flags, run, and map start-up failures to exit codes (DESIGN §4).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string_view>

#include "cli/calibrate.h"
#include "cli/cli.h"
#include "cli/history_cli.h"
#include "cli/history_import.h"
#include "cli/subcommands.h"
#include "app/calibrate/calibrate.h"
#include "app/command.h"
#include "app/history_command.h"
#include "app/tune/tune_command.h"
#include "cli/tune.h"
#include "core/exit_codes.h"
#include "workload/dataset.h"

int main(int argc, char** argv) {
  using namespace llmperf;
  auto logger = spdlog::stderr_color_mt("llmperf");
  logger->set_pattern("%Y-%m-%d %H:%M:%S [%^%l%$] %v");
  spdlog::set_default_logger(logger);

  if (argc >= 2 && std::string_view(argv[1]) == "calibrate") {  // llmperf calibrate ...
    const CalibrateCli cli = parse_calibrate(argc, argv);
    if (!cli.proceed) {
      std::fputs(cli.outcome.out.c_str(), stdout);
      std::fputs(cli.outcome.err.c_str(), stderr);
      return cli.outcome.exit_code;
    }
    return run_calibration(cli.plan, [&cli](const std::string& url, const std::string& dir) {
      return calibration_config(cli.plan, url, dir);
    });
  }
  if (argc >= 2 && std::string_view(argv[1]) == "tune") {  // llmperf tune ...
    const TuneCli cli = parse_tune(argc, argv);
    if (!cli.proceed) {
      std::fputs(cli.outcome.out.c_str(), stdout);
      std::fputs(cli.outcome.err.c_str(), stderr);
      return cli.outcome.exit_code;
    }
    StudyOptions options;
    options.parse_bench_flags = tune_bench_config;
    options.study_dir = cli.resume_dir.empty() ? cli.study_dir : cli.resume_dir;
    options.resume = !cli.resume_dir.empty();
    options.dry_run = cli.dry_run;
    return tune_command(cli.spec, options);
  }
  // llmperf history import ...: before any other `llmperf history` command.
  if (argc > 2 && std::string_view(argv[1]) == "history" && std::string_view(argv[2]) == "import") {
    const SubcommandOutcome outcome = history_import_command(argc, argv);
    std::fputs(outcome.out.c_str(), stdout);
    std::fputs(outcome.err.c_str(), stderr);
    return outcome.exit_code;
  }
  if (argc >= 2 && std::string_view(argv[1]) == "history") {  // llmperf history --results-db ...
    const HistoryCli cli = parse_history_cli(argc, argv);
    if (!cli.proceed) {
      std::fputs(cli.outcome.out.c_str(), stdout);
      std::fputs(cli.outcome.err.c_str(), stderr);
      return cli.outcome.exit_code;
    }
    return history_command(cli.options);
  }
  if (auto sub = run_subcommand(argc, argv)) {  // llmperf compare ... / llmperf report ...
    std::fputs(sub->out.c_str(), stdout);
    std::fputs(sub->err.c_str(), stderr);
    return sub->exit_code;
  }

  Config config;
  const CliOutcome cli = parse_cli(argc, argv, config);
  if (!cli.proceed) {
    std::fputs(cli.output.c_str(), cli.exit_code == 0 ? stdout : stderr);
    return cli.exit_code;
  }
  for (const std::string& warning : cli.warnings) std::fprintf(stderr, "%s\n", warning.c_str());
  if (config.debug) spdlog::set_level(spdlog::level::debug);

  try {
    return benchmark_command(config);
  } catch (const DatasetError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  } catch (const std::invalid_argument& error) {  // e.g. an unreadable --baseline
    spdlog::error("{}", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitCannotProceed;
  }
}

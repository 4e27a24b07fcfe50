// `llmperf calibrate` flags and its run's Config (see calibrate.h).
#include "cli/calibrate.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <stdexcept>

#include "cli/cli.h"
#include "cli/shared_flags.h"
#include "cli/subcommand_parse.h"

namespace llmperf {

CalibrateCli parse_calibrate(int argc, const char* const* argv) {
  CLI::App app(
      "Measure llmperf's own error floor on this machine: start llmperf-mock with known "
      "timings, run the planned load against it, and compare llmperf's stamps with the mock's "
      "record of every write. Exit 0: faithful; 3: not faithful; 1: the mock could not start.",
      "calibrate");
  CalibrateCli cli;
  CalibrationPlan& p = cli.plan;
  app.add_option(kParallelFlag, p.parallel, "Requests in flight (the cap with --rate)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_option(kRateFlag, p.rate, "Requests per second (default: closed loop)")
      ->check(CLI::PositiveNumber);
  app.add_option_function<std::string>(
         "--threads",
         [&p](const std::string& value) { p.threads = value == "auto" ? 0 : std::stoi(value); },
         "Worker threads: N, or auto (as the benchmark's --threads)")
      ->check(CLI::IsMember({"auto"}) | CLI::Range(1, 1024))
      ->default_str("auto");
  app.add_option("--max-tokens", p.max_tokens, "Output tokens per request")
      ->check(CLI::Range(int64_t{1}, int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option(kNumberFlag, p.number,
                 "Requests (default: enough for about 10 s at the mock's timings)")
      ->check(CLI::Range(int64_t{1}, int64_t{100'000'000}));
  app.add_option("--ttft-ms", p.ttft_ms, "The mock's time to first token, ms")
      ->check(CLI::Range(0.0, 600'000.0))
      ->capture_default_str();
  app.add_option("--itl-ms", p.itl_ms, "The mock's gap between tokens, ms")
      ->check(CLI::Range(0.0, 600'000.0))
      ->capture_default_str();
  app.add_option("--mock", p.mock_path,
                 "llmperf-mock binary (default: next to llmperf, else on PATH)");
  app.add_option(kOutputsDirFlag, p.outputs_dir,
                 "Where the run's outputs and calibration.json go (default: a fresh temp dir)");
  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  cli.proceed = true;
  return cli;
}

Config calibration_config(const CalibrationPlan& plan, const std::string& url,
                          const std::string& outputs_dir) {
  Config c;
  c.target.url = url;
  c.target.model = "llmperf-mock";
  c.workload.prompt = "Calibrate the client.";
  c.body.stream = true;
  c.body.max_tokens = plan.max_tokens;
  c.load.parallel = {plan.parallel};
  c.load.number = {plan.requests()};
  c.load.warmup_num = static_cast<double>(plan.warmup());
  if (plan.rate > 0) c.load.rate = {plan.rate};
  c.load.threads = plan.threads;
  c.output.outputs_dir = outputs_dir;
  c.output.name = "calibration";
  c.output.no_timestamp = true;
  c.server.server_metrics = false;  // the mock's /metrics adds nothing to the comparison
  resolve_config(c);
  const std::vector<std::string> errors = validate_config(c);
  if (!errors.empty()) {
    std::string text;
    for (const std::string& e : errors) text += (text.empty() ? "" : "; ") + e;
    throw std::invalid_argument(fmt::format("calibration run: {}", text));
  }
  return c;
}

}  // namespace llmperf

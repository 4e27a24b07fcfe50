// The calibration run (see calibrate.h): pin, start the mock, run the load with run_benchmark,
// stop the mock (it saves its event log), compare the run's records (kept in memory) with it,
// judge, write calibration.json.
#include "app/calibrate/calibrate.h"

#include <sched.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "app/benchmark.h"
#include "app/calibrate/mock_process.h"
#include "app/command.h"
#include "app/signals.h"
#include "core/exit_codes.h"
#include "core/files.h"
#include "metrics/calibration.h"
#include "report/calibration.h"
#include "report/report.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

// The CPUs this process may run on, in order.
std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  return cpus;
}

// With two or more CPUs: the mock gets the last, this process (and the worker threads it starts
// later, which inherit it) the others.
CalibrationPinning pin_client(const std::vector<int>& cpus) {
  CalibrationPinning pinning;
  pinning.client_cpus = cpus;
  if (cpus.size() < 2) return pinning;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (size_t i = 0; i + 1 < cpus.size(); ++i) CPU_SET(cpus[i], &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    spdlog::warn("cannot pin llmperf to its CPUs; calibrating unpinned");
    return pinning;
  }
  pinning.pinned = true;
  pinning.mock_cpu = cpus.back();
  pinning.client_cpus.pop_back();
  return pinning;
}

std::string fresh_outputs_dir(const std::string& given) {
  if (!given.empty()) {
    fs::create_directories(given);
    return given;
  }
  std::string pattern = (fs::temp_directory_path() / "llmperf-calibrate-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory for the outputs");
  }
  return pattern;
}

// The run's own client health (summary.json "client").
ClientLoad client_load(const RunResult& run, int cores) {
  ClientLoad load;
  load.cores = cores;
  load.wall_s = run.info.duration_s;
  const ClientHealth& client = run.summary.client;
  if (std::isfinite(client.cpu_s)) load.cpu_s = client.cpu_s;  // not finite: not measured
  load.threads = client.threads;
  load.client_bound = client.client_bound;
  load.client_warnings = client.warnings;
  load.machine_busy = client.machine_busy;
  load.machine_warnings = client.machine_warnings;
  for (const RequestRecord& r : run.records) load.events += static_cast<int64_t>(r.chunk_ns.size());
  return load;
}

int calibrate(const CalibrationPlan& plan, const CalibrationConfigFactory& make_config) {
  CalibrationReport report;
  report.plan = plan;
  report.requests = plan.requests();
  report.mock_path = find_mock_binary(plan.mock_path);
  const std::string outputs_dir = fresh_outputs_dir(plan.outputs_dir);
  const std::string event_log = (fs::path(outputs_dir) / "mock_events.log").string();

  const std::vector<int> cpus = allowed_cpus();
  report.pinning = pin_client(cpus);
  const int cores = std::max<int>(1, static_cast<int>(cpus.size()));
  spdlog::info("calibrate: llmperf-mock {} (TTFT {:g} ms, ITL {:g} ms, {} tokens); {}",
               report.mock_path, plan.ttft_ms, plan.itl_ms, plan.max_tokens,
               report.pinning.pinned
                   ? fmt::format("mock pinned to CPU {}, llmperf to the other {}",
                                 report.pinning.mock_cpu, report.pinning.client_cpus.size())
                   : "one CPU: mock and llmperf share it");

  MockProcess mock(report.mock_path,
                   {"--model", "llmperf-mock", "--ttft-ms", fmt::format("{:g}", plan.ttft_ms),
                    "--itl-ms", fmt::format("{:g}", plan.itl_ms), "--output-tokens",
                    std::to_string(plan.max_tokens), "--event-log", event_log},
                   report.pinning.mock_cpu);
  const Config config =
      make_config(fmt::format("http://127.0.0.1:{}/v1/chat/completions", mock.port()), outputs_dir);

  BenchmarkOptions options;
  options.keep_records = true;
  const BenchmarkResult result = run_benchmark(config, options);
  // What `llmperf` would have printed goes to a file: the screen shows the calibration.
  std::string run_text;
  for (const RunResult& run : result.runs) run_text += run.text;
  write_file_atomic((fs::path(outputs_dir) / "run_summary.txt").string(),
                    run_text + closing_text(result));
  const int run_code = exit_code(result);
  const int mock_code = mock.stop(30);
  if (run_code == kExitInterrupted || interrupt_count().load() > 0) {
    spdlog::warn("calibrate: interrupted; no verdict");
    return kExitInterrupted;
  }
  if (run_code != kExitOk) {
    spdlog::error("calibrate: the calibration run failed (exit {}); see {}", run_code, outputs_dir);
    return kExitCannotProceed;
  }
  if (mock_code != 0) {
    throw std::runtime_error(fmt::format(
        "llmperf-mock did not exit cleanly (code {}), so its event log {} may be incomplete",
        mock_code, event_log));
  }

  if (result.runs.size() != 1) {
    throw std::runtime_error(fmt::format("the calibration run made {} runs, not one",
                                         result.runs.size()));
  }
  const RunResult& run = result.runs.front();
  const fs::path run_dir = run.info.output_dir;
  report.run_dir = run_dir.string();
  std::ifstream log_in(event_log);
  if (!log_in) throw std::runtime_error(fmt::format("cannot read the event log {}", event_log));
  const ServerEvents server = parse_event_log(log_in);

  report.errors = compare_with_server(run.records, server, run.info.anchor_steady_ns);
  report.succeeded = run.summary.succeeded;
  report.load = client_load(run, cores);
  report.threads_reason = run.summary.client.threads_reason;
  report.verdict = judge_calibration(report.errors, report.load);

  const std::string json_path = (fs::path(outputs_dir) / "calibration.json").string();
  write_file_atomic(json_path, calibration_to_json(report));
  std::string text = render_calibration_text(report);
  text += fmt::format("Outputs: {} (calibration.json; the run in {})\n", outputs_dir,
                      run_dir.lexically_relative(outputs_dir).string());
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  return report.verdict.faithful ? kExitOk : kExitVerdict;
}

}  // namespace

int run_calibration(const CalibrationPlan& plan, const CalibrationConfigFactory& make_config) {
  install_interrupt_handlers();
  try {
    return calibrate(plan, make_config);
  } catch (const MockStartError& error) {
    spdlog::error("calibrate: {}", error.what());
    return kExitCannotProceed;
  } catch (const std::invalid_argument& error) {
    spdlog::error("calibrate: {}", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    spdlog::error("calibrate: {}", error.what());
    return kExitCannotProceed;
  }
}

}  // namespace llmperf

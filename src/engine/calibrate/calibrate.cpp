// The calibration run (see calibrate.h): pin, start the mock, run the load with run_benchmark,
// stop the mock (it saves its event log), compare, judge, write calibration.json.
#include "engine/calibrate/calibrate.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "core/clock.h"
#include "engine/calibrate/mock_process.h"
#include "engine/sweep/runner.h"
#include "engine/sweep/signals.h"
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

// stdout goes to `path` while it lives: the run prints its usual summary there, not on screen.
class StdoutToFile {
 public:
  explicit StdoutToFile(const std::string& path) {
    std::fflush(stdout);
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    saved_ = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    close(fd);
  }
  ~StdoutToFile() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
  }
  StdoutToFile(const StdoutToFile&) = delete;
  StdoutToFile& operator=(const StdoutToFile&) = delete;

 private:
  int saved_ = -1;
};

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

// The run directory the calibration run wrote: <outputs>/calibration/<run>/ whose summary.json's
// run began after `started_ns` (an --outputs-dir used before may hold older runs), and its summary.
fs::path find_run_dir(const std::string& outputs_dir, int64_t started_ns, nlohmann::json& summary) {
  const fs::path sweep = fs::path(outputs_dir) / "calibration";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sweep, ec)) {
    std::ifstream in(entry.path() / "summary.json");
    if (!in) continue;
    nlohmann::json candidate = nlohmann::json::parse(in, nullptr, false);
    if (candidate.is_discarded() || !candidate["run"].is_object()) continue;
    if (candidate["run"].value("monotonic_anchor_ns", int64_t{0}) >= started_ns) {
      summary = std::move(candidate);
      return entry.path();
    }
  }
  throw std::runtime_error(
      fmt::format("the calibration run wrote no summary.json under {}", sweep.string()));
}

std::vector<RequestRecord> read_records(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  std::vector<RequestRecord> records;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) records.push_back(record_from_json(line));
  }
  return records;
}

// The run's own client health (summary.json "client").
ClientLoad client_load(const nlohmann::json& summary, const std::vector<RequestRecord>& records,
                       int cores, std::string& threads_reason) {
  ClientLoad load;
  load.cores = cores;
  load.wall_s = summary.at("run").value("duration_s", 0.0);
  const nlohmann::json client = summary.value("client", nlohmann::json());
  if (client.is_object()) {
    const auto cpu = client.find("cpu_s");  // null when not measured
    if (cpu != client.end() && cpu->is_number()) load.cpu_s = cpu->get<double>();
    load.threads = client.value("threads", 1);
    load.client_bound = client.value("client_bound", false);
    load.client_warnings = client.value("warnings", std::vector<std::string>{});
    threads_reason = client.value("threads_reason", "");
  }
  for (const RequestRecord& r : records) load.events += static_cast<int64_t>(r.chunk_ns.size());
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

  const int64_t started_ns = now_ns();
  int run_code = 0;
  {
    StdoutToFile quiet((fs::path(outputs_dir) / "run_summary.txt").string());
    run_code = run_benchmark(config);
  }
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

  nlohmann::json summary;
  const fs::path run_dir = find_run_dir(outputs_dir, started_ns, summary);
  report.run_dir = run_dir.string();
  const std::vector<RequestRecord> records = read_records(run_dir / "requests.jsonl");
  std::ifstream log_in(event_log);
  if (!log_in) throw std::runtime_error(fmt::format("cannot read the event log {}", event_log));
  const ServerEvents server = parse_event_log(log_in);

  const int64_t anchor = summary["run"].value("monotonic_anchor_ns", int64_t{0});
  report.errors = compare_with_server(records, server, anchor);
  report.succeeded = summary["requests"].value("succeeded", int64_t{0});
  report.load = client_load(summary, records, cores, report.threads_reason);
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

// Runs the real llmperf binary for integration tests and loads what it wrote.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_process.h"

namespace llmperf::testing {

inline constexpr int kTimeoutS = 120;

struct BenchRun {
  ProcessResult process;
  std::string outputs_dir;
  std::vector<std::filesystem::path> run_dirs;  // run directories (parallel_*/rate_*), sorted
  std::filesystem::path sweep_dir;              // <outputs>/<timestamp>/<name>
  nlohmann::json summary;                       // summary.json of the first run
};

// Runs llmperf with `args` plus --outputs-dir in a fresh temp dir (killing it after timeout_s),
// and loads what it wrote.
BenchRun run_llmperf(std::vector<std::string> args, const std::string& cwd = "",
                     int timeout_s = kTimeoutS);

// --url/--model/--prompt/--sleep-interval for a run against `mock`.
std::vector<std::string> base_args(const MockServer& mock);

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b);

// Exit code, stdout and stderr of a run, for assertion messages.
std::string diagnostics(const BenchRun& run);

// The one run directory of `run`, which must have succeeded (a failed expectation otherwise).
std::filesystem::path only_run_dir(const BenchRun& run);

// Whether `text` (a run's output, a file) contains `part`.
bool contains(const std::string& text, const std::string& part);

// Every line of a run directory's requests.jsonl.
std::vector<nlohmann::json> read_requests(const std::filesystem::path& run_dir);

}  // namespace llmperf::testing

// Runs the real llmperf binary for integration tests (see llmperf_run.h).
#include "llmperf_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace llmperf::testing {

namespace fs = std::filesystem;
using nlohmann::json;

BenchRun run_llmperf(std::vector<std::string> args, const std::string& cwd, int timeout_s) {
  BenchRun run;
  run.outputs_dir = make_temp_dir();
  std::vector<std::string> argv = {LLMPERF_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--outputs-dir", run.outputs_dir});
  run.process = run_process(argv, timeout_s, cwd);
  for (const auto& entry : fs::recursive_directory_iterator(run.outputs_dir)) {
    if (entry.is_directory() && fs::exists(entry.path() / "requests.jsonl")) {
      run.run_dirs.push_back(entry.path());
    }
  }
  std::sort(run.run_dirs.begin(), run.run_dirs.end());
  if (!run.run_dirs.empty()) {
    run.sweep_dir = run.run_dirs.front().parent_path();
    run.summary = json::parse(read_file((run.run_dirs.front() / "summary.json").string()));
  }
  return run;
}

std::vector<std::string> base_args(const MockServer& mock) {
  return {"--url",    mock.chat_url(), "--model",          "mock-model",
          "--prompt", "hello world",   "--sleep-interval", "0"};
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string diagnostics(const BenchRun& run) {
  return "exit " + std::to_string(run.process.exit_code) + "\nstdout:\n" + run.process.out +
         "\nstderr:\n" + run.process.err;
}

fs::path only_run_dir(const BenchRun& run) {
  EXPECT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  return run.run_dirs.empty() ? fs::path() : run.run_dirs.front();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<json> read_requests(const fs::path& run_dir) {
  std::vector<json> records;
  std::istringstream lines(read_file((run_dir / "requests.jsonl").string()));
  std::string line;
  while (std::getline(lines, line)) records.push_back(json::parse(line));
  return records;
}

}  // namespace llmperf::testing

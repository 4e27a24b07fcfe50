// The `llmperf tune` integration tests' shared helpers (see tune_study.h).
#include "tune_study.h"

#include <fstream>
#include <iterator>
#include <random>

namespace llmperf::testing {

namespace fs = std::filesystem;
using nlohmann::json;

std::string tune_marker() {
  std::random_device device;
  return "tunemark" + std::to_string(device());
}

std::string landscape_mock(const std::string& marker, const std::string& flags) {
  return std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker +
         " --max-model-len 2048 --kv-cache-tokens 32768 --kv-tokens-per-batched-token 10"
         " --step-ms 6 --step-us-per-token 3 " +
         flags;
}

std::vector<int> processes_with(const std::string& marker) {
  std::vector<int> pids;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline;
    try {
      std::ifstream in(entry.path() / "cmdline", std::ios::binary);
      cmdline.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::exception&) {
      continue;  // it exited while being read (libstdc++ throws for read()'s ESRCH): gone
    }
    if (cmdline.find(marker) != std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

std::vector<json> read_ledger_lines(const fs::path& dir) {
  std::vector<json> lines;
  std::ifstream in(dir / "study.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(json::parse(line));
  }
  return lines;
}

Study load_study(ProcessResult process, const fs::path& dir) {
  Study study{std::move(process), dir, {}, {}};
  study.ledger = read_ledger_lines(dir);
  if (fs::exists(dir / "study_summary.json")) {
    study.summary = json::parse(read_file((dir / "study_summary.json").string()));
  }
  return study;
}

Study run_tune(const std::vector<std::string>& args, int timeout_s) {
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  std::vector<std::string> argv = {LLMPERF_BIN, "tune", "--study-dir", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return load_study(run_process(argv, timeout_s), dir);
}

std::string show(const Study& study) {
  std::string text = "exit " + std::to_string(study.process.exit_code) + "\nstdout:\n" +
                     study.process.out + "\nstderr:\n" + study.process.err + "\nledger:\n";
  for (const json& line : study.ledger) text += line.dump() + "\n";
  return text;
}

std::string python_with_optuna() {
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const ProcessResult probe = run_process(
        {"/bin/sh", "-c", std::string(python) + " -c 'import optuna' 2>/dev/null"}, kTimeoutS);
    if (probe.exit_code == 0) return python;
  }
  return "";
}

}  // namespace llmperf::testing

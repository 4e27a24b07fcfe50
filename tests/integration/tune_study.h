// What the integration tests of `llmperf tune` share: a study's directory read back (its ledger
// and study_summary.json) and shown when a test fails, the servers a test left behind (by a word
// on their command lines), and a Python that imports optuna for the learned searches' tests.
#pragma once

#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {

// Processes whose command line contains `marker` (this test's servers), by pid.
inline std::vector<int> processes_with(const std::string& marker) {
  std::vector<int> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
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

// A study a test ran: how llmperf exited, and the files it left.
struct Study {
  ProcessResult process;
  std::filesystem::path dir;
  std::vector<nlohmann::json> ledger;  // study.jsonl's lines
  nlohmann::json summary;              // study_summary.json
};

inline std::vector<nlohmann::json> read_ledger_lines(const std::filesystem::path& dir) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(dir / "study.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

inline Study load_study(ProcessResult process, const std::filesystem::path& dir) {
  Study study{std::move(process), dir, {}, {}};
  study.ledger = read_ledger_lines(dir);
  if (std::filesystem::exists(dir / "study_summary.json")) {
    study.summary = nlohmann::json::parse(read_file((dir / "study_summary.json").string()));
  }
  return study;
}

inline std::string show(const Study& study) {
  std::string text = "exit " + std::to_string(study.process.exit_code) + "\nstdout:\n" +
                     study.process.out + "\nstderr:\n" + study.process.err + "\nledger:\n";
  for (const nlohmann::json& line : study.ledger) text += line.dump() + "\n";
  return text;
}

// A Python that imports optuna, as llmperf looks for one; "" when none does.
inline std::string python_with_optuna() {
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const ProcessResult probe = run_process(
        {"/bin/sh", "-c", std::string(python) + " -c 'import optuna' 2>/dev/null"}, kTimeoutS);
    if (probe.exit_code == 0) return python;
  }
  return "";
}

inline constexpr const char* kNoOptuna =
    "no Python here imports optuna: install python3-optuna (scripts/setup.sh --test) to run the "
    "learned searches' tests";

}  // namespace llmperf::testing

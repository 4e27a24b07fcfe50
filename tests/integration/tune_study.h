// What the `llmperf tune` integration tests share: a word to find a test's servers by, the
// processes that carry it (none must be left), a study run by the real binary with its ledger
// and summary read back, and a Python that imports optuna for the learned searches' tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {

// A word that every server process of one test carries on its command line.
std::string tune_marker();

// `llmperf-mock --port {port} --model <marker>` in scheduler mode with the landscape of
// docs/mock.md ("A known best configuration"), then `flags` (the budget and chunked prefill as
// parameters, say). Every step takes three times as long as there (--step-ms 6
// --step-us-per-token 3): the same tokens per step, so the same best configuration, at a third of
// the requests per second. At docs/mock.md's pace, budget 1024 asks for about 330 requests and
// 6,500 streamed tokens a second, which an ASan+UBSan client beside three other tests on two
// cores did not keep up with: its trial measured the machine (4,010 tok/s against 2048's 4,192).
std::string landscape_mock(const std::string& marker, const std::string& flags);

// Processes whose command line contains `marker` (this test's servers), by pid.
std::vector<int> processes_with(const std::string& marker);

struct Study {
  ProcessResult process;
  std::filesystem::path dir;
  std::vector<nlohmann::json> ledger;  // study.jsonl's lines
  nlohmann::json summary;              // study_summary.json
};

// study.jsonl's lines.
std::vector<nlohmann::json> read_ledger_lines(const std::filesystem::path& dir);

// The study `process` left in `dir`.
Study load_study(ProcessResult process, const std::filesystem::path& dir);

// `llmperf tune --study-dir <a new temporary directory>/study ARGS...`, run to its end.
Study run_tune(const std::vector<std::string>& args, int timeout_s = kTimeoutS);

// The exit code, stdout, stderr and ledger, for a failed expectation's message.
std::string show(const Study& study);

// A Python that imports optuna, as llmperf looks for one; "" when none does.
std::string python_with_optuna();

inline constexpr const char* kNoOptuna =
    "no Python here imports optuna: install python3-optuna (scripts/setup.sh --test) to run the "
    "learned searches' tests";

}  // namespace llmperf::testing

// `llmperf tune` end to end, issue 39 item 1's nsga2:N: several --objective at once, searched by
// the real Optuna's NSGA-II (skipped, visibly, where no Python imports optuna) against real
// llmperf-mock servers in scheduler mode. The study's answer is the Pareto front of its ok trials:
// non-empty, none of it dominated by another ok trial, every other ok trial dominated by it; and
// --resume retells the ledger's values to the sampler. What cannot go with several objectives is
// refused before anything starts.
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "llmperf_run.h"
#include "test_process.h"
#include "tune_study.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The mock's scheduler model (docs/mock.md): a budget B below --max-model-len is refused without
// chunked prefill; --max-num-seqs trades the time to first token against throughput.
std::vector<std::string> objectives_args(const std::string& marker, const fs::path& dir) {
  // clang-format off
  return {LLMPERF_BIN, "tune", "--study-dir", dir.string(), "--serve",
          landscape_mock(marker, "--max-num-batched-tokens {B} --enable-chunked-prefill {cp}"
                                 " --max-num-seqs {mns}"),
          "--param", "B=512,1024,2048", "--param", "cp=true,false", "--param", "mns=8,64",
          "--strategy", "nsga2:4", "--objective", "output_throughput:max",
          "--objective", "ttft.p99:min", "--stop-timeout", "5",
          "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
          "--dataset", "random", "--input-tokens", "1000", "--output-tokens", "20",
          "--parallel", "64", "-n", "64", "--seed", "1"};
  // clang-format on
}

// a dominates b: at least as much throughput and as little TTFT, better on one.
bool objectives_dominates(const json& a, const json& b) {
  const double ta = a.at("metrics").at("output_throughput");
  const double tb = b.at("metrics").at("output_throughput");
  const double la = a.at("metrics").at("ttft.p99");
  const double lb = b.at("metrics").at("ttft.p99");
  return ta >= tb && la <= lb && (ta > tb || la < lb);
}

// The front: non-empty, every trial on it ok and dominated by no ok trial, every ok trial off it
// dominated by one on it; no single best.
void expect_a_true_front(const Study& study) {
  EXPECT_TRUE(study.summary.at("best").is_null()) << study.summary.dump();
  const json& front = study.summary.at("front");
  ASSERT_FALSE(front.at("trials").empty()) << show(study);
  EXPECT_EQ(front.at("objectives").at(0).at("name"), "output_throughput");
  EXPECT_EQ(front.at("objectives").at(1).at("name"), "ttft.p99");
  std::set<int64_t> on_front;
  for (const json& trial : front.at("trials")) on_front.insert(trial.get<int64_t>());
  std::vector<json> ok;
  for (const json& line : study.ledger) {
    if (line.at("status") == "ok") ok.push_back(line);
  }
  for (const json& trial : ok) {
    const bool front_trial = on_front.count(trial.at("trial").get<int64_t>()) > 0;
    bool dominated = false;
    bool dominated_by_front = false;
    for (const json& other : ok) {
      if (!objectives_dominates(other, trial)) continue;
      dominated = true;
      dominated_by_front = dominated_by_front || on_front.count(other.at("trial").get<int64_t>());
    }
    EXPECT_EQ(front_trial, !dominated) << trial.dump();
    if (!front_trial) {
      EXPECT_TRUE(dominated_by_front) << trial.dump();
    }
  }
  EXPECT_EQ(on_front.size(), front.at("labels").size());
  for (const json& line : study.ledger) {
    if (on_front.count(line.at("trial").get<int64_t>())) {
      EXPECT_EQ(line.at("status"), "ok") << line.dump();
    }
  }
}

TEST(TuneObjectives, Nsga2WithTwoObjectivesAnswersWithTheirParetoFrontAndResumes) {
  if (python_with_optuna().empty()) {
    GTEST_SKIP() << kNoOptuna;
  }
  std::random_device device;
  const std::string marker = "objmark" + std::to_string(device());
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  const Study study = load_study(run_process(objectives_args(marker, dir), kTimeoutS * 2), dir);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  EXPECT_NE(study.process.err.find("--strategy nsga2:4: Optuna "), std::string::npos);
  EXPECT_NE(study.process.err.find("2 objectives (output_throughput:max, ttft.p99:min)"),
            std::string::npos)
      << study.process.err;
  EXPECT_NE(study.process.out.find("Pareto front (output_throughput (tok/s, higher is better), "
                                   "ttft.p99 (ms, lower is better)): "),
            std::string::npos)
      << study.process.out;
  EXPECT_EQ(study.process.out.find("Best configuration"), std::string::npos);
  int benchmarked = 0;
  for (const json& line : study.ledger) {
    benchmarked += line.at("status") == "ok" ? 1 : 0;
    if (line.at("status") == "ok") {
      EXPECT_TRUE(line.at("metrics").contains("ttft.p99")) << line.dump();
      EXPECT_EQ(line.at("objective"), line.at("metrics").at("output_throughput")) << line.dump();
    }
  }
  EXPECT_EQ(benchmarked, 4) << show(study);
  expect_a_true_front(study);
  const json spec = json::parse(read_file((dir / "study.json").string()));
  EXPECT_EQ(spec.at("spec").at("objectives"), (json{"output_throughput:max", "ttft.p99:min"}));
  EXPECT_EQ(spec.at("objectives").size(), 2u);

  // Keep the first two lines and resume: their values are retold (a wrong count of values would
  // be refused by Optuna), the rest of the budget is drawn, and the answer is a front again.
  std::vector<std::string> lines;
  {
    std::ifstream in(dir / "study.jsonl");
    for (std::string line; std::getline(in, line) && lines.size() < 2;) lines.push_back(line);
  }
  {
    std::ofstream out(dir / "study.jsonl", std::ios::trunc);
    for (const std::string& line : lines) out << line << "\n";
  }
  const Study resumed =
      load_study(run_process({LLMPERF_BIN, "tune", "--resume", dir.string()}, kTimeoutS * 2), dir);
  ASSERT_EQ(resumed.process.exit_code, 0) << show(resumed);
  ASSERT_GE(resumed.ledger.size(), 2u);
  EXPECT_EQ(resumed.ledger[0].dump(), json::parse(lines[0]).dump());
  int resumed_benchmarked = 0;
  std::set<std::string> configurations;
  for (const json& line : resumed.ledger) {
    resumed_benchmarked += line.at("status") == "ok" ? 1 : 0;
    EXPECT_TRUE(configurations.insert(line.at("params").dump()).second)
        << "drawn again after --resume: " << line.dump();
  }
  EXPECT_EQ(resumed_benchmarked, 4) << show(resumed);
  expect_a_true_front(resumed);
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

// Several objectives with what needs one: refused before anything starts (no Optuna needed).
TEST(TuneObjectives, CmaesHalvingAndStagesRefuseSeveralObjectives) {
  const auto refused = [](const std::vector<std::string>& flags) {
    std::vector<std::string> argv = {LLMPERF_BIN,   "tune",
                                     "--serve",     "never-started {port} {B}",
                                     "--objective", "output_throughput",
                                     "--objective", "ttft.p99",
                                     "--dry-run"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    for (const char* arg : {"--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m",
                            "--prompt", "hi"}) {
      argv.emplace_back(arg);
    }
    return run_process(argv, kTimeoutS);
  };
  const ProcessResult cmaes = refused({"--param", "B=1,2", "--strategy", "cmaes:4"});
  EXPECT_EQ(cmaes.exit_code, 2) << cmaes.err;
  EXPECT_NE(cmaes.err.find("--strategy cmaes: CMA-ES optimises one objective"), std::string::npos)
      << cmaes.err;
  const ProcessResult halving = refused({"--param", "B=1,2", "--strategy", "halving"});
  EXPECT_EQ(halving.exit_code, 2) << halving.err;
  EXPECT_NE(halving.err.find("--strategy halving: successive halving promotes by one objective"),
            std::string::npos)
      << halving.err;
  const ProcessResult staged = refused({"--stage", "B=1,2"});
  EXPECT_EQ(staged.exit_code, 2) << staged.err;
  EXPECT_NE(staged.err.find("--stage fixes each stage's best"), std::string::npos) << staged.err;
}

}  // namespace
}  // namespace llmperf::testing

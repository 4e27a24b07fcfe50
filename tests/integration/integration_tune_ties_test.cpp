// `llmperf tune` end to end, issue 39 items 3 and 6: a winner only when it is one (--num-runs
// repeats give 95 % intervals and ties within noise, --prefer breaks them, --confirm reruns the
// leader and the runner-up) and per GPU and per dollar (--gpus-per-trial, --gpu-hour-cost), against
// real llmperf-mock servers in scheduler mode. The configurations differ only in a parameter the
// mock does not read, so that they measure the same within noise.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TiesStudy {
  ProcessResult process;
  fs::path dir;
  std::vector<json> ledger;
  json summary;
};

// A study of three configurations of one mock: `np` is only an environment variable.
TiesStudy run_ties_study(const std::vector<std::string>& flags) {
  std::random_device device;
  const std::string marker = "tiesmark" + std::to_string(device());
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  std::vector<std::string> argv = {
      LLMPERF_BIN, "tune", "--study-dir", dir.string(), "--serve",
      "NP={np} " + std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker +
          " --max-model-len 2048 --kv-cache-tokens 32768 --step-ms 2 --step-us-per-token 1"
          " --max-num-batched-tokens 2048 --enable-chunked-prefill true",
      "--param", "np=1,2,3"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const char* arg : {"--url", "http://127.0.0.1:{port}/v1/chat/completions", "--dataset",
                          "random", "--input-tokens", "200", "--output-tokens", "20",
                          "--parallel", "16", "-n", "48", "--seed", "1"}) {
    argv.emplace_back(arg);
  }
  argv.insert(argv.end(), {"--model", marker});
  TiesStudy study{run_process(argv, kTimeoutS), dir, {}, {}};
  std::ifstream in(dir / "study.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) study.ledger.push_back(json::parse(line));
  }
  if (fs::exists(dir / "study_summary.json")) {
    study.summary = json::parse(read_file((dir / "study_summary.json").string()));
  }
  return study;
}

std::string ties_show(const TiesStudy& study) {
  std::string text = "exit " + std::to_string(study.process.exit_code) + "\nstdout:\n" +
                     study.process.out + "\nstderr:\n" + study.process.err + "\nledger:\n";
  for (const json& line : study.ledger) text += line.dump() + "\n";
  return text;
}

TEST(TuneTies, RepeatsTieTheSameConfigurationsAndPreferNamesTheBest) {
  const TiesStudy study = run_ties_study({"--num-runs", "2", "--prefer", "np:max",
                                          "--gpus-per-trial", "2", "--gpu-hour-cost", "2.5"});
  ASSERT_EQ(study.process.exit_code, 0) << ties_show(study);
  ASSERT_EQ(study.ledger.size(), 3u) << ties_show(study);
  for (const json& trial : study.ledger) {
    ASSERT_EQ(trial.at("status"), "ok") << trial.dump();
    EXPECT_EQ(trial.at("gpus"), 2);
    ASSERT_EQ(trial.at("repeats").size(), 2u);
    // The interval is the mean's, mean +- t(0.975, 1) x s / sqrt(2) = mean +- 12.706 |a - b| / 2.
    const double a = trial["repeats"][0];
    const double b = trial["repeats"][1];
    const double half = 12.706 * std::fabs(a - b) / 2;
    EXPECT_NEAR(trial.at("ci95_low").get<double>(), (a + b) / 2 - half, 1e-3 * (a + b));
    EXPECT_NEAR(trial.at("ci95_high").get<double>(), (a + b) / 2 + half, 1e-3 * (a + b));
    // Per GPU and per dollar at the trial's load.
    const json& m = trial.at("metrics");
    const double tps = m.at("output_throughput");
    EXPECT_DOUBLE_EQ(m.at("output_throughput_per_gpu").get<double>(), tps / 2);
    EXPECT_NEAR(m.at("cost_per_mtok").get<double>(), 2.5 * 2 / 3600 / tps * 1e6, 1e-9);
  }
  // The same server three times: tied within noise, and --prefer np:max names np=3.
  const json& tied = study.summary.at("tied");
  ASSERT_TRUE(tied.is_object()) << study.summary.dump(1);
  EXPECT_EQ(tied.at("by"), "repeats");
  EXPECT_EQ(tied.at("tie_break"), "np:max");
  EXPECT_EQ(tied.at("trials").size(), 3u) << tied.dump();
  EXPECT_EQ(tied.at("best"), 2);
  EXPECT_EQ(study.summary.at("best").at("trial"), 2);
  EXPECT_EQ(tied.at("decided_by"), "np");
  EXPECT_NE(study.process.out.find("tied within noise: 2-3"), std::string::npos)
      << study.process.out;
  EXPECT_NE(study.process.out.find("tie-break np:max: 2-3 (np 3)"), std::string::npos);
  EXPECT_NE(study.process.out.find("Output tok/s/GPU"), std::string::npos);
  EXPECT_NE(study.process.out.find("USD/Mtok"), std::string::npos);
  const std::string csv = read_file((study.dir / "study_summary.csv").string());
  EXPECT_NE(csv.find("objective_ci95_low,objective_ci95_high"), std::string::npos);
  EXPECT_NE(csv.find("output_throughput_per_gpu,cost_per_mtok"), std::string::npos);
  const std::string html = read_file((study.dir / "study.html").string());
  EXPECT_NE(html.find("tied within noise"), std::string::npos);
  EXPECT_NE(html.find("Output tok/s per GPU against output tok/s per user"), std::string::npos);
  EXPECT_EQ(study.summary.at("pareto").at("per_gpu_per_user").at("y"),
            "output_throughput_per_gpu");

  // `llmperf report` draws the same files from the ledger.
  const std::string before = read_file((study.dir / "study_summary.json").string());
  const ProcessResult report =
      run_process({LLMPERF_BIN, "report", study.dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(read_file((study.dir / "study_summary.json").string()), before);
}

TEST(TuneTies, ConfirmRerunsTheLeaderAndTheRunnerUp) {
  const TiesStudy study = run_ties_study(
      {"--confirm", "--objective", "output_throughput_per_gpu", "--gpus-per-trial", "{np}"});
  ASSERT_EQ(study.process.exit_code, 0) << ties_show(study);
  ASSERT_EQ(study.ledger.size(), 5u) << ties_show(study);
  // With np GPUs, the same throughput per GPU falls as np grows: np=1 leads, np=2 follows.
  EXPECT_EQ(study.ledger[0].at("gpus"), 1);
  EXPECT_EQ(study.ledger[2].at("gpus"), 3);
  EXPECT_EQ(study.ledger[3].at("confirm"), true);
  EXPECT_EQ(study.ledger[4].at("confirm"), true);
  EXPECT_EQ(study.ledger[3].at("trial"), 0);
  EXPECT_EQ(study.ledger[4].at("trial"), 1);
  EXPECT_NE(study.ledger[3].at("dir").get<std::string>().find("/confirm"), std::string::npos);
  const json& confirm = study.summary.at("confirm");
  ASSERT_TRUE(confirm.is_object()) << study.summary.dump(1);
  EXPECT_EQ(confirm.at("leader"), 0);
  EXPECT_EQ(confirm.at("runner_up"), 1);
  const bool held = confirm.at("held");
  EXPECT_EQ(held, confirm.at("leader_rerun").get<double>() >=
                      confirm.at("runner_up_rerun").get<double>());
  EXPECT_EQ(study.summary.at("tied").is_null(), held);
  EXPECT_NE(study.process.out.find(held ? "their order held" : "their order did not hold"),
            std::string::npos)
      << study.process.out;
  EXPECT_EQ(study.summary.at("trials").size(), 3u);  // the reruns are no rows
  EXPECT_EQ(study.summary.at("study").at("objective").at("unit"), "tok/s/GPU");

  // --resume keeps the reruns and runs nothing again.
  const ProcessResult resumed =
      run_process({LLMPERF_BIN, "tune", "--resume", study.dir.string()}, kTimeoutS);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  std::ifstream in(study.dir / "study.jsonl");
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) lines += !line.empty();
  EXPECT_EQ(lines, 5u);
}

TEST(TuneTies, FlagsThatCouldNeverGiveTheirFiguresFailFirst) {
  const TiesStudy cost = run_ties_study({"--objective", "cost_per_mtok", "--gpus-per-trial", "1"});
  EXPECT_EQ(cost.process.exit_code, 2) << ties_show(cost);
  EXPECT_NE(cost.process.err.find("--gpu-hour-cost"), std::string::npos) << cost.process.err;
  const TiesStudy prefer = run_ties_study({"--prefer", "nope:min"});
  EXPECT_EQ(prefer.process.exit_code, 2);
  EXPECT_NE(prefer.process.err.find("'nope' is neither gpus, gpu_memory, a --param nor a metric"),
            std::string::npos)
      << prefer.process.err;
  const TiesStudy gpus = run_ties_study({"--gpus-per-trial", "two"});
  EXPECT_EQ(gpus.process.exit_code, 2);
  EXPECT_TRUE(cost.ledger.empty() && prefer.ledger.empty() && gpus.ledger.empty());
}

}  // namespace
}  // namespace llmperf::testing

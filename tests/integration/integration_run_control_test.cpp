// Early stops and repeated runs end to end against llmperf-mock: a mock that fails a share of its
// requests stops a run by --max-errors and by --max-error-rate with the right reason, every file
// written and exit code 4; --on-stop decides whether a sweep goes on; and in open loop
// --stop-on-saturation stops a rate far above what the mock's scheduler can serve, and leaves a
// rate well below it alone.
// --num-runs K writes K repeat directories and a repeats block whose means are those of the K
// summaries; --baseline then judges on intervals.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kExitStopped = 4;

// The one run directory of a stopped run (only_run_dir wants a run that exited 0).
fs::path rc_stopped_run_dir(const BenchRun& run) {
  EXPECT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  return run.run_dirs.empty() ? fs::path() : run.run_dirs.front();
}

// The mocks answer in 20 ms or more: a run of a few hundred requests lasts seconds, while a
// rule's decision reaches the workers within about 100 ms (the collector's drain period).

// Every file of a finished run is there.
void rc_expect_run_files(const fs::path& dir) {
  for (const char* file : {"summary.json", "requests.jsonl", "benchmark_summary.json",
                           "benchmark_percentile.json", "vllm_result.json"}) {
    EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
  }
}

TEST(EarlyStop, MaxErrorsStopsTheRunWithItsReason) {
  MockServer mock(
      {"--output-tokens", "4", "--ttft-ms", "20", "--fault-http-rate", "0.5", "--seed", "3"});
  BenchRun run = run_llmperf(
      concat(base_args(mock), {"--parallel", "2", "-n", "400", "--no-probe", "--max-errors", "5"}));
  ASSERT_EQ(run.process.exit_code, kExitStopped) << diagnostics(run);
  const fs::path dir = rc_stopped_run_dir(run);
  rc_expect_run_files(dir);
  const json& stop = run.summary.at("stopped_early");
  EXPECT_EQ(stop.at("reason"), "max_errors");
  EXPECT_GE(stop.at("after_requests").get<int>(), 5);
  EXPECT_LT(stop.at("after_requests").get<int>(), 100);  // long before the 400 asked for
  EXPECT_FALSE(run.summary.at("run").at("interrupted").get<bool>());
  EXPECT_LT(run.summary.at("requests").at("total").get<int>(), 400);
  EXPECT_TRUE(contains(run.process.err, "stopping early (max_errors)")) << run.process.err;
  EXPECT_TRUE(contains(run.process.out, "Stopped early (max_errors)")) << run.process.out;
  EXPECT_EQ(run.summary.at("config").at("max_errors"), 5);
}

TEST(EarlyStop, MaxErrorRateStopsOnceItsWindowIsFull) {
  MockServer mock(
      {"--output-tokens", "4", "--ttft-ms", "20", "--fault-http-rate", "0.4", "--seed", "5"});
  BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "2", "-n", "500", "--no-probe",
                                           "--max-error-rate", "0.1", "--error-window", "30"}));
  ASSERT_EQ(run.process.exit_code, kExitStopped) << diagnostics(run);
  rc_expect_run_files(rc_stopped_run_dir(run));
  const json& stop = run.summary.at("stopped_early");
  EXPECT_EQ(stop.at("reason"), "max_error_rate");
  EXPECT_GE(stop.at("after_requests").get<int>(), 30);  // not before the window is full
  EXPECT_LT(stop.at("after_requests").get<int>(), 200);
  EXPECT_TRUE(contains(stop.at("detail").get<std::string>(), "of the last 30 measured requests"));
  EXPECT_LT(run.summary.at("requests").at("total").get<int>(), 500);
}

TEST(EarlyStop, AHealthyRunIsNotStoppedAndHasNoStoppedEarlyKey) {
  MockServer mock({"--output-tokens", "4"});
  BenchRun run = run_llmperf(concat(base_args(mock), {"--parallel", "2", "-n", "40", "--max-errors",
                                                      "1", "--max-error-rate", "0.01"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(run.summary.contains("stopped_early"));
  EXPECT_EQ(run.summary.at("requests").at("succeeded"), 40);
}

TEST(EarlyStop, OnStopDecidesWhetherTheSweepGoesOn) {
  MockServer mock({"--output-tokens", "4", "--fault-http-rate", "0.5", "--seed", "9"});
  const std::vector<std::string> sweep = {"--parallel",   "1", "2", "-n", "200", "--no-probe",
                                          "--max-errors", "3"};
  BenchRun next = run_llmperf(concat(base_args(mock), sweep));
  ASSERT_EQ(next.process.exit_code, kExitStopped) << diagnostics(next);
  ASSERT_EQ(next.run_dirs.size(), 2u) << diagnostics(next);
  for (const fs::path& dir : next.run_dirs) {
    const json summary = json::parse(read_file((dir / "summary.json").string()));
    EXPECT_EQ(summary.at("stopped_early").at("reason"), "max_errors") << dir;
  }
  BenchRun abort = run_llmperf(concat(concat(base_args(mock), sweep), {"--on-stop", "abort"}));
  ASSERT_EQ(abort.process.exit_code, kExitStopped) << diagnostics(abort);
  EXPECT_EQ(abort.run_dirs.size(), 1u) << diagnostics(abort);
  EXPECT_TRUE(contains(abort.process.err, "the 1 remaining run(s) are skipped"))
      << abort.process.err;
}

// The scheduler mock serves about 2 / (21 steps x 5 ms) = 19 requests/s of 20 tokens.
std::vector<std::string> rc_saturation_mock() {
  return {"--max-num-seqs",      "2", "--step-ms",       "5",
          "--step-us-per-token", "0", "--output-tokens", "20"};
}

TEST(EarlyStop, SaturationStopsARateFarAboveWhatTheServerServes) {
  MockServer mock(rc_saturation_mock());
  BenchRun run = run_llmperf(concat(
      base_args(mock), {"--rate", "100", "--arrival", "constant", "-n", "3000", "--max-tokens",
                        "20", "--no-probe", "--stop-on-saturation", "--saturation-window", "0.5"}));
  ASSERT_EQ(run.process.exit_code, kExitStopped) << diagnostics(run);
  rc_expect_run_files(rc_stopped_run_dir(run));
  const json& stop = run.summary.at("stopped_early");
  EXPECT_EQ(stop.at("reason"), "saturation");
  EXPECT_TRUE(contains(stop.at("detail").get<std::string>(), "requests outstanding grew"));
  // Six windows of 0.5 s at the least; far from the 30 s that 3000 requests at 100/s would take.
  EXPECT_GE(run.summary.at("run").at("duration_s").get<double>(), 3.0);
  EXPECT_LT(run.summary.at("run").at("duration_s").get<double>(), 15.0);
}

TEST(EarlyStop, SaturationLeavesARateWellBelowAlone) {
  MockServer mock(rc_saturation_mock());
  BenchRun run = run_llmperf(concat(
      base_args(mock), {"--rate", "5", "--arrival", "constant", "-n", "30", "--max-tokens", "20",
                        "--no-probe", "--stop-on-saturation", "--saturation-window", "0.5"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(run.summary.contains("stopped_early"));
  EXPECT_EQ(run.summary.at("requests").at("succeeded"), 30);
}

TEST(EarlyStop, SaturationNeedsAnOpenLoop) {
  MockServer mock({"--output-tokens", "4"});
  BenchRun run = run_llmperf(concat(base_args(mock), {"-n", "4", "--stop-on-saturation"}));
  EXPECT_EQ(run.process.exit_code, 2) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.err, "--stop-on-saturation judges an open loop"));
}

// The directory of the one run of `run`, which holds its repeats: run_llmperf lists the
// directories with a requests.jsonl, <run>/repeat_<k>.
fs::path rc_repeated_run_dir(const BenchRun& run) {
  EXPECT_FALSE(run.run_dirs.empty()) << diagnostics(run);
  return run.run_dirs.empty() ? fs::path() : run.run_dirs.front().parent_path();
}

TEST(Repeats, ThreeRepeatDirectoriesAndTheirMeans) {
  MockServer mock({"--output-tokens", "4", "--ttft-ms", "5"});
  BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "2", "-n", "6", "--num-runs", "3"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<fs::path>& repeats = run.run_dirs;
  ASSERT_EQ(repeats.size(), 3u) << diagnostics(run);
  const fs::path dir = rc_repeated_run_dir(run);
  for (const fs::path& repeat : repeats) EXPECT_EQ(repeat.parent_path(), dir);
  const json summary = json::parse(read_file((dir / "summary.json").string()));
  EXPECT_FALSE(fs::exists(dir / "requests.jsonl"));  // the repeats hold the records
  double qps_sum = 0;
  double ttft_sum = 0;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(repeats[k].filename(), "repeat_" + std::to_string(k + 1));
    rc_expect_run_files(repeats[k]);
    const json one = json::parse(read_file((repeats[k] / "summary.json").string()));
    EXPECT_EQ(one.at("requests").at("succeeded"), 6);
    EXPECT_FALSE(one.contains("repeats"));
    qps_sum += one.at("qps").get<double>();
    ttft_sum += one.at("metrics").at("ttft_ms").at("mean").get<double>();
  }
  const json& block = summary.at("repeats");
  EXPECT_EQ(block.at("qps").at("n"), 3);
  EXPECT_NEAR(block.at("qps").at("mean").get<double>(), qps_sum / 3, 1e-5 * qps_sum);
  EXPECT_NEAR(block.at("ttft_mean_ms").at("mean").get<double>(), ttft_sum / 3, 1e-5 * ttft_sum);
  for (const char* key : {"qps", "ttft_mean_ms", "latency_p99_s"}) {
    const json& m = block.at(key);
    EXPECT_LE(m.at("ci95_low").get<double>(), m.at("mean").get<double>()) << key;
    EXPECT_GE(m.at("ci95_high").get<double>(), m.at("mean").get<double>()) << key;
    EXPECT_EQ(m.at("noisy").get<bool>(), m.at("cv").get<double>() > 0.05) << key;
    EXPECT_EQ(m.at("values").size(), 3u) << key;
  }
  EXPECT_EQ(summary.at("config").at("num_runs"), 3);
  EXPECT_EQ(summary.at("run").at("output_dir"), dir.string());
  EXPECT_TRUE(contains(run.process.out, "Repeats of parallel_2_number_6: 3 runs"))
      << run.process.out;
  // `llmperf report` rebuilds every repeat of the sweep.
  const ProcessResult report =
      run_process({LLMPERF_BIN, "report", dir.parent_path().string()}, kTimeoutS);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  const json rows = json::parse(read_file((dir.parent_path() / "sweep_summary.json").string()));
  EXPECT_EQ(rows.size(), 3u) << rows.dump();  // one per repeat
}

TEST(Repeats, BaselineJudgesOnIntervals) {
  MockServer fast({"--output-tokens", "4", "--ttft-ms", "10"});
  BenchRun base =
      run_llmperf(concat(base_args(fast), {"--parallel", "2", "-n", "6", "--num-runs", "3"}));
  ASSERT_EQ(base.process.exit_code, 0) << diagnostics(base);
  const std::string baseline = (rc_repeated_run_dir(base) / "summary.json").string();
  ASSERT_TRUE(json::parse(read_file(baseline)).contains("repeats"));

  // TTFT 10 ms -> 80 ms: the intervals are far apart.
  MockServer slow({"--output-tokens", "4", "--ttft-ms", "80"});
  BenchRun worse = run_llmperf(concat(
      base_args(slow), {"--parallel", "2", "-n", "6", "--num-runs", "3", "--baseline", baseline}));
  EXPECT_EQ(worse.process.exit_code, 3) << diagnostics(worse);
  EXPECT_TRUE(contains(worse.process.out, "TTFT mean (ms)")) << worse.process.out;

  // The same server again: nothing regresses beyond a generous tolerance.
  BenchRun same =
      run_llmperf(concat(base_args(fast), {"--parallel", "2", "-n", "6", "--num-runs", "3",
                                           "--baseline", baseline, "--tolerance", "50%"}));
  EXPECT_EQ(same.process.exit_code, 0) << diagnostics(same);
}


TEST(Repeats, ASweepOfRepeatsGetsItsTableAndSlosJudgeTheInterval) {
  MockServer mock({"--output-tokens", "4", "--ttft-ms", "10"});
  const std::string junit = make_temp_dir() + "/junit.xml";
  // TTFT is about 10 ms in every repeat: 1000 ms holds, 1 ms is missed by the whole interval.
  BenchRun run = run_llmperf(concat(
      base_args(mock), {"--parallel", "1", "2", "-n", "4", "--num-runs", "3", "--slo",
                        "ttft.mean<=1000ms", "--slo", "ttft.mean<=1ms", "--junit", junit}));
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 6u) << diagnostics(run);
  const fs::path sweep = run.run_dirs.front().parent_path().parent_path();
  const json table = json::parse(read_file((sweep / "sweep_repeats.json").string()));
  ASSERT_EQ(table.size(), 2u) << table.dump();
  EXPECT_EQ(table[0].at("run"), "parallel_1_number_4");
  EXPECT_EQ(table[1].at("repeats"), 3);
  EXPECT_EQ(table[1].at("metrics").at("ttft_mean_ms").at("n"), 3);
  EXPECT_TRUE(fs::exists(sweep / "sweep_repeats.csv"));
  EXPECT_TRUE(contains(read_file((sweep / "sweep_repeats.md").string()), "parallel_2_number_4"));
  EXPECT_TRUE(contains(run.process.out, "Sweep over repeated runs")) << run.process.out;
  EXPECT_TRUE(contains(run.process.out, "SLOs on the 95 % interval of the repeats"))
      << run.process.out;

  // Each repeated run's summary.json holds the verdict on the interval.
  for (const char* name : {"parallel_1_number_4", "parallel_2_number_4"}) {
    const json summary = json::parse(read_file((sweep / name / "summary.json").string()));
    const std::string slo = summary.at("slo").dump();
    EXPECT_TRUE(contains(slo, "mean of 3 repeats")) << slo;
  }
  // JUnit: one test case per SLO of each repeated run (2 x 2), not one per repeat (12).
  const std::string xml = read_file(junit);
  size_t cases = 0;
  for (size_t at = xml.find("<testcase"); at != std::string::npos; at = xml.find("<testcase", at + 1)) {
    ++cases;
  }
  EXPECT_EQ(cases, 4u) << xml;
}

}  // namespace
}  // namespace llmperf::testing

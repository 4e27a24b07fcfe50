// `llmperf calibrate` end to end: it starts llmperf-mock itself, runs a small load against it and
// writes calibration.json. The verdict depends on how loaded the machine is, so only its shape
// and the numbers the mock fixes (its ITL, the matched counts) are asserted; plus the usage error
// and the missing-mock exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(CalibrateTest, SmallLoadWritesCalibrationJson) {
  const std::string dir = make_temp_dir();
  const ProcessResult run =
      run_process({LLMPERF_BIN, "calibrate", "--parallel", "8", "-n", "24", "--max-tokens", "10",
                   "--ttft-ms", "20", "--itl-ms", "5", "--outputs-dir", dir},
                  kTimeoutS);
  const std::string why =
      "exit " + std::to_string(run.exit_code) + "\nstdout:\n" + run.out + "\nstderr:\n" + run.err;
  ASSERT_FALSE(run.timed_out) << why;
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 3) << why;

  const json c = json::parse(read_file(dir + "/calibration.json"));
  EXPECT_EQ(c["schema"], "llmperf.calibration/1");
  EXPECT_EQ(c["planned_load"]["parallel"], 8);
  EXPECT_EQ(c["planned_load"]["requests"], 24);
  EXPECT_EQ(c["mock"]["itl_ms"], 5.0);
  const double server_itl_p50 = c["mock"]["measured_itl_ms"]["p50"].get<double>();
  EXPECT_GE(server_itl_p50, 4.0) << why;
  EXPECT_LE(server_itl_p50, 8.0) << why;
  EXPECT_GE(c["mock"]["measured_ttft_ms"]["p50"].get<double>(), 19.0);
  EXPECT_EQ(c["matched"]["requests"], 24) << why;
  EXPECT_EQ(c["matched"]["events"], 24 * 10) << why;
  EXPECT_EQ(c["matched"]["events_unmatched"], 0);
  EXPECT_EQ(c["errors_ms"]["itl"]["count"], 24 * 9);
  EXPECT_GE(c["errors_ms"]["stamp_delay"]["p50"].get<double>(), 0.0);
  EXPECT_TRUE(c["errors_ms"]["ttft"]["p99"].is_number());
  EXPECT_TRUE(c["client"]["cpu_s"].is_number());
  EXPECT_GE(c["client"]["threads"].get<int>(), 1);
  EXPECT_GE(c["recommendation"]["workers_needed"].get<int>(), 1);
  EXPECT_FALSE(c["recommendation"]["text"].get<std::string>().empty());

  const std::string verdict = c["verdict"];
  EXPECT_EQ(c["faithful"].get<bool>(), run.exit_code == 0) << why;
  EXPECT_EQ(verdict, run.exit_code == 0 ? "faithful" : "not faithful");
  EXPECT_NE(run.out.find("Verdict: " + verdict + "\n"), std::string::npos) << why;
  if (run.exit_code == 3) {
    EXPECT_FALSE(c["reasons"].empty());
  }
  // The run's own outputs sit beside it, and its summary went to a file, not to stdout.
  EXPECT_TRUE(fs::exists(c["run_dir"].get<std::string>() + "/requests.jsonl"));
  EXPECT_TRUE(fs::exists(dir + "/mock_events.log"));
  EXPECT_TRUE(fs::exists(dir + "/run_summary.txt"));
  fs::remove_all(dir);
}

TEST(CalibrateTest, ZeroParallelIsAUsageError) {
  const ProcessResult run = run_process({LLMPERF_BIN, "calibrate", "--parallel", "0"}, kTimeoutS);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--parallel"), std::string::npos) << run.err;
}

TEST(CalibrateTest, MissingMockNamesThePath) {
  const std::string dir = make_temp_dir();
  const ProcessResult run = run_process(
      {LLMPERF_BIN, "calibrate", "--mock", "/nonexistent/llmperf-mock", "--outputs-dir", dir},
      kTimeoutS);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("/nonexistent/llmperf-mock"), std::string::npos) << run.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace llmperf::testing

// `llmperf report` over a real run's directory: the rebuilt summary.json keeps the config block the
// run wrote, byte for byte and in its order, flags that shape no report (--rate, --slo, --goodput,
// --duration, ...) included.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

// The text of summary.json's "config" block, from its key to the next block's.
std::string config_block(const std::string& summary) {
  const size_t from = summary.find("\n  \"config\": ");
  const size_t to = summary.find("\n  \"dataset\": ");
  if (from == std::string::npos || to == std::string::npos || to < from) return "";
  return summary.substr(from, to - from);
}

TEST(IntegrationReport, RebuildKeepsTheConfigBlockOfARunWithRateSloAndGoodput) {
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "8"});
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--parallel", "2", "-n", "6", "--rate", "50", "--arrival", "gamma",
                               "--burstiness", "0.5", "--slo", "success_rate>=50%", "--goodput",
                               "ttft:10000", "--warmup-num", "1", "--no-timestamp"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u);
  const fs::path dir = run.run_dirs.front();
  const std::string written = read_file((dir / "summary.json").string());
  const std::string config = config_block(written);
  ASSERT_FALSE(config.empty()) << written;

  const ProcessResult report = run_process({LLMPERF_BIN, "report", dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const std::string rebuilt = read_file((dir / "summary.json").string());
  EXPECT_EQ(config_block(rebuilt), config);

  const ordered_json c = ordered_json::parse(rebuilt)["config"];
  EXPECT_EQ(c["rate"], ordered_json::array({50.0}));
  EXPECT_EQ(c["arrival"], "gamma");
  EXPECT_EQ(c["slo"], ordered_json::array({"success_rate>=50%"}));
  EXPECT_EQ(c["goodput"], ordered_json::array({"ttft:10000"}));
  EXPECT_EQ(c["warmup_num"], 1.0);
  // And the reports that use them say what the run did.
  const ordered_json open_loop = ordered_json::parse(rebuilt)["open_loop"];
  EXPECT_EQ(open_loop["arrival"], "gamma");
  EXPECT_EQ(open_loop["burstiness"], 0.5);
}

}  // namespace
}  // namespace llmperf::testing

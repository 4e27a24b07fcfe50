// `llmperf calibrate`'s flags (cli/calibrate.h): defaults, checks, and the benchmark Config its
// run uses. The run itself is tests/integration/integration_calibrate_test.cpp.
#include "cli/calibrate.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace llmperf {
namespace {

CalibrateCli parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv = {"llmperf", "calibrate"};
  argv.insert(argv.end(), args.begin(), args.end());
  return parse_calibrate(static_cast<int>(argv.size()), argv.data());
}

TEST(CalibrateCliTest, DefaultsAimAtTenSeconds) {
  const CalibrateCli cli = parse({});
  ASSERT_TRUE(cli.proceed);
  EXPECT_EQ(cli.plan.parallel, 100);
  EXPECT_EQ(cli.plan.threads, 0);
  EXPECT_EQ(cli.plan.max_tokens, 100);
  // A request lasts 100 + 99 x 10 ms = 1.09 s: 10 rounds of 100 requests.
  EXPECT_EQ(cli.plan.requests(), 1000);
  CalibrationPlan open = cli.plan;
  open.rate = 40;
  EXPECT_EQ(open.requests(), 400);
}

TEST(CalibrateCliTest, ParsesFlags) {
  const CalibrateCli cli = parse({"--parallel", "8", "-n", "24", "--max-tokens", "10", "--ttft-ms",
                                  "20", "--itl-ms", "5", "--threads", "2", "--rate", "50", "--mock",
                                  "/x/llmperf-mock", "--outputs-dir", "/tmp/c"});
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.plan.parallel, 8);
  EXPECT_EQ(cli.plan.requests(), 24);
  EXPECT_EQ(cli.plan.threads, 2);
  EXPECT_DOUBLE_EQ(cli.plan.rate, 50);
  EXPECT_DOUBLE_EQ(cli.plan.itl_ms, 5);
  EXPECT_EQ(cli.plan.mock_path, "/x/llmperf-mock");
}

TEST(CalibrateCliTest, BadFlagsAreUsageErrors) {
  for (const auto& args :
       {std::vector<const char*>{"--parallel", "0"}, std::vector<const char*>{"--threads", "many"},
        std::vector<const char*>{"--itl-ms", "-1"}, std::vector<const char*>{"--bogus"}}) {
    std::vector<const char*> argv = {"llmperf", "calibrate"};
    argv.insert(argv.end(), args.begin(), args.end());
    const CalibrateCli cli = parse_calibrate(static_cast<int>(argv.size()), argv.data());
    EXPECT_FALSE(cli.proceed) << args.front();
    EXPECT_EQ(cli.outcome.exit_code, 2) << args.front();
    EXPECT_NE(cli.outcome.err.find("llmperf calibrate:"), std::string::npos);
  }
  const CalibrateCli help = parse({"--help"});
  EXPECT_FALSE(help.proceed);
  EXPECT_EQ(help.outcome.exit_code, 0);
  EXPECT_NE(help.outcome.out.find("--ttft-ms"), std::string::npos);
}

TEST(CalibrateCliTest, ConfigStreamsTheMocksFixedLength) {
  CalibrationPlan plan;
  plan.parallel = 8;
  plan.number = 24;
  plan.max_tokens = 10;
  plan.rate = 30;
  const Config c = calibration_config(plan, "http://127.0.0.1:4321/v1/chat/completions", "/tmp/o");
  EXPECT_TRUE(c.body.stream);
  EXPECT_EQ(c.target.api_kind, ApiKind::kChat);
  EXPECT_EQ(c.body.max_tokens, 10);
  EXPECT_EQ(c.load.parallel, std::vector<int>{8});
  EXPECT_EQ(c.load.number, std::vector<int64_t>{24});
  EXPECT_EQ(c.load.rate, std::vector<double>{30});
  EXPECT_DOUBLE_EQ(c.load.warmup_num, 8);  // a second's worth at 30/s, at most one per slot
  plan.rate = -1;
  EXPECT_EQ(plan.warmup(), 8);  // closed loop: one per slot
  EXPECT_EQ(c.output.outputs_dir, "/tmp/o");
  EXPECT_TRUE(c.output.no_timestamp);
  EXPECT_THROW(calibration_config(plan, "not a url", "/tmp/o"), std::invalid_argument);
}

}  // namespace
}  // namespace llmperf

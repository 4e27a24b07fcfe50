// --push-gateway and --push-interval: bound to Config (default interval 5 s, off by default), and
// refused with exit 2 for a URL that is not http(s) (without showing its credentials) or an
// interval outside 0.1 to 3600 s.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli.h"

namespace llmperf {
namespace {

struct PushParsed {
  BenchmarkCli cli;
  Config config;
};

PushParsed push_parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"llmperf", "--url", "http://127.0.0.1:8000/v1/chat/completions",
                                   "--model", "qwen",  "--prompt",
                                   "hi"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  PushParsed parsed;
  parsed.cli = parse_cli(static_cast<int>(argv.size()), argv.data(), parsed.config);
  return parsed;
}

TEST(PushFlags, OffByDefaultAndBoundWhenGiven) {
  const PushParsed none = push_parse({});
  ASSERT_TRUE(none.cli.proceed) << none.cli.outcome.err;
  EXPECT_EQ(none.config.output.push_gateway, "");
  EXPECT_EQ(none.config.output.push_interval_s, 5);
  EXPECT_EQ(none.config.server.metrics_interval_s,
            1);  // the server's scrapes keep their own interval

  const PushParsed given =
      push_parse({"--push-gateway", "http://gw:9091", "--push-interval", "0.5"});
  ASSERT_TRUE(given.cli.proceed) << given.cli.outcome.err;
  EXPECT_EQ(given.config.output.push_gateway, "http://gw:9091");
  EXPECT_EQ(given.config.output.push_interval_s, 0.5);
}

TEST(PushFlags, RefusesOtherSchemesAndIntervalsOutOfRange) {
  const PushParsed scheme = push_parse({"--push-gateway", "ftp://user:hunter22@gw:9091"});
  EXPECT_FALSE(scheme.cli.proceed);
  EXPECT_EQ(scheme.cli.outcome.exit_code, 2);
  EXPECT_NE(scheme.cli.outcome.err.find("--push-gateway must start with http:// or https://"),
            std::string::npos)
      << scheme.cli.outcome.err;
  EXPECT_EQ(scheme.cli.outcome.err.find("hunter22"), std::string::npos) << scheme.cli.outcome.err;
  for (const char* interval : {"0", "0.05", "3601"}) {
    const PushParsed bad =
        push_parse({"--push-gateway", "http://gw:9091", "--push-interval", interval});
    EXPECT_FALSE(bad.cli.proceed) << interval;
    EXPECT_NE(bad.cli.outcome.err.find("--push-interval must be between 0.1 and 3600 seconds"),
              std::string::npos)
        << bad.cli.outcome.err;
  }
}

}  // namespace
}  // namespace llmperf

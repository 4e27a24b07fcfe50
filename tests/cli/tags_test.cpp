// --tag key=value (cli/tags.h): parsed into Config::tags in order, refused with the flag's name
// when a key is not a Prometheus label name, missing, or given twice.
#include "cli/tags.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "core/config.h"

namespace llmperf {
namespace {

std::string tag_error(const std::string& text) {
  try {
    parse_tag(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Tags, KeyAndValueSplitAtTheFirstEquals) {
  EXPECT_EQ(parse_tag("commit=abc123"), (Tag{"commit", "abc123"}));
  EXPECT_EQ(parse_tag("expr=a=b"), (Tag{"expr", "a=b"}));
  EXPECT_EQ(parse_tag("_empty="), (Tag{"_empty", ""}));
  EXPECT_EQ(parse_tag("deploy_2=r\xC3\xA9sum\xC3\xA9 / v2"), (Tag{"deploy_2", "r\xC3\xA9sum\xC3\xA9 / v2"}));
}

TEST(Tags, BadTagsAreRefusedSayingWhy) {
  EXPECT_EQ(tag_error("commit"), "--tag 'commit': expected key=value");
  EXPECT_EQ(tag_error("=x"), "--tag '=x': empty key");
  EXPECT_NE(tag_error("2fast=x").find("not starting with a digit"), std::string::npos);
  EXPECT_NE(tag_error("a-b=x").find("letters, digits and '_'"), std::string::npos);
  EXPECT_NE(tag_error("__name__=x").find("Prometheus' own"), std::string::npos);
  EXPECT_NE(tag_error("k=a\nb").find("control character"), std::string::npos);
  EXPECT_THROW(parse_tags({"a=1", "b=2", "a=3"}), std::invalid_argument);
}

TEST(Tags, TheFlagFillsConfigInOrderAndAnErrorExitsTwo) {
  const std::vector<std::string> base = {"llmperf", "--url", "http://127.0.0.1:8000/v1/completions",
                                         "--model", "m", "--prompt", "hi"};
  std::vector<std::string> args = base;
  for (const char* extra : {"--tag", "commit=abc", "--tag", "env=staging"}) args.push_back(extra);
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Config config;
  const BenchmarkCli parsed = parse_cli(static_cast<int>(argv.size()), argv.data(), config);
  ASSERT_TRUE(parsed.proceed) << parsed.outcome.err;
  EXPECT_EQ(config.output.tags, (std::vector<Tag>{{"commit", "abc"}, {"env", "staging"}}));

  args = base;
  for (const char* extra : {"--tag", "commit=abc", "--tag", "commit=def"}) args.push_back(extra);
  argv.clear();
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Config refused;
  const BenchmarkCli error = parse_cli(static_cast<int>(argv.size()), argv.data(), refused);
  EXPECT_FALSE(error.proceed);
  EXPECT_EQ(error.outcome.exit_code, 2);
  EXPECT_NE(error.outcome.err.find("--tag commit given twice"), std::string::npos)
      << error.outcome.err;
}

}  // namespace
}  // namespace llmperf

// Tests for parse_cli: EvalScope-compatible flags land in Config, errors exit 2 naming the flag,
// and --help documents every flag, the metrics and the exit codes.
#include "cli/cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace llmperf {
namespace {

struct Parsed {
  CliOutcome outcome;
  Config config;
};

Parsed parse(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"llmperf"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Parsed parsed;
  parsed.outcome = parse_cli(static_cast<int>(argv.size()), argv.data(), parsed.config);
  return parsed;
}

// The minimal valid command plus `extra`.
Parsed parse_with(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--url",          "http://127.0.0.1:8000/v1/chat/completions",
                                   "--model",        "qwen",
                                   "--dataset-path", "data.jsonl"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse(args);
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("OPENAI_API_KEY"); }
  void TearDown() override { unsetenv("OPENAI_API_KEY"); }
};

TEST_F(CliTest, EvalScopeSeedCommand) {
  Parsed p = parse({"--api", "openai", "--url", "http://127.0.0.1:8000/v1/chat/completions",
                    "--model", "qwen", "--dataset", "openqa", "--dataset-path",
                    "./datasets/open_qa.jsonl", "--max-prompt-length", "8000", "--stop",
                    "<|im_end|>", "--read-timeout=120", "--parallel", "100", "-n", "1000"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_TRUE(p.outcome.warnings.empty());
  const Config& c = p.config;
  EXPECT_EQ(c.api, "openai");
  EXPECT_EQ(c.url, "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(c.api_kind, ApiKind::kChat);
  EXPECT_EQ(c.model, "qwen");
  EXPECT_EQ(c.dataset, "openqa");
  EXPECT_EQ(c.dataset_path, "./datasets/open_qa.jsonl");
  EXPECT_EQ(c.max_prompt_length, 8000);
  EXPECT_EQ(c.min_prompt_length, 0);
  EXPECT_EQ(c.stop, std::vector<std::string>{"<|im_end|>"});
  EXPECT_DOUBLE_EQ(c.read_timeout_s, 120);
  EXPECT_DOUBLE_EQ(c.connect_timeout_s, 600);
  EXPECT_EQ(c.parallel, std::vector<int>{100});
  EXPECT_EQ(c.number, std::vector<int64_t>{1000});
  ASSERT_EQ(c.runs().size(), 1u);
  EXPECT_EQ(c.runs()[0], (std::pair<int, int64_t>{100, 1000}));
  EXPECT_TRUE(c.stream);
  EXPECT_EQ(c.max_tokens, 2048);
  EXPECT_EQ(c.temperature, 0.0);
  EXPECT_FALSE(c.top_p.has_value());
  EXPECT_TRUE(c.api_key.empty());
  EXPECT_TRUE(c.probe);
}

TEST_F(CliTest, StopFollowedByMoreFlags) {
  Parsed p = parse_with({"--stop", "<|im_end|>", "</s>", "--max-tokens", "64"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.stop, (std::vector<std::string>{"<|im_end|>", "</s>"}));
  EXPECT_EQ(p.config.max_tokens, 64);
}

TEST_F(CliTest, SweepListsPairByPosition) {
  Parsed p = parse_with({"--parallel", "8", "16", "32", "-n", "100", "200", "400"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  std::vector<std::pair<int, int64_t>> expected = {{8, 100}, {16, 200}, {32, 400}};
  EXPECT_EQ(p.config.runs(), expected);
}

TEST_F(CliTest, SingleNumberAppliesToEveryParallel) {
  Parsed p = parse_with({"--parallel", "1", "2", "4", "--number", "50"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  std::vector<std::pair<int, int64_t>> expected = {{1, 50}, {2, 50}, {4, 50}};
  EXPECT_EQ(p.config.runs(), expected);
}

TEST_F(CliTest, MismatchedListLengthsExit2NamingBothFlags) {
  Parsed p = parse_with({"--parallel", "8", "16", "32", "-n", "100", "200"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--parallel has 3 values but -n/--number has 2"),
            std::string::npos)
      << p.outcome.output;
  EXPECT_EQ(p.outcome.output.rfind("llmperf: error: ", 0), 0u);
  EXPECT_NE(p.outcome.output.find("Run with --help for usage."), std::string::npos);
}

TEST_F(CliTest, ParallelZeroExit2NamingFlag) {
  Parsed p = parse_with({"--parallel", "0"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--parallel"), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, AllValidationErrorsReportedOnePerLine) {
  Parsed p = parse({"--url", "ftp://x", "--parallel", "0", "--top-p", "0"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  const std::string& out = p.outcome.output;
  for (const char* flag : {"--url", "--model", "--parallel", "--top-p", "--dataset-path"}) {
    EXPECT_NE(out.find("llmperf: error: " + std::string(flag)), std::string::npos) << flag << out;
  }
}

TEST_F(CliTest, NoStreamAndStream) {
  EXPECT_FALSE(parse_with({"--no-stream"}).config.stream);
  EXPECT_TRUE(parse_with({"--stream"}).config.stream);
  EXPECT_EQ(parse_with({"--stream", "--no-stream"}).outcome.exit_code, 2);
}

TEST_F(CliTest, FlagsAndNegativeAndFloatValues) {
  Parsed p = parse_with({"--insecure",
                         "--debug",
                         "--no-probe",
                         "--temperature",
                         "0.7",
                         "--top-p",
                         "0.9",
                         "--min-tokens",
                         "5",
                         "--stop-token-ids",
                         "151643",
                         "151645",
                         "--sleep-interval",
                         "0.5",
                         "--seed",
                         "42",
                         "--threads",
                         "4",
                         "--percentiles",
                         "50",
                         "99.9",
                         "--name",
                         "run1",
                         "--outputs-dir",
                         "/tmp/o",
                         "--total-timeout",
                         "0",
                         "--connect-timeout",
                         "2.5"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  const Config& c = p.config;
  EXPECT_TRUE(c.insecure);
  EXPECT_TRUE(c.debug);
  EXPECT_FALSE(c.probe);
  EXPECT_EQ(c.temperature, 0.7);
  EXPECT_EQ(c.top_p, 0.9);
  EXPECT_EQ(c.min_tokens, 5);
  EXPECT_EQ(c.stop_token_ids, (std::vector<int64_t>{151643, 151645}));
  EXPECT_DOUBLE_EQ(c.sleep_interval_s, 0.5);
  EXPECT_EQ(c.seed, 42u);
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.percentiles, (std::vector<double>{50, 99.9}));
  EXPECT_EQ(c.name, "run1");
  EXPECT_EQ(c.outputs_dir, "/tmp/o");
  EXPECT_DOUBLE_EQ(c.total_timeout_s, 0);
  EXPECT_DOUBLE_EQ(c.connect_timeout_s, 2.5);

  Parsed negative = parse_with({"--temperature", "-1"});
  EXPECT_EQ(negative.outcome.exit_code, 2);
  EXPECT_NE(negative.outcome.output.find("--temperature must be >= 0"), std::string::npos)
      << negative.outcome.output;
}

TEST_F(CliTest, StopTokenIdsMustBeIntegers) {
  Parsed p = parse_with({"--stop-token-ids", "abc"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--stop-token-ids"), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, HeadersSplitAtFirstEquals) {
  Parsed p = parse_with({"--headers", "X-A=1", "X-B=a=b", "X-Empty="});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  std::vector<std::pair<std::string, std::string>> expected = {
      {"X-A", "1"}, {"X-B", "a=b"}, {"X-Empty", ""}};
  EXPECT_EQ(p.config.headers, expected);
}

TEST_F(CliTest, HeaderWithoutEqualsNamesFlagAndItem) {
  Parsed p = parse_with({"--headers", "X-A=1", "X-Broken"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--headers"), std::string::npos);
  EXPECT_NE(p.outcome.output.find("\"X-Broken\""), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, ExtraArgsObjectAccepted) {
  Parsed p = parse_with({"--extra-args", R"({"ignore_eos": true})"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.extra_args, R"({"ignore_eos": true})");
}

TEST_F(CliTest, ExtraArgsInvalidJsonOrNonObjectRejected) {
  for (const char* bad : {"{ignore_eos: true}", "[1, 2]", "42"}) {
    Parsed p = parse_with({"--extra-args", bad});
    EXPECT_EQ(p.outcome.exit_code, 2) << bad;
    EXPECT_NE(p.outcome.output.find("--extra-args"), std::string::npos) << p.outcome.output;
  }
}

TEST_F(CliTest, PromptFromFileReplacesDatasetPath) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("llmperf_cli_prompt_" + std::to_string(getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out << "第一行\nsecond line\n";
  }
  Parsed p = parse({"--model", "qwen", "--prompt", "@" + path.string()});
  std::filesystem::remove(path);
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.prompt, "第一行\nsecond line\n");
  EXPECT_TRUE(p.config.dataset_path.empty());
}

TEST_F(CliTest, PromptTextKeptVerbatim) {
  Parsed p = parse({"--model", "qwen", "--prompt", "hello world"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.prompt, "hello world");
}

TEST_F(CliTest, PromptMissingFileNamed) {
  Parsed p = parse({"--model", "qwen", "--prompt", "@/nonexistent/llmperf_prompt.txt"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--prompt"), std::string::npos);
  EXPECT_NE(p.outcome.output.find("/nonexistent/llmperf_prompt.txt"), std::string::npos)
      << p.outcome.output;
}

TEST_F(CliTest, ApiKeyFromEnvironmentWhenFlagAbsent) {
  setenv("OPENAI_API_KEY", "sk-from-env", 1);
  EXPECT_EQ(parse_with({}).config.api_key, "sk-from-env");
  EXPECT_EQ(parse_with({"--api-key", "sk-flag"}).config.api_key, "sk-flag");
}

TEST_F(CliTest, ApiKeyNeverEchoedInErrors) {
  Parsed p = parse({"--api-key", "sk-secret-value", "--parallel", "0"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_EQ(p.outcome.output.find("sk-secret-value"), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, UnknownFlagExit2) {
  Parsed p = parse_with({"--no-such-flag", "1"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("--no-such-flag"), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, BadNumberAndMissingValueExit2) {
  EXPECT_EQ(parse_with({"--parallel", "many"}).outcome.exit_code, 2);
  EXPECT_EQ(parse_with({"--read-timeout"}).outcome.exit_code, 2);
}

TEST_F(CliTest, CompletionsUrlSelectsCompletionsApi) {
  Parsed p = parse({"--url", "http://host:8000/v1/completions", "--model", "m", "--prompt", "hi"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.api_kind, ApiKind::kCompletions);
}

TEST_F(CliTest, IgnoredCompatibilityFlagsWarnWithoutEchoingValues) {
  Parsed p = parse_with({"--tokenizer-path", "/models/qwen", "--wandb-api-key", "wb-secret"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  ASSERT_EQ(p.outcome.warnings.size(), 2u);
  EXPECT_NE(p.outcome.warnings[0].find("--tokenizer-path"), std::string::npos);
  EXPECT_NE(p.outcome.warnings[1].find("--wandb-api-key"), std::string::npos);
  EXPECT_EQ(p.outcome.warnings[1].find("wb-secret"), std::string::npos);
}

// The synthetic workloads: --dataset random with lengths in tokens.
Parsed parse_random(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--url",     "http://127.0.0.1:8000/v1/chat/completions",
                                   "--model",   "qwen",
                                   "--dataset", "random"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse(args);
}

TEST_F(CliTest, RandomNeedsNoFileAndIgnoresEosByDefault) {
  Parsed p = parse_random({"--input-tokens", "1024", "--output-tokens", "128"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_EQ(p.config.input_tokens, (std::vector<int64_t>{1024}));
  EXPECT_EQ(p.config.output_tokens, (std::vector<int64_t>{128}));
  EXPECT_EQ(p.config.ignore_eos, std::optional<bool>(true));
  EXPECT_EQ(parse_random({"--input-tokens", "8", "--no-ignore-eos"}).config.ignore_eos,
            std::optional<bool>(false));
  // A dataset of text leaves outputs to the model unless asked.
  EXPECT_EQ(parse_with({}).config.ignore_eos, std::optional<bool>(false));
  EXPECT_EQ(parse_with({"--ignore-eos"}).config.ignore_eos, std::optional<bool>(true));
  EXPECT_EQ(parse_random({"--ignore-eos", "--no-ignore-eos"}).outcome.exit_code, 2);
}

TEST_F(CliTest, InputAndOutputListsMakeAGrid) {
  Parsed p = parse_random({"--input-tokens", "100", "500", "--output-tokens", "16", "64",
                           "--parallel", "4", "8", "-n", "32"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  const auto runs = p.config.run_specs();
  ASSERT_EQ(runs.size(), 8u);  // 2 concurrencies x 2 inputs x 2 outputs
  EXPECT_EQ(runs[0].parallel, 4);
  EXPECT_EQ(runs[0].input_tokens, 100);
  EXPECT_EQ(runs[0].output_tokens, 16);
  EXPECT_EQ(runs[1].output_tokens, 64);
  EXPECT_EQ(runs[2].input_tokens, 500);
  EXPECT_EQ(runs[4].parallel, 8);
}

TEST_F(CliTest, MaxTokensTakesOneValueOrARange) {
  Parsed one = parse_with({"--max-tokens", "100"});
  ASSERT_TRUE(one.outcome.proceed) << one.outcome.output;
  EXPECT_EQ(one.config.max_tokens, std::optional<int64_t>(100));
  EXPECT_EQ(one.config.max_tokens_low, -1);
  Parsed range = parse_with({"--max-tokens", "10", "20"});
  ASSERT_TRUE(range.outcome.proceed) << range.outcome.output;
  EXPECT_EQ(range.config.max_tokens, std::optional<int64_t>(20));
  EXPECT_EQ(range.config.max_tokens_low, 10);
  Parsed reversed = parse_with({"--max-tokens", "20", "10"});
  EXPECT_EQ(reversed.outcome.exit_code, 2);
  EXPECT_NE(reversed.outcome.output.find("--max-tokens MIN MAX"), std::string::npos);
  EXPECT_EQ(parse_with({"--max-tokens", "1", "2", "3"}).outcome.exit_code, 2);
}

TEST_F(CliTest, SpeedBenchmarkIsAPresetGridOnTheCompletionsApi) {
  Parsed p = parse_random({});
  EXPECT_EQ(p.outcome.exit_code, 2);  // random alone has no lengths
  Parsed preset = parse({"--url", "http://h:8000/v1/chat/completions", "--model", "qwen",
                         "--dataset", "speed_benchmark"});
  ASSERT_TRUE(preset.outcome.proceed) << preset.outcome.output;
  EXPECT_EQ(preset.config.input_tokens, (std::vector<int64_t>{1, 6144, 14336, 30720}));
  EXPECT_EQ(preset.config.output_tokens, (std::vector<int64_t>{2048}));
  EXPECT_EQ(preset.config.parallel, (std::vector<int>{1}));
  EXPECT_EQ(preset.config.number, (std::vector<int64_t>{2}));
  EXPECT_EQ(preset.config.url, "http://h:8000/v1/completions");
  EXPECT_EQ(preset.config.api_kind, ApiKind::kCompletions);
  ASSERT_EQ(preset.outcome.warnings.size(), 1u);
  EXPECT_NE(preset.outcome.warnings[0].find("/v1/completions"), std::string::npos);
  // Flags given explicitly win over the preset.
  Parsed mine = parse({"--url", "http://h:8000/v1/completions", "--model", "qwen", "--dataset",
                       "speed_benchmark", "--parallel", "4", "--input-tokens", "128"});
  ASSERT_TRUE(mine.outcome.proceed) << mine.outcome.output;
  EXPECT_EQ(mine.config.parallel, (std::vector<int>{4}));
  EXPECT_EQ(mine.config.input_tokens, (std::vector<int64_t>{128}));
  EXPECT_TRUE(mine.outcome.warnings.empty());
}

TEST_F(CliTest, TokenizePromptMovesToTheCompletionsApi) {
  Parsed p = parse_random({"--input-tokens", "100", "--tokenize-prompt"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  EXPECT_TRUE(p.config.tokenize_prompt);
  EXPECT_EQ(p.config.url, "http://127.0.0.1:8000/v1/completions");
  EXPECT_EQ(p.config.api_kind, ApiKind::kCompletions);
  ASSERT_EQ(p.outcome.warnings.size(), 1u);
  EXPECT_NE(p.outcome.warnings[0].find("--tokenize-prompt"), std::string::npos);
}

TEST_F(CliTest, TokenizerPathIsNotNeededAndSaysWhy) {
  Parsed p = parse_random({"--input-tokens", "100", "--tokenizer-path", "/models/qwen"});
  ASSERT_TRUE(p.outcome.proceed) << p.outcome.output;
  ASSERT_EQ(p.outcome.warnings.size(), 1u);
  EXPECT_NE(p.outcome.warnings[0].find("counts tokens with the server"), std::string::npos)
      << p.outcome.warnings[0];
}

TEST_F(CliTest, QueryTemplateRejectedWithGuidance) {
  Parsed p = parse_with({"--query-template", "{}"});
  EXPECT_EQ(p.outcome.exit_code, 2);
  EXPECT_NE(p.outcome.output.find("line_by_line"), std::string::npos) << p.outcome.output;
}

TEST_F(CliTest, HelpListsEveryFlagMetricsAndExitCodes) {
  Parsed p = parse({"--help"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 0);
  const std::string& help = p.outcome.output;
  for (const char* flag : {"--url",
                           "--model",
                           "--api",
                           "--api-key",
                           "--headers",
                           "--insecure",
                           "--dataset",
                           "--dataset-path",
                           "--prompt",
                           "--min-prompt-length",
                           "--max-prompt-length",
                           "--parallel",
                           "-n,",
                           "--number",
                           "--threads",
                           "--sleep-interval",
                           "--seed",
                           "--stream",
                           "--no-stream",
                           "--max-tokens",
                           "--min-tokens",
                           "--temperature",
                           "--top-p",
                           "--stop",
                           "--stop-token-ids",
                           "--extra-args",
                           "--connect-timeout",
                           "--read-timeout",
                           "--total-timeout",
                           "--outputs-dir",
                           "--name",
                           "--log-every-n-query",
                           "--debug",
                           "--percentiles",
                           "--no-probe",
                           "--version",
                           "--tokenizer-path",
                           "--input-tokens",
                           "--output-tokens",
                           "--prefix-length",
                           "--ignore-eos",
                           "--no-ignore-eos",
                           "--tokenize-prompt",
                           "--tokenize-url",
                           "--wandb-api-key",
                           "--swanlab-api-key"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  }
  for (const char* word :
       {"TTFT", "TTFB", "TPOT", "ITL", "E2E", "QPS", "Percentiles", "Failures", "Exit codes",
        "Target", "Dataset", "Load", "Request body", "Timeouts", "Output"}) {
    EXPECT_NE(help.find(word), std::string::npos) << word;
  }
  EXPECT_NE(help.find("21600"), std::string::npos);
  EXPECT_NE(help.find("2048"), std::string::npos);
}

TEST_F(CliTest, HelpNeedsNoModel) { EXPECT_EQ(parse({"-h"}).outcome.exit_code, 0); }

TEST_F(CliTest, VersionPrintsVersion) {
  Parsed p = parse({"--version"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 0);
  EXPECT_EQ(p.outcome.output, "llmperf 0.1.0\n");
}

}  // namespace
}  // namespace llmperf

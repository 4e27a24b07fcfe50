// Tests for parse_cli: EvalScope-compatible flags land in Config, errors exit 2 naming the flag,
// and --help documents every flag, the metrics and the exit codes.
#include "cli/cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
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
  BenchmarkCli cli;
  Config config;
};

Parsed parse(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"llmperf"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Parsed parsed;
  parsed.cli = parse_cli(static_cast<int>(argv.size()), argv.data(), parsed.config);
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

std::vector<std::string> concat_args(std::vector<std::string> a,
                                     const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
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
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.cli.warnings.empty());
  const Config& c = p.config;
  EXPECT_EQ(c.target.api, "openai");
  EXPECT_EQ(c.target.url, "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(c.target.api_kind, ApiKind::kChat);
  EXPECT_EQ(c.target.model, "qwen");
  EXPECT_EQ(c.workload.dataset, "openqa");
  EXPECT_EQ(c.workload.dataset_path, "./datasets/open_qa.jsonl");
  EXPECT_EQ(c.workload.max_prompt_length, 8000);
  EXPECT_EQ(c.workload.min_prompt_length, 0);
  EXPECT_EQ(c.body.stop, std::vector<std::string>{"<|im_end|>"});
  EXPECT_DOUBLE_EQ(c.target.read_timeout_s, 120);
  EXPECT_DOUBLE_EQ(c.target.connect_timeout_s, 600);
  EXPECT_EQ(c.load.parallel, std::vector<int>{100});
  EXPECT_EQ(c.load.number, std::vector<int64_t>{1000});
  ASSERT_EQ(runs(c).size(), 1u);
  EXPECT_EQ(runs(c)[0], (std::pair<int, int64_t>{100, 1000}));
  EXPECT_TRUE(c.body.stream);
  EXPECT_EQ(c.body.max_tokens, 2048);
  EXPECT_EQ(c.body.temperature, 0.0);
  EXPECT_FALSE(c.body.top_p.has_value());
  EXPECT_TRUE(c.target.api_key.empty());
  EXPECT_TRUE(c.target.probe);
}

TEST_F(CliTest, StopFollowedByMoreFlags) {
  Parsed p = parse_with({"--stop", "<|im_end|>", "</s>", "--max-tokens", "64"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.body.stop, (std::vector<std::string>{"<|im_end|>", "</s>"}));
  EXPECT_EQ(p.config.body.max_tokens, 64);
}

// --url given several times: replicas. The first is Config::url; one --url keeps urls empty;
// --tokenize-prompt moves every replica to /completions alike.
TEST_F(CliTest, UrlGivenSeveralTimesListsTheReplicas) {
  Parsed one = parse_with({});
  ASSERT_TRUE(one.cli.proceed) << one.cli.outcome.err;
  EXPECT_TRUE(one.config.target.urls.empty());
  EXPECT_EQ(one.config.target.url_policy, "round-robin");
  Parsed p = parse_with(
      {"--url", "http://10.0.0.2:8000/v1/chat/completions", "--url-policy", "least-inflight"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(p.config.target.urls,
            (std::vector<std::string>{"http://127.0.0.1:8000/v1/chat/completions",
                                      "http://10.0.0.2:8000/v1/chat/completions"}));
  EXPECT_EQ(p.config.target.url_policy, "least-inflight");
  Parsed tokens =
      parse_with({"--url", "http://10.0.0.2:8000/v1/chat/completions", "--tokenize-prompt",
                  "--dataset", "random", "--input-tokens", "8", "--output-tokens", "8"});
  ASSERT_TRUE(tokens.cli.proceed) << tokens.cli.outcome.err;
  EXPECT_EQ(tokens.config.target.urls[1], "http://10.0.0.2:8000/v1/completions");
  EXPECT_EQ(tokens.config.target.url, tokens.config.target.urls[0]);
  Parsed metrics = parse_with({"--url", "http://10.0.0.2:8000/v1/chat/completions", "--metrics-url",
                               "http://10.0.0.2:8000/metrics"});
  EXPECT_EQ(metrics.cli.outcome.exit_code, 2);
  EXPECT_NE(metrics.cli.outcome.err.find("--metrics-url"), std::string::npos);
}

TEST_F(CliTest, SweepListsPairByPosition) {
  Parsed p = parse_with({"--parallel", "8", "16", "32", "-n", "100", "200", "400"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  std::vector<std::pair<int, int64_t>> expected = {{8, 100}, {16, 200}, {32, 400}};
  EXPECT_EQ(runs(p.config), expected);
}

TEST_F(CliTest, SingleNumberAppliesToEveryParallel) {
  Parsed p = parse_with({"--parallel", "1", "2", "4", "--number", "50"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  std::vector<std::pair<int, int64_t>> expected = {{1, 50}, {2, 50}, {4, 50}};
  EXPECT_EQ(runs(p.config), expected);
}

TEST_F(CliTest, MismatchedListLengthsExit2NamingBothFlags) {
  Parsed p = parse_with({"--parallel", "8", "16", "32", "-n", "100", "200"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--parallel has 3 values but -n/--number has 2"),
            std::string::npos)
      << p.cli.outcome.err;
  EXPECT_EQ(p.cli.outcome.err.rfind("llmperf: error: ", 0), 0u);
  EXPECT_NE(p.cli.outcome.err.find("Run with --help for usage."), std::string::npos);
}

TEST_F(CliTest, ParallelZeroExit2NamingFlag) {
  Parsed p = parse_with({"--parallel", "0"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--parallel"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, AllValidationErrorsReportedOnePerLine) {
  Parsed p = parse({"--url", "ftp://x", "--parallel", "0", "--top-p", "0"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  const std::string& out = p.cli.outcome.err;
  for (const char* flag : {"--url", "--parallel", "--top-p", "--dataset-path"}) {
    EXPECT_NE(out.find("llmperf: error: " + std::string(flag)), std::string::npos) << flag << out;
  }
  // No --model is no error: the server's /v1/models names it at start (vLLM's rule).
  EXPECT_EQ(out.find("--model"), std::string::npos) << out;
}

TEST_F(CliTest, NoStreamAndStream) {
  EXPECT_FALSE(parse_with({"--no-stream"}).config.body.stream);
  EXPECT_TRUE(parse_with({"--stream"}).config.body.stream);
  EXPECT_EQ(parse_with({"--stream", "--no-stream"}).cli.outcome.exit_code, 2);
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
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  const Config& c = p.config;
  EXPECT_TRUE(c.target.insecure);
  EXPECT_TRUE(c.output.debug);
  EXPECT_FALSE(c.target.probe);
  EXPECT_EQ(c.body.temperature, 0.7);
  EXPECT_EQ(c.body.top_p, 0.9);
  EXPECT_EQ(c.body.min_tokens, 5);
  EXPECT_EQ(c.body.stop_token_ids, (std::vector<int64_t>{151643, 151645}));
  EXPECT_DOUBLE_EQ(c.load.sleep_interval_s, 0.5);
  EXPECT_EQ(c.load.seed, 42u);
  EXPECT_EQ(c.load.threads, 4);
  EXPECT_EQ(c.output.percentiles, (std::vector<double>{50, 99.9}));
  EXPECT_EQ(c.output.name, "run1");
  EXPECT_EQ(c.output.outputs_dir, "/tmp/o");
  EXPECT_DOUBLE_EQ(c.target.total_timeout_s, 0);
  EXPECT_DOUBLE_EQ(c.target.connect_timeout_s, 2.5);

  Parsed negative = parse_with({"--temperature", "-1"});
  EXPECT_EQ(negative.cli.outcome.exit_code, 2);
  EXPECT_NE(negative.cli.outcome.err.find("--temperature must be >= 0"), std::string::npos)
      << negative.cli.outcome.err;
}

TEST_F(CliTest, StopTokenIdsMustBeIntegers) {
  Parsed p = parse_with({"--stop-token-ids", "abc"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--stop-token-ids"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, HeadersSplitAtFirstEquals) {
  Parsed p = parse_with({"--headers", "X-A=1", "X-B=a=b", "X-Empty="});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  std::vector<std::pair<std::string, std::string>> expected = {
      {"X-A", "1"}, {"X-B", "a=b"}, {"X-Empty", ""}};
  EXPECT_EQ(p.config.target.headers, expected);
}

TEST_F(CliTest, HeaderWithoutEqualsNamesFlagAndItem) {
  Parsed p = parse_with({"--headers", "X-A=1", "X-Broken"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--headers"), std::string::npos);
  EXPECT_NE(p.cli.outcome.err.find("\"X-Broken\""), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, ExtraArgsObjectAccepted) {
  Parsed p = parse_with({"--extra-args", R"({"ignore_eos": true})"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.body.extra_args, R"({"ignore_eos": true})");
}

TEST_F(CliTest, ExtraArgsInvalidJsonOrNonObjectRejected) {
  for (const char* bad : {"{ignore_eos: true}", "[1, 2]", "42"}) {
    Parsed p = parse_with({"--extra-args", bad});
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << bad;
    EXPECT_NE(p.cli.outcome.err.find("--extra-args"), std::string::npos) << p.cli.outcome.err;
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
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.prompt, "第一行\nsecond line\n");
  EXPECT_TRUE(p.config.workload.dataset_path.empty());
}

TEST_F(CliTest, PromptTextKeptVerbatim) {
  Parsed p = parse({"--model", "qwen", "--prompt", "hello world"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.prompt, "hello world");
}

TEST_F(CliTest, PromptMissingFileNamed) {
  Parsed p = parse({"--model", "qwen", "--prompt", "@/nonexistent/llmperf_prompt.txt"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--prompt"), std::string::npos);
  EXPECT_NE(p.cli.outcome.err.find("/nonexistent/llmperf_prompt.txt"), std::string::npos)
      << p.cli.outcome.err;
}

TEST_F(CliTest, ApiKeyFromEnvironmentWhenFlagAbsent) {
  setenv("OPENAI_API_KEY", "sk-from-env", 1);
  EXPECT_EQ(parse_with({}).config.target.api_key, "sk-from-env");
  EXPECT_EQ(parse_with({"--api-key", "sk-flag"}).config.target.api_key, "sk-flag");
}

TEST_F(CliTest, ApiKeyNeverEchoedInErrors) {
  Parsed p = parse({"--api-key", "sk-secret-value", "--parallel", "0"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_EQ(p.cli.outcome.err.find("sk-secret-value"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, UnknownFlagExit2) {
  Parsed p = parse_with({"--no-such-flag", "1"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--no-such-flag"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, BadNumberAndMissingValueExit2) {
  EXPECT_EQ(parse_with({"--parallel", "many"}).cli.outcome.exit_code, 2);
  EXPECT_EQ(parse_with({"--read-timeout"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, CompletionsUrlSelectsCompletionsApi) {
  Parsed p = parse({"--url", "http://host:8000/v1/completions", "--model", "m", "--prompt", "hi"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.api_kind, ApiKind::kCompletions);
}

TEST_F(CliTest, IgnoredCompatibilityFlagsWarnWithoutEchoingValues) {
  Parsed p = parse_with({"--tokenizer-path", "/models/qwen", "--wandb-api-key", "wb-secret"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  ASSERT_EQ(p.cli.warnings.size(), 2u);
  EXPECT_NE(p.cli.warnings[0].find("--tokenizer-path"), std::string::npos);
  EXPECT_NE(p.cli.warnings[1].find("--wandb-api-key"), std::string::npos);
  EXPECT_EQ(p.cli.warnings[1].find("wb-secret"), std::string::npos);
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
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.input_tokens, (std::vector<int64_t>{1024}));
  EXPECT_EQ(p.config.workload.output_tokens, (std::vector<int64_t>{128}));
  EXPECT_EQ(p.config.body.ignore_eos, std::optional<bool>(true));
  EXPECT_EQ(parse_random({"--input-tokens", "8", "--no-ignore-eos"}).config.body.ignore_eos,
            std::optional<bool>(false));
  // A dataset of text leaves outputs to the model unless asked.
  EXPECT_EQ(parse_with({}).config.body.ignore_eos, std::optional<bool>(false));
  EXPECT_EQ(parse_with({"--ignore-eos"}).config.body.ignore_eos, std::optional<bool>(true));
  EXPECT_EQ(parse_random({"--ignore-eos", "--no-ignore-eos"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, InputAndOutputListsMakeAGrid) {
  Parsed p = parse_random({"--input-tokens", "100", "500", "--output-tokens", "16", "64",
                           "--parallel", "4", "8", "-n", "32"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  const auto runs = run_specs(p.config);
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
  ASSERT_TRUE(one.cli.proceed) << one.cli.outcome.err;
  EXPECT_EQ(one.config.body.max_tokens, std::optional<int64_t>(100));
  EXPECT_EQ(one.config.body.max_tokens_low, -1);
  Parsed range = parse_with({"--max-tokens", "10", "20"});
  ASSERT_TRUE(range.cli.proceed) << range.cli.outcome.err;
  EXPECT_EQ(range.config.body.max_tokens, std::optional<int64_t>(20));
  EXPECT_EQ(range.config.body.max_tokens_low, 10);
  Parsed reversed = parse_with({"--max-tokens", "20", "10"});
  EXPECT_EQ(reversed.cli.outcome.exit_code, 2);
  EXPECT_NE(reversed.cli.outcome.err.find("--max-tokens MIN MAX"), std::string::npos);
  EXPECT_EQ(parse_with({"--max-tokens", "1", "2", "3"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, SpeedBenchmarkIsAPresetGridOnTheCompletionsApi) {
  Parsed p = parse_random({});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);  // random alone has no lengths
  Parsed preset = parse({"--url", "http://h:8000/v1/chat/completions", "--model", "qwen",
                         "--dataset", "speed_benchmark"});
  ASSERT_TRUE(preset.cli.proceed) << preset.cli.outcome.err;
  EXPECT_EQ(preset.config.workload.input_tokens, (std::vector<int64_t>{1, 6144, 14336, 30720}));
  EXPECT_EQ(preset.config.workload.output_tokens, (std::vector<int64_t>{2048}));
  EXPECT_EQ(preset.config.load.parallel, (std::vector<int>{1}));
  EXPECT_EQ(preset.config.load.number, (std::vector<int64_t>{2}));
  EXPECT_EQ(preset.config.target.url, "http://h:8000/v1/completions");
  EXPECT_EQ(preset.config.target.api_kind, ApiKind::kCompletions);
  ASSERT_EQ(preset.cli.warnings.size(), 1u);
  EXPECT_NE(preset.cli.warnings[0].find("/v1/completions"), std::string::npos);
  // Flags given explicitly win over the preset.
  Parsed mine = parse({"--url", "http://h:8000/v1/completions", "--model", "qwen", "--dataset",
                       "speed_benchmark", "--parallel", "4", "--input-tokens", "128"});
  ASSERT_TRUE(mine.cli.proceed) << mine.cli.outcome.err;
  EXPECT_EQ(mine.config.load.parallel, (std::vector<int>{4}));
  EXPECT_EQ(mine.config.workload.input_tokens, (std::vector<int64_t>{128}));
  EXPECT_TRUE(mine.cli.warnings.empty());
}

TEST_F(CliTest, TokenizePromptMovesToTheCompletionsApi) {
  Parsed p = parse_random({"--input-tokens", "100", "--tokenize-prompt"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.tokenize_prompt);
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8000/v1/completions");
  EXPECT_EQ(p.config.target.api_kind, ApiKind::kCompletions);
  ASSERT_EQ(p.cli.warnings.size(), 1u);
  EXPECT_NE(p.cli.warnings[0].find("--tokenize-prompt"), std::string::npos);
}

TEST_F(CliTest, TokenizerPathIsNotNeededAndSaysWhy) {
  Parsed p = parse_random({"--input-tokens", "100", "--tokenizer-path", "/models/qwen"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  ASSERT_EQ(p.cli.warnings.size(), 1u);
  EXPECT_NE(p.cli.warnings[0].find("counts tokens with the server"), std::string::npos)
      << p.cli.warnings[0];
}

TEST_F(CliTest, QueryTemplateRejectedWithGuidance) {
  Parsed p = parse_with({"--query-template", "{}"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("line_by_line"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, HelpListsEveryFlagMetricsAndExitCodes) {
  Parsed p = parse({"--help"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 0);
  const std::string& help = p.cli.outcome.out;
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
        "Target", "Dataset", "Load", "Request body", "Timeouts", "Output", "SLO grammar",
        "length_miss", "cap_reached"}) {
    EXPECT_NE(help.find(word), std::string::npos) << word;
  }
  EXPECT_NE(help.find("21600"), std::string::npos);
  EXPECT_NE(help.find("2048"), std::string::npos);
}

TEST_F(CliTest, HelpNeedsNoModel) { EXPECT_EQ(parse({"-h"}).cli.outcome.exit_code, 0); }

TEST_F(CliTest, VersionPrintsVersion) {
  Parsed p = parse({"--version"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 0);
  EXPECT_EQ(p.cli.outcome.out, "llmperf 0.1.0\n");
}

// --- EvalScope and vLLM compatibility ---

// The warnings joined, for searching.
std::string all_warnings(const Parsed& p) {
  std::string text;
  for (const std::string& w : p.cli.warnings) text += w + "\n";
  return text;
}

TEST_F(CliTest, EveryIgnoredFlagWarnsOnceNamingItAndNeverItsValue) {
  const std::vector<std::string> with_value = {"--tokenizer-path",
                                               "--wandb-api-key",
                                               "--swanlab-api-key",
                                               "--swanlab-host",
                                               "--db-commit-interval",
                                               "--queue-size-multiplier",
                                               "--in-flight-task-multiplier",
                                               "--dataset-offset",
                                               "--num-workers",
                                               "--attn-implementation",
                                               "--image-format",
                                               "--image-patch-size"};
  for (const std::string& flag : with_value) {
    const std::string value = "v4lue-of" + flag;
    Parsed p = parse_with({flag, value});
    ASSERT_TRUE(p.cli.proceed) << flag << ": " << p.cli.outcome.err;
    ASSERT_EQ(p.cli.warnings.size(), 1u) << flag;
    EXPECT_NE(p.cli.warnings[0].find(flag + " is accepted for compatibility and ignored ("),
              std::string::npos)
        << p.cli.warnings[0];
    EXPECT_EQ(p.cli.warnings[0].find(value), std::string::npos) << p.cli.warnings[0];
    EXPECT_EQ(p.cli.warnings[0].rfind("llmperf: warning: ", 0), 0u);
  }
  for (const std::string flag : {"--enable-progress-tracker", "--disable-tqdm"}) {
    Parsed p = parse_with({flag});
    ASSERT_TRUE(p.cli.proceed) << flag << ": " << p.cli.outcome.err;
    ASSERT_EQ(p.cli.warnings.size(), 1u) << flag;
    EXPECT_NE(p.cli.warnings[0].find(flag + " is accepted"), std::string::npos);
  }
  // Several at once: one warning each.
  Parsed p = parse_with({"--disable-tqdm", "--db-commit-interval", "3", "--num-workers", "4"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.cli.warnings.size(), 3u) << all_warnings(p);
}

TEST_F(CliTest, ApplyChatTemplateIsDecidedByTheUrl) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--apply-chat-template"},
        std::vector<std::string>{"--apply-chat-template", "false"},
        std::vector<std::string>{"--no-apply-chat-template"}}) {
    Parsed p = parse_with(flags);
    ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
    ASSERT_EQ(p.cli.warnings.size(), 1u);
    EXPECT_NE(p.cli.warnings[0].find("decided by the URL"), std::string::npos);
  }
}

TEST_F(CliTest, EveryRefusedFlagExits2WithWhatToDoInstead) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--query-template", "{}"}, "line_by_line"},
      {{"--visualizer", "wandb"}, "--outputs-dir"},
      {{"--multi-turn-args", "{}"}, "--min-turns"},
      {{"--dataset-args", R"({"a": 1})"}, "--input-tokens"},
      {{"--data-source", "modelscope"}, "--dataset-path"},
  };
  for (const auto& [flags, guidance] : cases) {
    Parsed p = parse_with(flags);
    EXPECT_FALSE(p.cli.proceed) << flags[0];
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << flags[0];
    EXPECT_NE(p.cli.outcome.err.find("llmperf: error: " + flags[0] + " "), std::string::npos)
        << p.cli.outcome.err;
    EXPECT_NE(p.cli.outcome.err.find("not supported"), std::string::npos) << p.cli.outcome.err;
    EXPECT_NE(p.cli.outcome.err.find(guidance), std::string::npos) << p.cli.outcome.err;
  }
  // Their harmless values are accepted.
  EXPECT_TRUE(parse_with({"--dataset-args", "{}"}).cli.proceed);
  EXPECT_TRUE(parse_with({"--data-source", "local"}).cli.proceed);
}

TEST_F(CliTest, ApiOtherThanOpenaiIsRefusedWithGuidance) {
  for (const std::string api : {"local", "local_vllm"}) {
    Parsed p = parse_with({"--api", api});
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << api;
    EXPECT_NE(p.cli.outcome.err.find("--api " + api + " is not supported"), std::string::npos)
        << p.cli.outcome.err;
    EXPECT_NE(p.cli.outcome.err.find("--url"), std::string::npos) << p.cli.outcome.err;
  }
  Parsed p = parse_with({"--api", "dashscope"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--api dashscope is not supported"), std::string::npos)
      << p.cli.outcome.err;
  EXPECT_NE(p.cli.outcome.err.find("openai_embedding"), std::string::npos) << p.cli.outcome.err;
  Parsed ok = parse_with({"--api", "openai"});
  ASSERT_TRUE(ok.cli.proceed) << ok.cli.outcome.err;
  EXPECT_EQ(ok.config.target.api, "openai");
  EXPECT_EQ(ok.config.target.api_kind, ApiKind::kChat);
}

TEST_F(CliTest, EvalScopeApiNamesChooseTheEndpointsShape) {
  const std::pair<const char*, ApiKind> cases[] = {{"openai_embedding", ApiKind::kEmbeddings},
                                                   {"openai_rerank", ApiKind::kRerank},
                                                   {"openai_responses", ApiKind::kResponses}};
  for (const auto& [api, kind] : cases) {
    Parsed p = parse_with({"--api", api});
    ASSERT_TRUE(p.cli.proceed) << api << ": " << p.cli.outcome.err;
    EXPECT_EQ(p.config.target.api, api);
    EXPECT_EQ(p.config.target.api_kind, kind) << api;
  }
  // Without --api, the URL's path decides.
  Parsed by_path = parse({"--url", "http://h:1/v1/rerank", "--model", "m", "--prompt", "q"});
  ASSERT_TRUE(by_path.cli.proceed) << by_path.cli.outcome.err;
  EXPECT_EQ(by_path.config.target.api_kind, ApiKind::kRerank);
}

TEST_F(CliTest, RandomVlIsRandomWithOneImage) {
  Parsed p = parse({"--url", "http://h:1/v1/chat/completions", "--model", "m", "--dataset",
                    "random_vl", "--input-tokens", "10", "--image-width", "64"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.dataset, "random");
  EXPECT_EQ(p.config.workload.image_num, 1);
  EXPECT_EQ(p.config.workload.image_width, 64);
  Parsed embeddings = parse({"--url", "http://h:1/v1/embeddings", "--model", "m", "--prompt", "q",
                             "--image-num", "1"});
  EXPECT_EQ(embeddings.cli.outcome.exit_code, 2);
  EXPECT_NE(embeddings.cli.outcome.err.find("--image-num"), std::string::npos)
      << embeddings.cli.outcome.err;
}

TEST_F(CliTest, NoTestConnectionTurnsTheProbeOff) {
  EXPECT_TRUE(parse_with({}).config.target.probe);
  Parsed p = parse_with({"--no-test-connection"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_FALSE(p.config.target.probe);
  EXPECT_TRUE(p.cli.warnings.empty());
  EXPECT_FALSE(parse_with({"--no-probe"}).config.target.probe);
}

TEST_F(CliTest, NoTimestamp) {
  EXPECT_FALSE(parse_with({}).config.output.no_timestamp);
  Parsed p = parse_with({"--no-timestamp"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.output.no_timestamp);
}

TEST_F(CliTest, OpenLoopNeedsRate) {
  Parsed p = parse_with({"--open-loop"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--open-loop needs --rate"), std::string::npos)
      << p.cli.outcome.err;
}

TEST_F(CliTest, OpenLoopSetsACapNoRunCanReach) {
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--rate", "5", "-n", "100"},
        std::vector<std::string>{"--rate", "5", "-n", "100", "--warmup-num", "10"},
        std::vector<std::string>{"--rate", "5", "-n", "101", "--warmup-num", "0.5"},
        std::vector<std::string>{"--rate", "1", "2", "-n", "10", "300", "--warmup-num", "2.5"}}) {
    std::vector<std::string> args = {"--open-loop"};
    args.insert(args.end(), extra.begin(), extra.end());
    Parsed p = parse_with(args);
    ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
    EXPECT_TRUE(p.config.load.open_loop_unbounded);
    EXPECT_TRUE(p.cli.warnings.empty()) << all_warnings(p);
    for (const RunSpec& run : run_specs(p.config)) {
      EXPECT_GE(run.parallel, run.number + p.config.load.warmup_count(run.number))
          << "rate " << run.rate << ", -n " << run.number;
    }
  }
  Parsed exact = parse_with({"--open-loop", "--rate", "5", "-n", "100", "--warmup-num", "10"});
  EXPECT_EQ(exact.config.load.parallel, std::vector<int>{110});
}

TEST_F(CliTest, OpenLoopWarnsThatParallelIsIgnored) {
  Parsed p = parse_with({"--open-loop", "--rate", "5", "-n", "100", "--parallel", "4"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  ASSERT_EQ(p.cli.warnings.size(), 1u);
  EXPECT_NE(p.cli.warnings[0].find("--open-loop ignores --parallel"), std::string::npos);
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{100});
}

// --sla-auto-tune and its family.
Parsed parse_sla(std::vector<std::string> extra,
                 const std::string& params = R"([{"p99_latency": "<=2"}])") {
  std::vector<std::string> args = {"--sla-auto-tune", "--sla-params", params};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_with(args);
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST_F(CliTest, SlaAutoTuneIsADoublingSearchOverParallel) {
  Parsed p = parse_sla({});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  const Config& c = p.config;
  EXPECT_EQ(c.verdicts.search, "parallel");
  EXPECT_EQ(c.verdicts.search_range, (std::vector<double>{1, 65536}));
  EXPECT_TRUE(c.verdicts.search_doubling);
  EXPECT_DOUBLE_EQ(c.verdicts.search_number_multiplier, 2);
  EXPECT_EQ(c.verdicts.slo, (std::vector<std::string>{"latency.p99<=2s", "error_rate<=0%"}));
  EXPECT_TRUE(p.cli.warnings.empty()) << all_warnings(p);
  EXPECT_FALSE(parse_with({}).config.verdicts.search_doubling);
}

TEST_F(CliTest, SlaSearchStartsAtTheGivenValueAndEndsAtTheUpperBound) {
  Parsed given = parse_sla({"--parallel", "4", "--sla-upper-bound", "64"});
  ASSERT_TRUE(given.cli.proceed) << given.cli.outcome.err;
  EXPECT_EQ(given.config.verdicts.search_range, (std::vector<double>{4, 64}));
  Parsed lower = parse_sla({"--sla-lower-bound", "2", "--sla-upper-bound", "32"});
  ASSERT_TRUE(lower.cli.proceed) << lower.cli.outcome.err;
  EXPECT_EQ(lower.config.verdicts.search_range, (std::vector<double>{2, 32}));
  Parsed multiplier = parse_sla({"--sla-number-multiplier", "3.5"});
  EXPECT_DOUBLE_EQ(multiplier.config.verdicts.search_number_multiplier, 3.5);
  // A start above the upper bound is the search's own range error.
  Parsed inverted = parse_sla({"--parallel", "100", "--sla-upper-bound", "64"});
  EXPECT_EQ(inverted.cli.outcome.exit_code, 2);
  EXPECT_NE(inverted.cli.outcome.err.find("0 < LO < HI"), std::string::npos)
      << inverted.cli.outcome.err;
}

TEST_F(CliTest, SlaSearchOverTheRate) {
  Parsed p = parse_sla({"--sla-variable", "rate", "--rate", "2", "--sla-upper-bound", "100",
                        "--sla-fixed-parallel", "50"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.verdicts.search, "rate");
  EXPECT_EQ(p.config.verdicts.search_range, (std::vector<double>{2, 100}));
  EXPECT_EQ(p.config.load.rate, std::vector<double>{2});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{50});
  // Without --rate it starts at the lower bound; without a cap, llmperf's open-loop default.
  Parsed bare = parse_sla({"--sla-variable", "rate", "--sla-lower-bound", "3"});
  ASSERT_TRUE(bare.cli.proceed) << bare.cli.outcome.err;
  EXPECT_EQ(bare.config.verdicts.search_range, (std::vector<double>{3, 65536}));
  EXPECT_EQ(bare.config.load.rate, std::vector<double>{3});
  EXPECT_EQ(bare.config.load.parallel, std::vector<int>{1000});
  EXPECT_TRUE(bare.config.load.default_cap);
  EXPECT_FALSE(p.config.load.default_cap);
  Parsed capped = parse_sla({"--sla-variable", "rate", "--parallel", "16"});
  ASSERT_TRUE(capped.cli.proceed) << capped.cli.outcome.err;
  EXPECT_EQ(capped.config.load.parallel, std::vector<int>{16});
}

TEST_F(CliTest, SlaParamsBecomeSlosFromOneObject) {
  Parsed p = parse_sla({}, R"([{"avg_latency": "<=2", "p99_latency": "<3.5", "avg_ttft": "<=0.5",
      "p99_ttft": "<1", "avg_tpot": "<=0.05", "p99_tpot": "<0.1", "rps": ">=10", "tps": ">100"}])");
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(sorted(p.config.verdicts.slo),
            sorted({"latency.mean<=2s", "latency.p99<3.5s", "ttft.mean<=0.5s", "ttft.p99<1s",
                    "tpot.mean<=0.05s", "tpot.p99<0.1s", "qps>=10", "output_throughput>100",
                    "error_rate<=0%"}));
  // --slo expressions given as well are kept.
  Parsed both = parse_sla({"--slo", "ttft.p50<=100ms"});
  ASSERT_TRUE(both.cli.proceed) << both.cli.outcome.err;
  EXPECT_EQ(sorted(both.config.verdicts.slo),
            sorted({"ttft.p50<=100ms", "latency.p99<=2s", "error_rate<=0%"}));
}

TEST_F(CliTest, SlaParamsThatCannotBeMappedExit2) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"([{"p99_latency": "<=2"}, {"rps": ">=1"}])", "several groups (OR) is not supported"},
      {R"([{"tps": "max"}])", "\"max\" (optimising one metric) is not supported"},
      {R"([{"avg_latency": "min"}])", "\"min\" (optimising one metric) is not supported"},
      {R"([{"p50_latency": "<=2"}])", "unknown metric \"p50_latency\""},
      {R"([{"p99_latency": "2"}])", "must be an operator"},
      {R"([{"p99_latency": "==2"}])", "must be an operator"},
      {R"({"p99_latency": "<=2"})", "must be a JSON list of objects"},
      {"not json", "must be a JSON list of objects"},
      {"[]", "must be a JSON list of objects"},
  };
  for (const auto& [params, message] : cases) {
    Parsed p = parse_sla({}, params);
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << params;
    EXPECT_NE(p.cli.outcome.err.find(message), std::string::npos)
        << params << ": " << p.cli.outcome.err;
  }
}

TEST_F(CliTest, SlaFlagsWithoutAutoTuneAreRefused) {
  const std::vector<std::vector<std::string>> cases = {
      {"--sla-variable", "rate"},      {"--sla-params", R"([{"rps": ">=1"}])"},
      {"--sla-num-runs", "3"},         {"--sla-upper-bound", "8"},
      {"--sla-lower-bound", "2"},      {"--sla-fixed-parallel", "4"},
      {"--sla-number-multiplier", "3"}};
  for (const std::vector<std::string>& flags : cases) {
    Parsed p = parse_with(flags);
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << flags[0];
    EXPECT_NE(p.cli.outcome.err.find(flags[0] + " needs --sla-auto-tune"), std::string::npos)
        << p.cli.outcome.err;
  }
}

TEST_F(CliTest, SlaAutoTuneNeedsParamsAndNoOtherSearch) {
  Parsed bare = parse_with({"--sla-auto-tune"});
  EXPECT_EQ(bare.cli.outcome.exit_code, 2);
  EXPECT_NE(bare.cli.outcome.err.find("--sla-auto-tune needs --sla-params"), std::string::npos);
  Parsed both = parse_sla({"--search", "parallel", "--search-range", "1", "8"});
  EXPECT_EQ(both.cli.outcome.exit_code, 2);
  EXPECT_NE(both.cli.outcome.err.find("give one"), std::string::npos) << both.cli.outcome.err;
  EXPECT_EQ(parse_sla({"--sla-variable", "latency"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, SlaNumRunsWarnsThatEachPointIsOneRun) {
  Parsed p = parse_sla({"--sla-num-runs", "3"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  ASSERT_EQ(p.cli.warnings.size(), 1u);
  EXPECT_NE(p.cli.warnings[0].find("--sla-num-runs 3"), std::string::npos);
  EXPECT_TRUE(parse_sla({"--sla-num-runs", "1"}).cli.warnings.empty());
}

TEST_F(CliTest, BodyFlagsReachConfig) {
  Parsed p = parse_with({"--top-k", "20", "--frequency-penalty", "0.5", "--repetition-penalty",
                         "1.1", "--logprobs", "--n-choices", "2", "--seed", "42"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  const Config& c = p.config;
  EXPECT_EQ(c.body.top_k, std::optional<int64_t>(20));
  EXPECT_EQ(c.body.frequency_penalty, std::optional<double>(0.5));
  EXPECT_EQ(c.body.repetition_penalty, std::optional<double>(1.1));
  EXPECT_TRUE(c.body.logprobs);
  EXPECT_EQ(c.body.n_choices, std::optional<int64_t>(2));
  EXPECT_EQ(c.load.seed, 42u);
  EXPECT_TRUE(c.body.seed_in_body);

  Parsed none = parse_with({});
  EXPECT_FALSE(none.config.body.top_k.has_value());
  EXPECT_FALSE(none.config.body.frequency_penalty.has_value());
  EXPECT_FALSE(none.config.body.repetition_penalty.has_value());
  EXPECT_FALSE(none.config.body.logprobs);
  EXPECT_FALSE(none.config.body.n_choices.has_value());
  EXPECT_FALSE(none.config.body.seed_in_body);
  EXPECT_TRUE(parse_with({"--seed", "0"}).config.body.seed_in_body);

  EXPECT_EQ(parse_with({"--top-k", "-2"}).cli.outcome.exit_code, 2);
  EXPECT_TRUE(parse_with({"--top-k", "-1"}).cli.proceed);
  EXPECT_EQ(parse_with({"--n-choices", "0"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, VllmAliases) {
  Parsed p =
      parse({"--url", "http://127.0.0.1:8000/v1/completions", "--model", "qwen", "--dataset-name",
             "random", "--random-input-len", "128", "--random-output-len", "64",
             "--random-prefix-len", "16", "--num-prompts", "50", "--max-concurrency", "8"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.dataset, "random");
  EXPECT_EQ(p.config.workload.input_tokens, std::vector<int64_t>{128});
  EXPECT_EQ(p.config.workload.output_tokens, std::vector<int64_t>{64});
  EXPECT_EQ(p.config.workload.prefix_length, 16);
  EXPECT_EQ(p.config.load.number, std::vector<int64_t>{50});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{8});
  EXPECT_TRUE(p.config.load.rate.empty());
}

// --search rate's probes are open-loop runs: without --parallel they get the default cap of
// --rate, not one slot, whose queue they would otherwise measure (issue 37).
TEST_F(CliTest, RateSearchGetsTheOpenLoopDefaultCap) {
  const std::vector<std::string> search = {"--search", "rate", "--search-range", "1", "100",
                                           "--slo", "ttft.p99<=1000ms"};
  Parsed bare = parse_with(search);
  ASSERT_TRUE(bare.cli.proceed) << bare.cli.outcome.err;
  EXPECT_EQ(bare.config.load.parallel, std::vector<int>{1000});
  EXPECT_TRUE(bare.config.load.default_cap);
  EXPECT_DOUBLE_EQ(bare.config.verdicts.rate_tolerance_pct, 5);
  EXPECT_DOUBLE_EQ(bare.config.verdicts.search_precision_pct, 2);

  std::vector<std::string> capped_args = search;
  capped_args.insert(capped_args.end(),
                     {"--parallel", "4", "--rate-tolerance", "10", "--search-precision", "5"});
  Parsed capped = parse_with(capped_args);
  ASSERT_TRUE(capped.cli.proceed) << capped.cli.outcome.err;
  EXPECT_EQ(capped.config.load.parallel, std::vector<int>{4});
  EXPECT_FALSE(capped.config.load.default_cap);
  EXPECT_DOUBLE_EQ(capped.config.verdicts.rate_tolerance_pct, 10);
  EXPECT_DOUBLE_EQ(capped.config.verdicts.search_precision_pct, 5);

  Parsed by_parallel = parse_with({"--search", "parallel", "--search-range", "1", "8", "--slo",
                                   "ttft.p99<=1000ms"});
  ASSERT_TRUE(by_parallel.cli.proceed) << by_parallel.cli.outcome.err;
  EXPECT_FALSE(by_parallel.config.load.default_cap);

  std::vector<std::string> bad_args = search;
  bad_args.insert(bad_args.end(), {"--rate-tolerance", "100"});
  Parsed bad = parse_with(bad_args);
  EXPECT_FALSE(bad.cli.proceed);
  EXPECT_NE(bad.cli.outcome.err.find("--rate-tolerance must be between 0 and 100 percent, got 100"),
            std::string::npos)
      << bad.cli.outcome.err;
}

TEST_F(CliTest, RequestRateIsRateAndInfIsAClosedLoop) {
  Parsed rate = parse_with({"--request-rate", "5", "--num-prompts", "100"});
  ASSERT_TRUE(rate.cli.proceed) << rate.cli.outcome.err;
  EXPECT_EQ(rate.config.load.rate, std::vector<double>{5});
  EXPECT_EQ(rate.config.load.parallel, std::vector<int>{1000});  // the default in-flight cap

  Parsed capped = parse_with({"--request-rate", "inf", "--max-concurrency", "8", "-n", "100"});
  ASSERT_TRUE(capped.cli.proceed) << capped.cli.outcome.err;
  EXPECT_TRUE(capped.config.load.rate.empty());
  EXPECT_EQ(capped.config.load.parallel, std::vector<int>{8});
  ASSERT_EQ(run_specs(capped.config).size(), 1u);
  EXPECT_EQ(run_specs(capped.config)[0].rate, -1);

  Parsed all_at_once = parse_with({"--request-rate", "inf", "-n", "100"});
  ASSERT_TRUE(all_at_once.cli.proceed) << all_at_once.cli.outcome.err;
  EXPECT_TRUE(all_at_once.config.load.rate.empty());
  EXPECT_EQ(all_at_once.config.load.parallel, std::vector<int>{100});
  EXPECT_TRUE(all_at_once.config.load.default_cap);  // vLLM's max_concurrency: null
  EXPECT_FALSE(capped.config.load.default_cap);
}

TEST_F(CliTest, PercentileMetricsAndMetricPercentilesAreCommaLists) {
  Parsed p = parse_with({"--percentile-metrics", "ttft,e2el", "--metric-percentiles", "25,99.9"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.output.percentile_metrics, (std::vector<std::string>{"ttft", "e2el"}));
  EXPECT_EQ(p.config.output.metric_percentiles, (std::vector<double>{25, 99.9}));
  // Defaults: vLLM's.
  Parsed d = parse_with({});
  EXPECT_EQ(d.config.output.percentile_metrics, (std::vector<std::string>{"ttft", "tpot", "itl"}));
  EXPECT_EQ(d.config.output.metric_percentiles, std::vector<double>{99});
  EXPECT_EQ(parse_with({"--percentile-metrics", "ttft,latency"}).cli.outcome.exit_code, 2);
  EXPECT_EQ(parse_with({"--metric-percentiles", "50,101"}).cli.outcome.exit_code, 2);
}

TEST_F(CliTest, MetricPercentilesJoinPercentilesOnlyWhenGivenOrForTheVllmBlock) {
  // Not given, default format: --percentiles as given.
  EXPECT_EQ(parse_with({"--percentiles", "90"}).config.output.percentiles, std::vector<double>{90});
  EXPECT_EQ(
      parse_with({"--percentiles", "90", "--percentile-metrics", "e2el"}).config.output.percentiles,
      std::vector<double>{90});
  // Given: the union, sorted, with the median the vllm block prints.
  Parsed given = parse_with({"--percentiles", "90", "--metric-percentiles", "99.9,25"});
  ASSERT_TRUE(given.cli.proceed) << given.cli.outcome.err;
  EXPECT_EQ(given.config.output.percentiles, (std::vector<double>{25, 50, 90, 99.9}));
  // --summary-format vllm: vLLM's default 99 and the median.
  Parsed vllm = parse_with({"--percentiles", "90", "--summary-format", "vllm"});
  ASSERT_TRUE(vllm.cli.proceed) << vllm.cli.outcome.err;
  EXPECT_EQ(vllm.config.output.percentiles, (std::vector<double>{50, 90, 99}));
  // Already there: no duplicates.
  EXPECT_EQ(parse_with({"--metric-percentiles", "99"}).config.output.percentiles,
            (std::vector<double>{10, 25, 50, 66, 75, 80, 90, 95, 98, 99}));
}

TEST_F(CliTest, SpeedBenchmarkLongPreset) {
  Parsed p = parse({"--url", "http://h:8000/v1/chat/completions", "--model", "qwen", "--dataset",
                    "speed_benchmark_long"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.input_tokens, (std::vector<int64_t>{63488, 129024}));
  EXPECT_EQ(p.config.workload.output_tokens, std::vector<int64_t>{2048});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{1});
  EXPECT_EQ(p.config.load.number, std::vector<int64_t>{2});
  EXPECT_EQ(p.config.target.url, "http://h:8000/v1/completions");
  EXPECT_EQ(run_specs(p.config).size(), 2u);
  // -n given (also as --num-prompts) wins over the preset.
  EXPECT_EQ(parse({"--url", "http://h:8000/v1/completions", "--model", "qwen", "--dataset",
                   "speed_benchmark_long", "--num-prompts", "5"})
                .config.load.number,
            std::vector<int64_t>{5});
}

// A TOML file in a fresh temporary directory, removed at the end of the test.
class CliConfigFileTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    std::string pattern =
        (std::filesystem::temp_directory_path() / "llmperf_cli_config_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    CliTest::TearDown();
  }
  std::string write(const std::string& content) const {
    const std::filesystem::path path = dir_ / "llmperf.toml";
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(CliConfigFileTest, ValuesAreAppliedAndTheCommandLineWins) {
  const std::string path = write(
      "model = \"from-file\"\n"
      "url = \"http://10.0.0.1:8000/v1/chat/completions\"\n"
      "dataset-path = \"file.jsonl\"\n"
      "parallel = [1, 4]\n"
      "number = [10, 20]\n"
      "temperature = 0.7\n"
      "read-timeout = 30\n");
  Parsed p = parse({"--config", path});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.model, "from-file");
  EXPECT_EQ(p.config.target.url, "http://10.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(p.config.workload.dataset_path, "file.jsonl");
  EXPECT_EQ(p.config.load.parallel, (std::vector<int>{1, 4}));
  EXPECT_EQ(p.config.load.number, (std::vector<int64_t>{10, 20}));
  EXPECT_EQ(p.config.body.temperature, std::optional<double>(0.7));
  EXPECT_DOUBLE_EQ(p.config.target.read_timeout_s, 30);

  Parsed cli = parse({"--config", path, "--model", "from-cli", "--parallel", "8", "-n", "3"});
  ASSERT_TRUE(cli.cli.proceed) << cli.cli.outcome.err;
  EXPECT_EQ(cli.config.target.model, "from-cli");
  EXPECT_EQ(cli.config.load.parallel, std::vector<int>{8});
  EXPECT_EQ(cli.config.load.number, std::vector<int64_t>{3});
  EXPECT_DOUBLE_EQ(cli.config.target.read_timeout_s, 30);  // not on the command line: the file's
}

TEST_F(CliConfigFileTest, UnknownKeyExits2MentioningConfig) {
  const std::string path = write("model = \"m\"\nparalel = [1, 4]\n");
  Parsed p = parse({"--config", path, "--dataset-path", "x.jsonl"});
  EXPECT_FALSE(p.cli.proceed);
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--config"), std::string::npos) << p.cli.outcome.err;
  EXPECT_NE(p.cli.outcome.err.find("paralel"), std::string::npos) << p.cli.outcome.err;
  EXPECT_NE(p.cli.outcome.err.find("--config: unknown key paralel (did you mean parallel?)"),
            std::string::npos)
      << p.cli.outcome.err;
}

TEST_F(CliConfigFileTest, MissingFileExits2) {
  Parsed p = parse({"--config", (dir_ / "absent.toml").string(), "--model", "m"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("absent.toml"), std::string::npos) << p.cli.outcome.err;
}

TEST_F(CliTest, UnknownDatasetNamesGiveEvalScopeGuidance) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"custom", "use --dataset line_by_line"},
      {"flickr8k", "put the questions in a line_by_line file of messages"},
      {"embedding", "put the texts in an openqa or line_by_line file and give --api "
                    "openai_embedding"},
      {"random_embedding_batch", "use --dataset random_embedding --batch-size N"},
      {"share_gpt_zh_multi_turn", "download the ShareGPT file and use --dataset sharegpt"},
      {"custom_multi_turn", "use --dataset conversations"},
      {"swe_smith", "agent trajectories are not supported yet"},
      {"gsm8k", "put the questions in an openqa or line_by_line file"},
  };
  for (const auto& [name, guidance] : cases) {
    Parsed p = parse_with({"--dataset", name});
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << name;
    EXPECT_NE(p.cli.outcome.err.find("--dataset must be one of"), std::string::npos) << name;
    EXPECT_NE(p.cli.outcome.err.find("(got \"" + name + "\": " + guidance), std::string::npos)
        << p.cli.outcome.err;
  }
  Parsed unknown = parse_with({"--dataset", "nonsense"});
  EXPECT_EQ(unknown.cli.outcome.exit_code, 2);
  EXPECT_NE(unknown.cli.outcome.err.find("(got \"nonsense\")"), std::string::npos)
      << unknown.cli.outcome.err;
  // EvalScope's ShareGPT names are llmperf's sharegpt.
  for (const std::string name : {"share_gpt_en", "share_gpt_zh", "sharegpt"}) {
    Parsed p = parse_with({"--dataset", name});
    EXPECT_TRUE(p.cli.proceed) << name << ": " << p.cli.outcome.err;
  }
}

TEST_F(CliTest, RampUpIsAnOpenLoopRunAtItsHigherRate) {
  Parsed p = parse_with({"--ramp-up-strategy", "exponential", "--ramp-up-start-rps", "2",
                         "--ramp-up-end-rps", "64", "-n", "500"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.load.ramp_up.strategy, "exponential");
  EXPECT_EQ(p.config.load.ramp_up.start_rps, 2);
  EXPECT_EQ(p.config.load.ramp_up.end_rps, 64);
  EXPECT_EQ(p.config.load.rate, std::vector<double>{64});
  EXPECT_TRUE(p.config.load.default_cap);
  EXPECT_FALSE(parse_with({"--ramp-up-strategy", "sideways", "--ramp-up-start-rps", "1",
                           "--ramp-up-end-rps", "2"})
                   .cli.proceed);
}

TEST_F(CliTest, ServerMetricsFlags) {
  Parsed p = parse_with({"--metrics-url", "http://127.0.0.1:9000/metrics", "--metrics-interval",
                         "0.5", "--profile"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.server.metrics_url, "http://127.0.0.1:9000/metrics");
  EXPECT_EQ(p.config.server.metrics_interval_s, 0.5);
  EXPECT_TRUE(p.config.server.profile);
  EXPECT_TRUE(p.config.server.server_metrics);
  p = parse_with({"--no-server-metrics"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_FALSE(p.config.server.server_metrics);
  EXPECT_FALSE(p.config.server.profile);
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST_F(CliTest, ConversationFlags) {
  Parsed p = parse_with({"--dataset", "conversations", "--min-turns", "2", "--max-turns", "6",
                         "--history", "recorded", "--turn-delay", "0.5-2"});
  ASSERT_EQ(p.cli.outcome.exit_code, 0) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.multi_turn);  // implied by the dataset
  EXPECT_EQ(p.config.workload.min_turns, 2);
  EXPECT_EQ(p.config.workload.max_turns, 6);
  EXPECT_TRUE(p.config.workload.history_recorded);
  EXPECT_EQ(p.config.workload.turn_delay.kind, TurnDelay::Kind::kUniform);
  EXPECT_DOUBLE_EQ(p.config.workload.turn_delay.low_s, 0.5);
  EXPECT_DOUBLE_EQ(p.config.workload.turn_delay.high_s, 2);

  p = parse_with({"--dataset", "sharegpt", "--multi-turn", "--turn-delay", "exp:3"});
  ASSERT_EQ(p.cli.outcome.exit_code, 0) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.multi_turn);
  EXPECT_EQ(p.config.workload.turn_delay.kind, TurnDelay::Kind::kExponential);
  EXPECT_DOUBLE_EQ(p.config.workload.turn_delay.low_s, 3);

  p = parse_with({"--dataset", "random_multi_turn", "--input-tokens", "100", "--turn-delay", "2"});
  ASSERT_EQ(p.cli.outcome.exit_code, 0) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.multi_turn);
  EXPECT_EQ(p.config.workload.turn_delay.kind, TurnDelay::Kind::kFixed);
  EXPECT_DOUBLE_EQ(p.config.workload.turn_delay.low_s, 2);
}

TEST_F(CliTest, ConversationFlagsThatCannotWorkExit2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--max-turns", "3"}, "add --multi-turn"},
      {{"--multi-turn"}, "use --dataset random_multi_turn, sharegpt or conversations"},
      {{"--dataset", "conversations", "--turn-delay", "soon"}, "--turn-delay takes seconds"},
      {{"--dataset", "conversations", "--turn-delay", "3-1"}, "--turn-delay"},
      {{"--dataset", "conversations", "--turn-delay", "exp:0"}, "--turn-delay"},
      {{"--dataset", "conversations", "--history", "maybe"}, "--history"},
      {{"--dataset", "conversations", "--min-turns", "4", "--max-turns", "2"},
       "--min-turns 4 is more than --max-turns 2"},
      {{"--dataset", "random_multi_turn", "--history", "recorded"}, "has none"},
  };
  for (const auto& [args, needle] : cases) {
    Parsed p = parse_with(args);
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << args.front() << " " << args.back();
    EXPECT_NE(p.cli.outcome.err.find(needle), std::string::npos)
        << needle << " not in: " << p.cli.outcome.err;
  }
  const Parsed p = parse({"--url", "http://h/v1/completions", "--model", "m", "--dataset",
                          "conversations", "--dataset-path", "c.jsonl"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("use the chat API"), std::string::npos) << p.cli.outcome.err;
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST_F(CliTest, TraceFlags) {
  Parsed p = parse_with({"--dataset", "mooncake_trace", "--trace-speedup", "4",
                         "--trace-block-tokens", "256"});
  ASSERT_EQ(p.cli.outcome.exit_code, 0) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.trace_all);                   // no -n: the whole trace
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{1000});  // the open-loop default cap
  EXPECT_DOUBLE_EQ(p.config.workload.trace_speedup, 4);
  EXPECT_EQ(p.config.workload.trace_block_tokens, 256);
  EXPECT_TRUE(p.config.body.ignore_eos.value_or(false));  // output_length tokens exactly

  p = parse_with({"--dataset", "workload_trace", "-n", "50", "--parallel", "8"});
  ASSERT_EQ(p.cli.outcome.exit_code, 0) << p.cli.outcome.err;
  EXPECT_FALSE(p.config.workload.trace_all);
  EXPECT_EQ(p.config.load.number, std::vector<int64_t>{50});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{8});
  EXPECT_FALSE(p.config.body.ignore_eos.value_or(false));  // bodies are sent as recorded
}

TEST_F(CliTest, TraceFlagsThatCannotWorkExit2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--dataset", "mooncake_trace", "--rate", "5"}, "drop --rate"},
      {{"--dataset", "mooncake_trace", "--trace-speedup", "0"}, "--trace-speedup must be > 0"},
      {{"--dataset", "mooncake_trace", "--trace-block-tokens", "0"}, "--trace-block-tokens"},
      {{"--dataset", "mooncake_trace", "--warmup-num", "5"}, "would shift a trace's timestamps"},
      {{"--dataset", "mooncake_trace", "--multi-turn"}, "--multi-turn sends conversations"},
  };
  for (const auto& [args, needle] : cases) {
    Parsed p = parse_with(args);
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << args.back();
    EXPECT_NE(p.cli.outcome.err.find(needle), std::string::npos)
        << needle << " not in: " << p.cli.outcome.err;
  }
  const Parsed p = parse({"--url", "http://h/v1/chat/completions", "--model", "m", "--dataset",
                          "mooncake_trace"});
  EXPECT_EQ(p.cli.outcome.exit_code, 2);
  EXPECT_NE(p.cli.outcome.err.find("--dataset-path is required"), std::string::npos)
      << p.cli.outcome.err;
}

// --- vLLM's command lines (vllm bench serve, benchmark_serving.py) ---

constexpr const char* kShareGpt = LLMPERF_FIXTURES_DIR "/sharegpt/sample.json";

TEST_F(CliTest, VllmAddressFlagsBuildTheUrlByBackend) {
  // vLLM's defaults: 127.0.0.1:8000, /v1/completions for vllm and openai.
  Parsed p = parse({"--backend", "vllm", "--model", "m", "--prompt", "hi"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8000/v1/completions");
  EXPECT_EQ(p.config.target.api_kind, ApiKind::kCompletions);
  EXPECT_EQ(p.config.output.vllm.backend, "vllm");
  p = parse({"--backend", "openai-chat", "--host", "10.0.0.5", "--port", "9000", "--model", "m",
             "--prompt", "hi"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://10.0.0.5:9000/v1/chat/completions");
  EXPECT_EQ(p.config.target.api_kind, ApiKind::kChat);
  p = parse({"--base-url", "http://h:8001/", "--endpoint", "/v1/chat/completions", "--model", "m",
             "--prompt", "hi"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://h:8001/v1/chat/completions");
  p = parse({"--port", "8080", "--model", "m", "--prompt", "hi"});
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8080/v1/completions");
  p = parse({"--backend", "openai-embeddings", "--model", "m", "--prompt", "hi"});
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8000/v1/embeddings");
  // --url decides where it is given; --backend then only names the backend in vllm_result.json.
  p = parse({"--url", "http://h/v1/chat/completions", "--backend", "openai-chat", "--model", "m",
             "--prompt", "hi"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://h/v1/chat/completions");
}

TEST_F(CliTest, VllmAddressMistakesExit2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--url", "http://h/v1/completions", "--port", "9000"}, "both give the address"},
      {{"--backend", "tgi"}, "--backend tgi is not supported"},
      {{"--backend", "openai-chat", "--endpoint", "/v1/completions"}, "ending in chat/completions"},
      {{"--metadata", "novalue"}, "--metadata expects KEY=VALUE"},
      {{"--random-range-ratio", "0.5"}, "--random-range-ratio needs --dataset-name random"},
  };
  for (const auto& [args, needle] : cases) {
    Parsed p = parse(concat_args({"--model", "m", "--prompt", "hi"}, args));
    EXPECT_EQ(p.cli.outcome.exit_code, 2) << args.front();
    EXPECT_NE(p.cli.outcome.err.find(needle), std::string::npos)
        << needle << " not in: " << p.cli.outcome.err;
  }
}

TEST_F(CliTest, VllmCommandsSendEverythingAtOnceWithoutACapOrRate) {
  // A vLLM command line (bench serve, or its address flags) without --max-concurrency or
  // --request-rate: vLLM's --request-rate inf, every request at once.
  Parsed p = parse({"bench", "serve", "--model", "m", "--prompt", "hi", "--num-prompts", "10"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.url, "http://127.0.0.1:8000/v1/completions");
  EXPECT_TRUE(p.config.load.rate.empty());
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{10});
  p = parse({"--port", "9000", "--model", "m", "--prompt", "hi", "--max-concurrency", "4"});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{4});
  p = parse({"--port", "9000", "--model", "m", "--prompt", "hi", "--request-rate", "32"});
  EXPECT_EQ(p.config.load.rate, std::vector<double>{32});
  // llmperf's own command line keeps llmperf's defaults: one request at a time.
  p = parse_with({});
  EXPECT_EQ(p.config.load.parallel, std::vector<int>{1});
}

TEST_F(CliTest, VllmOldDatasetFlagNamesTheShareGptFile) {
  Parsed p = parse({"--port", "9000", "--dataset", kShareGpt, "--tokenizer", "/data/SUS-Chat-34B/",
                    "--request-rate", "32", "--num-prompts", "1000"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.workload.dataset, "sharegpt");
  EXPECT_EQ(p.config.workload.dataset_path, kShareGpt);
  EXPECT_TRUE(p.config.target.model.empty());  // taken from the server's /v1/models at start
  EXPECT_EQ(p.config.output.vllm.tokenizer, "/data/SUS-Chat-34B/");
  ASSERT_EQ(p.cli.warnings.size(), 1u);
  EXPECT_NE(p.cli.warnings[0].find("counts tokens with the server"), std::string::npos);
  // A dataset kind is still a kind, and a file given twice is refused.
  EXPECT_EQ(parse_with({"--dataset", "openqa"}).config.workload.dataset, "openqa");
  EXPECT_EQ(parse({"--model", "m", "--dataset", kShareGpt, "--dataset-path", "other.json"})
                .cli.outcome.exit_code,
            2);
}

TEST_F(CliTest, SaveResultKeepsThePerRequestArraysAsTheCommandLinesOriginDid) {
  // benchmark_serving.py's line (the bare form): its copy always has the per-request arrays.
  Parsed p = parse({"--backend", "vllm", "--dataset", kShareGpt, "--save-result"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.output.vllm.save);
  EXPECT_TRUE(p.config.output.vllm.detailed);
  EXPECT_TRUE(parse_with({"--result-dir", "/tmp/r"}).config.output.vllm.detailed);
  // `vllm bench serve`'s line: only with --save-detailed, as vLLM does.
  p = parse({"bench", "serve", "--model", "m", "--dataset-name", "sharegpt", "--dataset-path",
             kShareGpt, "--save-result"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.output.vllm.save);
  EXPECT_FALSE(p.config.output.vllm.detailed);
  p = parse({"bench", "serve", "--model", "m", "--dataset-name", "sharegpt", "--dataset-path",
             kShareGpt, "--save-result", "--save-detailed"});
  EXPECT_TRUE(p.config.output.vllm.detailed);
}

TEST_F(CliTest, VllmResultFlags) {
  Parsed p = parse_with(
      {"--result-dir", "/tmp/r", "--metadata", "version=0.11", " tp = 2", "--label", "nightly"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.output.vllm.save);  // --result-dir implies --save-result
  EXPECT_EQ(p.config.output.vllm.dir, "/tmp/r");
  EXPECT_EQ(p.config.output.vllm.label, "nightly");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(p.config.output.vllm.metadata, (Pairs{{"version", "0.11"}, {"tp", "2"}}));
  p = parse_with({"--save-result", "--save-detailed", "--result-filename", "x.json"});
  EXPECT_TRUE(p.config.output.vllm.save);
  EXPECT_TRUE(p.config.output.vllm.detailed);
  EXPECT_EQ(p.config.output.vllm.filename, "x.json");
  EXPECT_FALSE(parse_with({}).config.output.vllm.save);
  p = parse({"--url", "http://h/v1/completions", "--model", "/data/Qwen", "--served-model-name",
             "qwen", "--prompt", "hi", "--ready-check-timeout-sec", "30", "--disable-tqdm"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.model, "qwen");
  EXPECT_EQ(p.config.output.vllm.model_id, "/data/Qwen");
  EXPECT_EQ(p.config.target.ready_timeout_s, 30);
  // vLLM's spellings of llmperf's --headers and --warmup-num.
  p = parse_with({"--header", "X-A=1", "--num-warmups", "5"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_EQ(p.config.target.headers, (Pairs{{"X-A", "1"}}));
  EXPECT_EQ(p.config.load.warmup_num, 5);
}

TEST_F(CliTest, VllmRandomRangeRatioDrawsLengthsAroundTheGivenOnes) {
  Parsed p = parse_random(
      {"--random-input-len", "100", "--random-output-len", "10", "--random-range-ratio", "0.25"});
  ASSERT_TRUE(p.cli.proceed) << p.cli.outcome.err;
  EXPECT_TRUE(p.config.workload.input_tokens.empty());
  EXPECT_EQ(p.config.workload.min_prompt_length, 75);
  EXPECT_EQ(p.config.workload.max_prompt_length, 125);
  EXPECT_EQ(p.config.body.max_tokens_low, 7);  // floor(7.5)
  EXPECT_EQ(p.config.body.max_tokens, 13);     // ceil(12.5)
  EXPECT_EQ(parse_random({"--random-input-len", "100", "--random-output-len", "10",
                          "--random-range-ratio", "1"})
                .cli.outcome.exit_code,
            2);
}

}  // namespace
}  // namespace llmperf

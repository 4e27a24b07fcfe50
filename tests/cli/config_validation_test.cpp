// Tests for resolve_config() and validate_config(): each bad field yields one error naming its
// flag, and api_kind follows the URL path.
#include "cli/cli.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace llmperf {
namespace {

Config valid_config() {
  Config c;
  c.target.model = "qwen";
  c.workload.dataset_path = "open_qa.jsonl";
  return c;
}

// resolve_config then validate_config, as parse_cli does them.
std::vector<std::string> resolved_errors(Config& c) {
  resolve_config(c);
  return validate_config(c);
}

// Validates `c` and expects exactly one error, containing `needle`.
void expect_single_error(Config c, const std::string& needle) {
  std::vector<std::string> errors = resolved_errors(c);
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "no errors" : errors.front());
  EXPECT_NE(errors[0].find(needle), std::string::npos) << errors[0];
}

TEST(ConfigValidate, DefaultsWithModelAndDatasetAreValid) {
  Config c = valid_config();
  EXPECT_TRUE(resolved_errors(c).empty());
  EXPECT_EQ(c.target.api_kind, ApiKind::kChat);
}

TEST(ConfigValidate, UrlNeedsHttpSchemeAndHost) {
  for (const char* bad : {"127.0.0.1:8000/v1/chat/completions", "ftp://host/v1", "http://",
                          "https:///v1/completions", "http://:8000/v1", ""}) {
    Config c = valid_config();
    c.target.url = bad;
    expect_single_error(c, "--url");
  }
  for (const char* good : {"https://api.example.com/v1/chat/completions", "http://[::1]:8000/v1",
                           "http://localhost", "http://user:pw@host:1/v1/chat/completions"}) {
    Config c = valid_config();
    c.target.url = good;
    EXPECT_TRUE(resolved_errors(c).empty()) << good;
  }
}

TEST(ConfigValidate, Http2Flags) {
  Config both = valid_config();
  both.target.http2 = true;
  both.target.http2_prior_knowledge = true;
  expect_single_error(both, "--http2 and --http2-prior-knowledge exclude each other");
  Config streams = valid_config();
  streams.target.max_streams_per_connection = 10;
  expect_single_error(streams, "--max-streams-per-connection applies to HTTP/2");
  streams.target.max_streams_per_connection = -1;
  expect_single_error(streams, "--max-streams-per-connection must be at least 1");
  for (bool tls : {true, false}) {
    Config c = valid_config();
    (tls ? c.target.http2 : c.target.http2_prior_knowledge) = true;
    c.target.max_streams_per_connection = 10;
    EXPECT_TRUE(resolved_errors(c).empty());
  }
}

TEST(ConfigValidate, ApiKindFromUrlPath) {
  struct Case {
    const char* url;
    ApiKind kind;
  };
  for (const Case& tc : {Case{"http://h/v1/completions", ApiKind::kCompletions},
                         Case{"http://h/v1/completions/", ApiKind::kCompletions},
                         Case{"http://h/v1/completions?x=1", ApiKind::kCompletions},
                         Case{"http://h/v1/chat/completions", ApiKind::kChat},
                         Case{"http://h/v1/chat/completions?a=/completions", ApiKind::kChat},
                         Case{"http://h/generate", ApiKind::kChat},
                         Case{"http://h/v1/embeddings", ApiKind::kEmbeddings},
                         Case{"http://h/v1/rerank", ApiKind::kRerank},
                         Case{"http://h/v2/rerank/", ApiKind::kRerank},
                         Case{"http://h/v1/responses", ApiKind::kResponses},
                         Case{"http://h:9/completions", ApiKind::kCompletions}}) {
    Config c = valid_config();
    c.target.url = tc.url;
    ASSERT_TRUE(resolved_errors(c).empty()) << tc.url;
    EXPECT_EQ(c.target.api_kind, tc.kind) << tc.url;
  }
}

TEST(ConfigValidate, ModelAndApi) {
  Config c = valid_config();
  c.target.model.clear();  // taken from the server's /v1/models when it lists one model
  EXPECT_TRUE(resolved_errors(c).empty());
  c = valid_config();
  c.target.api = "dashscope";
  expect_single_error(c, "--api must be openai, openai_embedding");
}

TEST(ConfigValidate, LoadLists) {
  Config c = valid_config();
  c.load.parallel = {4, 0};
  c.load.number = {10};
  expect_single_error(c, "--parallel values must be >= 1, got 0");
  c = valid_config();
  c.load.number = {0};
  expect_single_error(c, "-n/--number values must be >= 1");
  c = valid_config();
  c.load.parallel = {1, 2, 3};
  c.load.number = {10, 20};
  expect_single_error(c,
                      "--parallel has 3 values but -n/--number has 2: give one -n for all runs "
                      "or one per --parallel value");
  c = valid_config();
  c.load.parallel = {1};
  c.load.number = {10, 20};
  expect_single_error(c, "--parallel has 1 value but -n/--number has 2");
  c = valid_config();
  c.load.parallel.clear();
  expect_single_error(c, "--parallel needs at least one value");
}

TEST(ConfigValidate, LoadScalars) {
  Config c = valid_config();
  c.load.threads = -1;
  expect_single_error(c, "--threads");
  c = valid_config();
  c.load.sleep_interval_s = -0.1;
  expect_single_error(c, "--sleep-interval");
  c = valid_config();
  c.load.sleep_interval_s = 0;
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, Timeouts) {
  Config c = valid_config();
  c.target.connect_timeout_s = -1;
  expect_single_error(c, "--connect-timeout");
  c = valid_config();
  c.target.read_timeout_s = std::nan("");
  expect_single_error(c, "--read-timeout");
  c = valid_config();
  c.target.total_timeout_s = -5;
  expect_single_error(c, "--total-timeout");
  c = valid_config();
  c.target.connect_timeout_s = c.target.read_timeout_s = c.target.total_timeout_s = 0;
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, TokenLimits) {
  Config c = valid_config();
  c.body.max_tokens = 0;
  expect_single_error(c, "--max-tokens must be >= 1");
  c = valid_config();
  c.body.min_tokens = -1;
  expect_single_error(c, "--min-tokens must be >= 0");
  c = valid_config();
  c.body.min_tokens = 100;
  c.body.max_tokens = 50;
  expect_single_error(c, "--min-tokens (100) must not exceed --max-tokens (50)");
  c = valid_config();
  c.body.min_tokens = 50;
  c.body.max_tokens = 50;
  EXPECT_TRUE(resolved_errors(c).empty());
  c = valid_config();
  c.body.max_tokens.reset();
  c.body.min_tokens = 5000;
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, Sampling) {
  Config c = valid_config();
  c.body.temperature = -0.5;
  expect_single_error(c, "--temperature");
  for (double bad : {0.0, -0.1, 1.01}) {
    c = valid_config();
    c.body.top_p = bad;
    expect_single_error(c, "--top-p must be in (0, 1]");
  }
  c = valid_config();
  c.body.top_p = 1.0;
  c.body.temperature.reset();
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, PromptLengths) {
  Config c = valid_config();
  c.workload.min_prompt_length = -1;
  expect_single_error(c, "--min-prompt-length must be >= 0");
  c = valid_config();
  c.workload.min_prompt_length = 100;
  c.workload.max_prompt_length = 99;
  expect_single_error(c, "--min-prompt-length (100) must not exceed --max-prompt-length (99)");
  c = valid_config();
  c.workload.min_prompt_length = c.workload.max_prompt_length = 100;
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, DatasetKindAndSource) {
  Config c = valid_config();
  c.workload.dataset = "alpaca";
  expect_single_error(c, "--dataset must be one of openqa, line_by_line, longalpaca");
  c.workload.dataset_path
      .clear();  // an unknown kind is the only complaint, not also its missing file
  expect_single_error(c, "--dataset must be one of openqa, line_by_line, longalpaca");
  c.workload.dataset = "flickr8k";  // EvalScope knows it: the message says what to do
  expect_single_error(c, "put the questions in a line_by_line file of messages");
  c.workload.dataset = "sharegpt";  // a file of its own
  expect_single_error(c, "--dataset-path is required for --dataset sharegpt");
  c = valid_config();
  c.workload.dataset_path.clear();
  expect_single_error(c, "--prompt");
  c.workload.prompt = "hello";
  EXPECT_TRUE(resolved_errors(c).empty());
}

TEST(ConfigValidate, RandomLengthsInTokens) {
  Config c;
  c.target.model = "qwen";
  c.workload.dataset = "random";
  expect_single_error(c, "--input-tokens N");  // no lengths at all
  c.workload.input_tokens = {100};
  EXPECT_TRUE(resolved_errors(c).empty());
  c.workload.input_tokens = {100, 0};
  expect_single_error(c, "--input-tokens must be >= 1, got 0");
  c.workload.input_tokens = {100};
  c.workload.output_tokens = {-5};
  expect_single_error(c, "--output-tokens must be >= 1, got -5");
  c.workload.output_tokens = {};
  c.workload.max_prompt_length = 200;
  expect_single_error(c, "give one");  // --input-tokens and a range
  c.workload.input_tokens = {};
  EXPECT_TRUE(resolved_errors(c).empty());
  c.workload.prefix_length = -1;
  expect_single_error(c, "--prefix-length must be >= 0");
  c.workload.prefix_length = 0;
  c.workload.prompt = "hi";
  expect_single_error(c, "--prompt gives a fixed prompt");
  c.workload.prompt.clear();
  c.workload.tokenize_prompt = true;  // on the chat API
  expect_single_error(c, "only the completions API");
}

TEST(ConfigValidate, SyntheticFlagsNeedASyntheticDataset) {
  for (const auto& set : std::vector<std::pair<std::string, void (*)(Config&)>>{
           {"--input-tokens", [](Config& c) { c.workload.input_tokens = {100}; }},
           {"--output-tokens", [](Config& c) { c.workload.output_tokens = {10}; }},
           {"--prefix-length", [](Config& c) { c.workload.prefix_length = 5; }},
           {"--tokenize-prompt", [](Config& c) { c.workload.tokenize_prompt = true; }}}) {
    Config c = valid_config();
    set.second(c);
    expect_single_error(c, set.first + " makes synthetic prompts");
  }
}

TEST(ConfigValidate, ExtraArgsMustBeJsonObject) {
  Config c = valid_config();
  c.body.extra_args = R"({"ignore_eos": true, "top_k": 5})";
  EXPECT_TRUE(resolved_errors(c).empty());
  c.body.extra_args = "{oops";
  expect_single_error(c, "--extra-args is not valid JSON");
  c.body.extra_args = R"(["a"])";
  expect_single_error(c, "--extra-args must be a JSON object");
}

TEST(ConfigValidate, OutputFields) {
  Config c = valid_config();
  c.output.percentiles = {50, 100.5};
  expect_single_error(c, "--percentiles values must be in [0, 100], got 100.5");
  c = valid_config();
  c.output.percentiles = {0, 100};
  EXPECT_TRUE(resolved_errors(c).empty());
  c = valid_config();
  c.output.log_every_n_query = 0;
  expect_single_error(c, "--log-every-n-query");
}

TEST(ConfigValidate, ReportsEveryProblemAtOnce) {
  Config c;
  c.target.url = "nope";
  c.load.threads = -1;
  c.body.top_p = 2;
  EXPECT_EQ(resolved_errors(c).size(), 4u);  // url, dataset-path, threads, top-p
}

TEST(ConfigValidate, RampUp) {
  Config c = valid_config();
  c.load.ramp_up = RampUp{"linear", 1, 50};
  c.load.rate = {50};
  EXPECT_TRUE(resolved_errors(c).empty());
  c.load.ramp_up.start_rps = 0;
  expect_single_error(c, "--ramp-up-strategy needs --ramp-up-start-rps and --ramp-up-end-rps");
  c = valid_config();
  c.load.ramp_up = RampUp{"linear", 1, 50};
  c.load.rate = {5, 10};
  c.load.parallel = {100};
  expect_single_error(c, "drop the --rate list");
  c = valid_config();
  c.load.ramp_up.end_rps = 5;
  expect_single_error(c, "need --ramp-up-strategy");
}

TEST(ConfigValidate, ServerMetricsFlags) {
  Config c = valid_config();
  c.server.metrics_interval_s = 0.01;
  expect_single_error(c, "--metrics-interval must be between 0.05 and 3600 seconds");
  c = valid_config();
  c.server.metrics_url = "localhost:8000/metrics";
  expect_single_error(c, "--metrics-url must start with http:// or https://");
  c = valid_config();
  c.server.metrics_url = "http://h:9000/metrics";
  c.server.server_metrics = false;
  expect_single_error(c, "contradict");
}

TEST(ConfigValidate, SharedPrefix) {
  Config c = valid_config();
  c.workload.dataset = "shared_prefix";
  c.workload.dataset_path.clear();
  c.workload.input_tokens = {50};
  c.workload.prefix_length = 500;
  EXPECT_TRUE(resolved_errors(c).empty());
  c.workload.prefix_length = 0;
  expect_single_error(c, "needs each group's prefix length");
  c.workload.prefix_length = 500;
  c.workload.prefix_groups = 0;
  expect_single_error(c, "--prefix-groups must be between 1 and 100000");
  c.workload.prefix_groups = 8;
  c.workload.prefix_zipf = -1;
  expect_single_error(c, "--prefix-zipf");
  c.workload.prefix_zipf = 1.2;
  c.workload.input_tokens = {50, 100};
  expect_single_error(c, "one question length");
}

}  // namespace
}  // namespace llmperf

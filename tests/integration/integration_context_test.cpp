// End-to-end tests of requests longer than the server's context (issue 23): llmperf-mock reports
// --max-model-len through /v1/models (and its vLLM-shape /tokenize), and with --truncate-prompts
// cuts a prompt that does not fit as llama.cpp's server does. Before a run, a workload whose
// longest request (input + max_tokens) exceeds the context is refused with exit code 2, for
// random prompts, a grid, ShareGPT, a Mooncake trace and random conversations with their history;
// --allow-truncation runs it with a warning, and the run ends with a WARNING, a length_miss figure
// in summary.json and an SLO that fails it.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> random_args(const MockServer& mock) {
  return {"--url",     mock.chat_url(), "--model",          "mock-model",
          "--dataset", "random",        "--sleep-interval", "0"};
}

// A refused run: exit code 2, the reason on stderr naming `parts`, and no request sent (no run
// directory).
void expect_refused(const BenchRun& run, const std::vector<std::string>& parts) {
  EXPECT_EQ(run.process.exit_code, 2) << diagnostics(run);
  EXPECT_TRUE(run.run_dirs.empty()) << diagnostics(run);
  for (const std::string& part : parts) {
    EXPECT_TRUE(contains(run.process.err, part)) << part << " in:\n" << run.process.err;
  }
  EXPECT_TRUE(contains(run.process.err, "--allow-truncation")) << run.process.err;
}

TEST(IntegrationContext, RandomLongerThanTheContextIsRefused) {
  MockServer mock({"--max-model-len", "512"});
  const BenchRun run = run_llmperf(
      concat(random_args(mock), {"--input-tokens", "600", "--output-tokens", "32", "-n", "4"}));
  expect_refused(run, {"600 input + 32 output = 632 tokens",
                       "the server's context of 512 tokens (/v1/models max_model_len)"});
}

TEST(IntegrationContext, TheLongestCellOfAGridIsCheckedBeforeTheFirstRun) {
  MockServer mock({"--max-model-len", "512"});
  const BenchRun run =
      run_llmperf(concat(random_args(mock), {"--input-tokens", "100", "480", "--output-tokens",
                                             "16", "40", "-n", "2"}));
  expect_refused(run, {"480 input + 40 output = 520 tokens", "context of 512 tokens"});
}

TEST(IntegrationContext, ExactlyTheContextRunsWithoutAWarning) {
  MockServer mock({"--max-model-len", "512", "--truncate-prompts"});
  const BenchRun run = run_llmperf(
      concat(random_args(mock), {"--input-tokens", "480", "--output-tokens", "32", "-n", "4"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(contains(run.process.out, "did not get the length")) << run.process.out;
  const json& miss = run.summary["exactness"]["length_miss"];
  EXPECT_EQ(miss["checked"], 4) << miss.dump();
  EXPECT_EQ(miss["missed"], 0) << miss.dump();
  EXPECT_EQ(miss["share"], 0.0) << miss.dump();
  EXPECT_EQ(miss["warning"], false) << miss.dump();
}

TEST(IntegrationContext, AllowTruncationRunsWarnsAtTheEndAndTheSloFails) {
  // The mock cuts 600 tokens to 344 in a 512-token context, as llama.cpp's server does.
  MockServer mock({"--max-model-len", "512", "--truncate-prompts"});
  const BenchRun run = run_llmperf(
      concat(random_args(mock), {"--input-tokens", "600", "--output-tokens", "32", "-n", "4",
                                 "--allow-truncation", "--slo", "length_miss<=0"}));
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);  // the SLO, not the run, failed
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.err, "632 tokens")) << run.process.err;
  EXPECT_TRUE(contains(run.process.err, "running anyway (--allow-truncation)")) << run.process.err;
  // The WARNING is the last thing of the run's text.
  const std::string& out = run.process.out;
  const size_t warning = out.find("WARNING: 4 of 4 requests (100%) did not get the length");
  ASSERT_NE(warning, std::string::npos) << out;
  EXPECT_TRUE(contains(out.substr(warning), "input in 4: -256 x4")) << out;
  EXPECT_FALSE(contains(out.substr(warning), "Lengths")) << out;
  const json& miss = run.summary["exactness"]["length_miss"];
  EXPECT_EQ(miss["checked"], 4) << miss.dump();
  EXPECT_EQ(miss["missed"], 4) << miss.dump();
  EXPECT_EQ(miss["share"], 1.0) << miss.dump();
  EXPECT_EQ(miss["warning"], true) << miss.dump();
  EXPECT_EQ(run.summary["config"]["allow_truncation"], true);
  for (const json& r : read_requests(run.run_dirs.front())) {
    EXPECT_EQ(r["input_tokens"], 344) << r.dump();
  }
}

TEST(IntegrationContext, ShareGptsLongestPromptIsChecked) {
  MockServer mock({"--max-model-len", "64"});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "sharegpt",
                   "--dataset-path", LLMPERF_FIXTURES_DIR "/sharegpt/sample.json", "-n", "8"});
  expect_refused(run, {"(ShareGPT prompt ", "context of 64 tokens"});
}

TEST(IntegrationContext, ATracesLongestLineIsChecked) {
  const std::string dir = make_temp_dir();
  const std::string path = dir + "/trace.jsonl";
  std::ofstream trace(path);
  trace << json{{"timestamp", 0}, {"input_length", 100}, {"output_length", 8}, {"hash_ids", {1}}}
        << "\n"
        << json{{"timestamp", 10}, {"input_length", 500}, {"output_length", 20}, {"hash_ids", {2}}}
        << "\n";
  trace.close();
  MockServer mock({"--max-model-len", "512"});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "mooncake_trace",
                   "--dataset-path", path, "--trace-block-tokens", "512"});
  expect_refused(run, {"(line 2 of the trace)", "500 input + 20 output = 520 tokens"});
  fs::remove_all(dir);
}

TEST(IntegrationContext, AConversationsLastTurnCarriesItsHistory) {
  // 4 turns of 100-token messages and 50-token answers: the last request holds 4 x 100 + 3 x 50
  // tokens of history and message, and asks 50 more.
  MockServer mock({"--max-model-len", "512"});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset",
                   "random_multi_turn", "--input-tokens", "100", "--output-tokens", "50",
                   "--min-turns", "4", "--max-turns", "4", "-n", "2", "--sleep-interval", "0"});
  expect_refused(run, {"the last turn of a 4-turn conversation", "550 input + 50 output"});
}

}  // namespace
}  // namespace llmperf::testing

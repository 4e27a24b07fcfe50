// End-to-end tests of synthetic prompts of exact token lengths (issue 11): the real llmperf binary
// with --dataset random against llmperf-mock, whose own tokenizer (mock/tokenizer.h) both answers
// the tokenize API and counts usage.prompt_tokens, so every length can be checked exactly: in chat
// and completions, with a shared prefix, through each tokenize API shape, without one
// (approximate), as token ids, drawn from a range, and as an input x output grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kChatPath = "/v1/chat/completions";
constexpr const char* kCompletionsPath = "/v1/completions";

// The tokens one user message adds to its content in the mock's chat template (BOS + ChatML).
constexpr int64_t kMockChatOverhead = 11;

// --url/--model/--dataset random for a run against `mock` at `path`; no --prompt, since random
// makes its own.
std::vector<std::string> synthetic_args(const MockServer& mock, const std::string& path) {
  return {"--url",     mock.base() + path, "--model",          "mock-model",
          "--dataset", "random",           "--sleep-interval", "0"};
}

// Every request of `run_dir` succeeded, was built to `input`/`output` tokens and was counted so by
// the mock's usage; there are `requests` of them.
void expect_every_request_exact(const fs::path& run_dir, int64_t input, int64_t output,
                                int64_t requests) {
  SCOPED_TRACE(run_dir.string());
  const std::vector<json> records = read_requests(run_dir);
  EXPECT_EQ(static_cast<int64_t>(records.size()), requests);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["target_input_tokens"], input) << r.dump();
    EXPECT_EQ(r["input_tokens"], input) << r.dump();
    EXPECT_EQ(r["target_output_tokens"], output) << r.dump();
    EXPECT_EQ(r["output_tokens"], output) << r.dump();
    EXPECT_EQ(r["input_token_source"], "usage");
    EXPECT_EQ(r["output_token_source"], "usage");
    // Only the shortest prompts (all template, or BOS alone) are empty.
    if (input > kMockChatOverhead) {
      EXPECT_GT(r["input_chars"].get<int64_t>(), 0);
    }
  }
}

// summary.json says every one of `requests` requests realized both its lengths exactly.
void expect_summary_exact(const json& summary, int64_t requests) {
  for (const char* side : {"input", "output"}) {
    SCOPED_TRACE(side);
    const json& e = summary["exactness"][side];
    EXPECT_EQ(e["requests"], requests);
    EXPECT_EQ(e["verified"], requests);
    EXPECT_EQ(e["matched"], requests);
    EXPECT_TRUE(e["differences"].empty()) << e.dump();
  }
  EXPECT_TRUE(summary["workload"]["synthetic"].get<bool>());
  EXPECT_TRUE(summary["workload"]["tokenizer"]["exact"].get<bool>()) << summary["workload"].dump();
  EXPECT_EQ(summary["workload"]["fit_misses"], 0);
}

// One run of `input` + `prefix` / `output` tokens at `path`, checked in every output.
void expect_exact_run(const std::string& path, int64_t prefix) {
  SCOPED_TRACE(std::string(path) + " prefix " + std::to_string(prefix));
  MockServer mock({});
  std::vector<std::string> args =
      concat(synthetic_args(mock, path),
             {"--input-tokens", "100", "--output-tokens", "20", "--parallel", "2", "-n", "8"});
  if (prefix > 0) args = concat(args, {"--prefix-length", std::to_string(prefix)});
  const BenchRun run = run_llmperf(args);
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  const int64_t input = 100 + prefix;
  expect_every_request_exact(run.run_dirs.front(), input, 20, 8);
  expect_summary_exact(run.summary, 8);
  EXPECT_EQ(run.summary["exactness"]["input"]["min_target"], input);
  EXPECT_EQ(run.summary["exactness"]["input"]["max_target"], input);
  EXPECT_EQ(run.summary["workload"]["prefix_tokens"], prefix);
  EXPECT_EQ(run.summary["run"]["input_tokens"], 100);
  EXPECT_EQ(run.summary["run"]["output_tokens"], 20);
  EXPECT_TRUE(contains(run.process.out, "\nLengths")) << run.process.out;
  EXPECT_TRUE(contains(run.process.out,
                       std::to_string(input) + " requested, realized exactly in 8 of 8 requests"))
      << run.process.out;
  EXPECT_TRUE(contains(run.process.out, "20 requested, realized exactly in 8 of 8 requests"))
      << run.process.out;
}

TEST(IntegrationSynthetic, ChatLengthsAreExact) { expect_exact_run(kChatPath, 0); }

TEST(IntegrationSynthetic, CompletionsLengthsAreExact) { expect_exact_run(kCompletionsPath, 0); }

TEST(IntegrationSynthetic, SharedPrefixAddsToEveryChatRequest) { expect_exact_run(kChatPath, 30); }

TEST(IntegrationSynthetic, SharedPrefixAddsToEveryCompletionsRequest) {
  expect_exact_run(kCompletionsPath, 30);
}

TEST(IntegrationSynthetic, EveryTokenizeApiShapeGivesExactLengths) {
  const std::map<std::string, std::string> shapes = {
      {"vllm", "vLLM/SGLang"}, {"llamacpp", "llama.cpp"}, {"tgi", "TGI"}};
  for (const auto& [api, name] : shapes) {
    SCOPED_TRACE(api);
    MockServer mock({"--tokenize-api", api});
    const BenchRun run = run_llmperf(
        concat(synthetic_args(mock, kChatPath),
               {"--input-tokens", "100", "--output-tokens", "20", "--parallel", "2", "-n", "6"}));
    ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
    ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
    expect_every_request_exact(run.run_dirs.front(), 100, 20, 6);
    expect_summary_exact(run.summary, 6);
    EXPECT_EQ(run.summary["workload"]["tokenizer"]["source"], "server /tokenize (" + name + ")");
    EXPECT_TRUE(contains(run.process.out, "server /tokenize (" + name + ")")) << run.process.out;
  }
}

TEST(IntegrationSynthetic, WithoutATokenizeApiLengthsAreCalibratedAndApproximate) {
  MockServer mock({"--tokenize-api", "none"});
  const BenchRun run =
      run_llmperf(concat(synthetic_args(mock, kChatPath),
                         {"--input-tokens", "100", "--output-tokens", "20", "-n", "6"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  const json& workload = run.summary["workload"];
  EXPECT_FALSE(workload["tokenizer"]["exact"].get<bool>()) << workload.dump();
  EXPECT_EQ(workload["tokenizer"]["source"], "usage calibration");
  EXPECT_TRUE(contains(run.process.out, "APPROXIMATE")) << run.process.out;
  EXPECT_TRUE(contains(run.process.err, "APPROXIMATE")) << run.process.err;
  EXPECT_EQ(run.summary["requests"]["succeeded"], 6);
  // Output lengths do not need a tokenizer (max_tokens with ignore_eos); input lengths are near.
  EXPECT_EQ(run.summary["exactness"]["output"]["matched"], 6);
  for (const json& r : read_requests(run.run_dirs.front())) {
    EXPECT_EQ(r["target_input_tokens"], 100);
    EXPECT_NEAR(r["input_tokens"].get<double>(), 100.0, 25.0) << r.dump();
    EXPECT_EQ(r["output_tokens"], 20);
  }
}

TEST(IntegrationSynthetic, GridMakesOneRunPerCellAndGridTables) {
  MockServer mock({});
  const BenchRun run = run_llmperf(concat(
      synthetic_args(mock, kChatPath),
      {"--input-tokens", "50", "100", "--output-tokens", "5", "10", "--parallel", "2", "-n", "4"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  std::set<std::string> names;
  for (const fs::path& dir : run.run_dirs) names.insert(dir.filename().string());
  EXPECT_EQ(names, (std::set<std::string>{
                       "parallel_2_number_4_in_50_out_5", "parallel_2_number_4_in_50_out_10",
                       "parallel_2_number_4_in_100_out_5", "parallel_2_number_4_in_100_out_10"}));
  for (const fs::path& dir : run.run_dirs) {
    const json summary = json::parse(read_file((dir / "summary.json").string()));
    const int64_t input = summary["run"]["input_tokens"];
    const int64_t output = summary["run"]["output_tokens"];
    EXPECT_EQ(dir.filename().string(),
              "parallel_2_number_4_in_" + std::to_string(input) + "_out_" + std::to_string(output));
    expect_every_request_exact(dir, input, output, 4);
    expect_summary_exact(summary, 4);
  }

  for (const char* file : {"grid_summary.md", "grid_summary.csv", "grid_summary.json"}) {
    EXPECT_TRUE(fs::exists(run.sweep_dir / file)) << run.sweep_dir / file;
  }
  const json grid = json::parse(read_file((run.sweep_dir / "grid_summary.json").string()));
  ASSERT_EQ(grid.size(), 4u) << grid.dump();
  std::set<std::pair<int64_t, int64_t>> cells;
  for (const json& row : grid) {
    cells.insert({row["input_tokens"].get<int64_t>(), row["output_tokens"].get<int64_t>()});
    EXPECT_EQ(row["parallel"], 2);
    EXPECT_EQ(row["succeeded"], 4);
    EXPECT_EQ(row["failed"], 0);
  }
  EXPECT_EQ(cells, (std::set<std::pair<int64_t, int64_t>>{{50, 5}, {50, 10}, {100, 5}, {100, 10}}));
  // The CSV: a header and one row per cell.
  std::istringstream csv(read_file((run.sweep_dir / "grid_summary.csv").string()));
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].rfind("parallel,rate,input_tokens,output_tokens,", 0), 0u) << lines[0];
  // The Markdown: inputs as rows, outputs as columns.
  const std::string md = read_file((run.sweep_dir / "grid_summary.md").string());
  EXPECT_TRUE(contains(md, "| input \\ output | 5 | 10 |")) << md;
  EXPECT_TRUE(contains(md, "\n| 50 |")) << md;
  EXPECT_TRUE(contains(md, "\n| 100 |")) << md;
  EXPECT_TRUE(contains(run.process.out, "Grid at concurrency 2")) << run.process.out;
}

TEST(IntegrationSynthetic, TokenizeUrlNamesAnotherServersTokenizer) {
  // The server under test has no tokenize API; a second one (same tokenizer) counts for it.
  MockServer target({"--tokenize-api", "none"});
  MockServer tokenizer({"--tokenize-api", "llamacpp"});
  const BenchRun run =
      run_llmperf(concat(synthetic_args(target, kChatPath),
                         {"--tokenize-url", tokenizer.base(), "--input-tokens", "60",
                          "--output-tokens", "6", "--parallel", "2", "-n", "4"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  EXPECT_EQ(run.summary["workload"]["tokenizer"]["source"], "server /tokenize (llama.cpp)");
  expect_every_request_exact(run.run_dirs.front(), 60, 6, 4);
  expect_summary_exact(run.summary, 4);
}

TEST(IntegrationSynthetic, NoIgnoreEosLetsOutputsEndAtTheModelsLength) {
  // The mock's "model" stops after 8 tokens unless told to ignore its end of sequence.
  MockServer mock({"--output-tokens", "8"});
  const BenchRun run = run_llmperf(
      concat(synthetic_args(mock, kChatPath),
             {"--no-ignore-eos", "--input-tokens", "30", "--output-tokens", "20", "-n", "3"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  for (const json& r : read_requests(run.run_dirs.front())) {
    EXPECT_EQ(r["input_tokens"], 30) << r.dump();
    EXPECT_EQ(r["target_output_tokens"], 20) << r.dump();
    EXPECT_EQ(r["output_tokens"], 8) << r.dump();
  }
  const json& output = run.summary["exactness"]["output"];
  EXPECT_EQ(output["matched"], 0);
  EXPECT_EQ(output["differences"], json({{"-12", 3}})) << output.dump();
  EXPECT_TRUE(contains(run.process.out, "realized - requested: -12 x3")) << run.process.out;
}

TEST(IntegrationSynthetic, SpeedBenchmarkIsAPresetGridOnCompletions) {
  // The preset's lengths are overridden to keep the test small; its load (parallel 1, 2 requests
  // per cell) and its API (completions) stay.
  MockServer mock({});
  const BenchRun run = run_llmperf(concat({"--url", mock.chat_url(), "--model", "mock-model",
                                           "--dataset", "speed_benchmark", "--sleep-interval", "0"},
                                          {"--input-tokens", "1", "50", "--output-tokens", "5"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.err, "sending to " + mock.base() + kCompletionsPath))
      << run.process.err;
  ASSERT_EQ(run.run_dirs.size(), 2u) << diagnostics(run);
  EXPECT_EQ(run.run_dirs[0].filename(), "parallel_1_number_2_in_1_out_5");
  EXPECT_EQ(run.run_dirs[1].filename(), "parallel_1_number_2_in_50_out_5");
  // One token on the completions API is BOS alone: an empty prompt.
  expect_every_request_exact(run.run_dirs[0], 1, 5, 2);
  expect_every_request_exact(run.run_dirs[1], 50, 5, 2);
  EXPECT_TRUE(fs::exists(run.sweep_dir / "grid_summary.json"));
}

TEST(IntegrationSynthetic, TokenIdPromptsAreExact) {
  // Sent as ids, a prompt counts one token per id at the mock; sent as text it would count BOS
  // and its tokens, one more than the target. Usage equal to the target shows the ids went out.
  MockServer mock({});
  const BenchRun run = run_llmperf(
      concat(synthetic_args(mock, kCompletionsPath),
             {"--tokenize-prompt", "--input-tokens", "100", "--output-tokens", "20", "-n", "6"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  expect_every_request_exact(run.run_dirs.front(), 100, 20, 6);
  expect_summary_exact(run.summary, 6);
}

TEST(IntegrationSynthetic, TokenIdPromptsMoveAChatUrlToCompletions) {
  MockServer mock({});
  const BenchRun run = run_llmperf(
      concat(synthetic_args(mock, kChatPath),
             {"--tokenize-prompt", "--input-tokens", "40", "--output-tokens", "4", "-n", "3"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.err, "sending to " + mock.base() + kCompletionsPath))
      << run.process.err;
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  expect_every_request_exact(run.run_dirs.front(), 40, 4, 3);
}

TEST(IntegrationSynthetic, LengthsDrawnFromARangeAreRealizedExactly) {
  MockServer mock({});
  const BenchRun run = run_llmperf(concat(
      synthetic_args(mock, kChatPath), {"--min-prompt-length", "20", "--max-prompt-length", "400",
                                        "--max-tokens", "3", "9", "--parallel", "4", "-n", "30"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  std::set<int64_t> inputs;
  std::set<int64_t> outputs;
  const std::vector<json> records = read_requests(run.run_dirs.front());
  EXPECT_EQ(records.size(), 30u);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    const int64_t input = r["target_input_tokens"];
    const int64_t output = r["target_output_tokens"];
    EXPECT_GE(input, 20);
    EXPECT_LE(input, 400);
    EXPECT_EQ(r["input_tokens"], input) << r.dump();
    EXPECT_GE(output, 3);
    EXPECT_LE(output, 9);
    EXPECT_EQ(r["output_tokens"], output) << r.dump();
    inputs.insert(input);
    outputs.insert(output);
  }
  // Drawn per request, not one length for all.
  EXPECT_GT(inputs.size(), 5u);
  EXPECT_GT(outputs.size(), 1u);
  expect_summary_exact(run.summary, 30);
}

TEST(IntegrationSynthetic, LengthsBelowTheTemplateAreRaisedToIt) {
  // A chat request cannot be shorter than its template: an empty user message is 11 tokens.
  MockServer mock({});
  const BenchRun run = run_llmperf(concat(synthetic_args(mock, kChatPath),
                                          {"--min-prompt-length", "1", "--max-prompt-length", "15",
                                           "--max-tokens", "2", "--parallel", "4", "-n", "30"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  int64_t at_minimum = 0;
  for (const json& r : read_requests(run.run_dirs.front())) {
    const int64_t input = r["target_input_tokens"];
    EXPECT_GE(input, kMockChatOverhead);
    EXPECT_LE(input, 15);
    EXPECT_EQ(r["input_tokens"], input) << r.dump();
    if (input == kMockChatOverhead) ++at_minimum;
  }
  // 10 of the 15 lengths in [1, 15] are below 11: most requests are raised.
  EXPECT_GT(at_minimum, 5);
  EXPECT_TRUE(contains(run.process.err, "were raised to it")) << run.process.err;
  expect_summary_exact(run.summary, 30);
}

TEST(IntegrationSynthetic, RandomWithoutLengthsIsAUsageError) {
  const ProcessResult result =
      run_process({LLMPERF_BIN, "--url", "http://127.0.0.1:9/v1/chat/completions", "--model", "m",
                   "--dataset", "random"},
                  kTimeoutS);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(contains(result.err, "--input-tokens")) << result.err;
}

TEST(IntegrationSynthetic, UnknownDatasetIsOneErrorLine) {
  const ProcessResult result =
      run_process({LLMPERF_BIN, "--url", "http://127.0.0.1:9/v1/chat/completions", "--model", "m",
                   "--dataset", "no_such_kind"},
                  kTimeoutS);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  std::istringstream lines(result.err + result.out);
  int errors = 0;
  for (std::string line; std::getline(lines, line);) {
    if (contains(line, "error")) ++errors;
  }
  EXPECT_EQ(errors, 1) << result.err;
  EXPECT_TRUE(contains(result.err, "no_such_kind")) << result.err;
  EXPECT_FALSE(contains(result.err, "--dataset-path")) << result.err;
}

// prompt_index -> input_chars of a run's requests.
std::map<int64_t, int64_t> chars_by_prompt(const fs::path& run_dir) {
  std::map<int64_t, int64_t> chars;
  for (const json& r : read_requests(run_dir)) {
    chars[r["prompt_index"].get<int64_t>()] = r["input_chars"].get<int64_t>();
  }
  return chars;
}

TEST(IntegrationSynthetic, EachRunOfASweepGetsFreshText) {
  // No output holds the prompt text itself. Prompts of the same token lengths built from the same
  // text would have the same characters, prompt by prompt; fresh text (of random words) gives
  // different character counts.
  MockServer mock({});
  const BenchRun run = run_llmperf(
      concat(synthetic_args(mock, kChatPath),
             {"--input-tokens", "100", "--output-tokens", "5", "--parallel", "1", "2", "-n", "6"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 2u) << diagnostics(run);
  for (const fs::path& dir : run.run_dirs) expect_every_request_exact(dir, 100, 5, 6);
  const std::map<int64_t, int64_t> first = chars_by_prompt(run.run_dirs[0]);
  const std::map<int64_t, int64_t> second = chars_by_prompt(run.run_dirs[1]);
  ASSERT_EQ(first.size(), 6u);
  ASSERT_EQ(second.size(), 6u);
  EXPECT_NE(first, second);
}

TEST(IntegrationSynthetic, SharedPrefixGroupsHitTheCacheAfterTheirFirstUse) {
  // The mock prefills at 0.2 ms per token it does not find in its prefix cache: a group's first
  // request pays for its 400-token prefix (about 80 ms more), the later ones only for their
  // questions.
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--prefix-cache-tokens", "1000000",
                   "--prefill-us-per-token", "200"});
  const BenchRun run = run_llmperf(
      {"--url", mock.base() + kChatPath, "--model", "mock-model", "--sleep-interval", "0",
       "--dataset", "shared_prefix", "--prefix-length", "400", "--input-tokens", "40",
       "--output-tokens", "4", "--prefix-groups", "3", "--prefix-zipf", "1", "--parallel", "2",
       "-n", "60"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = read_requests(run.run_dirs.front());
  ASSERT_EQ(records.size(), 60u);
  std::set<int64_t> groups;
  int64_t first_uses = 0;
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["input_tokens"], 440) << r.dump();
    groups.insert(r["prefix_group"].get<int64_t>());
    first_uses += r["prefix_first_use"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(static_cast<int64_t>(groups.size()), first_uses);
  const json& sp = run.summary["shared_prefix"];
  ASSERT_TRUE(sp.is_object()) << run.summary.dump(1).substr(0, 2000);
  EXPECT_EQ(sp["groups_used"], static_cast<int64_t>(groups.size()));
  EXPECT_EQ(sp["ttft_first_use_ms"]["count"], first_uses);
  const double first = sp["ttft_first_use_ms"]["mean"].get<double>();
  const double repeated = sp["ttft_repeated_use_ms"]["percentiles"]["p50"].get<double>();
  EXPECT_GT(first, repeated + 50) << sp.dump(1);
  // The server saw the reuse too: its prefix-cache counters moved.
  const json& counters = run.summary["server"]["metrics"]["counters"];
  EXPECT_GT(counters["prefix_cache_hits"].get<double>(), 0) << counters.dump();
  EXPECT_TRUE(contains(run.process.out, "First use of a prefix")) << run.process.out;
}

}  // namespace
}  // namespace llmperf::testing

// Coming from vLLM: command lines written for vLLM's benchmark client run unchanged but for the
// server's address, against llmperf-mock. `python benchmark_serving.py FLAGS` becomes
// `llmperf FLAGS`, and `vllm bench serve FLAGS` becomes `llmperf bench serve FLAGS`. The first two
// lines are field reports of older vLLM (--dataset was the ShareGPT file itself), the third is
// today's form; the ShareGPT file is the fixture under the name the lines give, in the working
// directory. Then the result file vLLM's --save-result writes, where and as it is asked for.
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
using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kShareGptFile = LLMPERF_FIXTURES_DIR "/sharegpt/sample.json";

// A working directory holding the fixture as `name`, as the vLLM lines expect to find it.
std::string directory_with_sharegpt(const std::string& name) {
  const std::string dir = make_temp_dir();
  fs::copy_file(kShareGptFile, fs::path(dir) / name);
  return dir;
}

TEST(ComingFromVllm, OldBenchmarkServingWithTheShareGptFileAsDataset) {
  // python benchmark_serving.py --dataset ShareGPT_V3_unfiltered_cleaned_split.json
  //   --tokenizer /data/SUS-Chat-34B/ --request-rate 32 --num-prompts 1000
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("ShareGPT_V3_unfiltered_cleaned_split.json");
  const BenchRun run = run_llmperf({"--dataset", "ShareGPT_V3_unfiltered_cleaned_split.json",
                                    "--tokenizer", "/data/SUS-Chat-34B/", "--request-rate", "32",
                                    "--num-prompts", "1000", "--port", std::to_string(mock.port())},
                                   cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json& s = run.summary;
  // No --model: the one model the server lists, said on stderr.
  EXPECT_EQ(s["config"]["model"], "mock-model");
  EXPECT_NE(run.process.err.find("model: mock-model, the one model the server lists"),
            std::string::npos)
      << run.process.err;
  // --tokenizer is accepted, and the note says tokens are counted with the server.
  EXPECT_NE(run.process.err.find("counts tokens with the server"), std::string::npos)
      << run.process.err;
  EXPECT_EQ(s["config"]["dataset"], "sharegpt");
  EXPECT_EQ(s["config"]["url"],
            "http://127.0.0.1:" + std::to_string(mock.port()) + "/v1/completions");
  EXPECT_EQ(s["run"]["rate"], 32.0);
  EXPECT_EQ(s["requests"]["succeeded"], 1000);
  EXPECT_EQ(read_requests(dir).size(), 1000u);
  const json result = json::parse(read_file((dir / "vllm_result.json").string()));
  EXPECT_EQ(result["backend"], "openai");
  EXPECT_EQ(result["model_id"], "mock-model");
  EXPECT_EQ(result["tokenizer_id"], "/data/SUS-Chat-34B/");
  EXPECT_EQ(result["request_rate"], 32.0);
  ASSERT_EQ(result["generated_texts"].size(), 1000u);
  for (const json& text : result["generated_texts"]) EXPECT_FALSE(text.get<std::string>().empty());
}

TEST(ComingFromVllm, OldBenchmarkServingWithBackendVllmAndProfile) {
  // python3 vllm/benchmarks/benchmark_serving.py --backend vllm
  //   --model /data/Qwen2.5-72B-Instruct-GPTQ-Int4
  //   --dataset ShareGPT_V3_unfiltered_cleaned_split.json --profile
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("ShareGPT_V3_unfiltered_cleaned_split.json");
  const BenchRun run =
      run_llmperf({"--backend", "vllm", "--model", "/data/Qwen2.5-72B-Instruct-GPTQ-Int4",
                   "--dataset", "ShareGPT_V3_unfiltered_cleaned_split.json", "--profile", "--port",
                   std::to_string(mock.port())},
                  cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json& s = run.summary;
  EXPECT_EQ(s["config"]["model"], "/data/Qwen2.5-72B-Instruct-GPTQ-Int4");
  EXPECT_EQ(s["config"]["url"],
            "http://127.0.0.1:" + std::to_string(mock.port()) + "/v1/completions");
  // vLLM's defaults: 1000 prompts, all sent at once (--request-rate inf, no cap).
  EXPECT_EQ(s["run"]["number"], 1000);
  EXPECT_EQ(s["run"]["parallel"], 1000);
  EXPECT_EQ(s["requests"]["succeeded"], 1000);
  EXPECT_TRUE(s["config"]["profile"].get<bool>());
  EXPECT_NE(run.process.err.find("profiler started"), std::string::npos) << run.process.err;
  const json result = json::parse(read_file((dir / "vllm_result.json").string()));
  EXPECT_EQ(result["backend"], "vllm");
  EXPECT_EQ(result["endpoint_type"], "vllm");
  EXPECT_EQ(result["model_id"], "/data/Qwen2.5-72B-Instruct-GPTQ-Int4");
}

// vllm bench serve --backend openai-chat --base-url http://127.0.0.1:8000
//   --endpoint /v1/chat/completions --model m --dataset-name sharegpt --dataset-path sg.json
//   --num-prompts 10
std::vector<std::string> bench_serve_line(const MockServer& mock) {
  return {"bench",          "serve",     "--backend",      "openai-chat",
          "--base-url",     mock.base(), "--endpoint",     "/v1/chat/completions",
          "--model",        "m",         "--dataset-name", "sharegpt",
          "--dataset-path", "sg.json",   "--num-prompts",  "10"};
}

TEST(ComingFromVllm, VllmBenchServe) {
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("sg.json");
  const BenchRun run = run_llmperf(bench_serve_line(mock), cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json& s = run.summary;
  EXPECT_EQ(s["config"]["url"], mock.chat_url());
  EXPECT_EQ(s["config"]["model"], "m");
  EXPECT_EQ(s["run"]["parallel"], 10);  // all at once, as vLLM sends them
  EXPECT_EQ(s["requests"]["succeeded"], 10);
  // vLLM's --save-result was not asked for: nothing is written to the working directory.
  for (const auto& entry : fs::directory_iterator(cwd)) {
    EXPECT_EQ(entry.path().filename(), "sg.json");
  }
}

TEST(ComingFromVllm, SaveResultWritesVllmsFileWhereAsked) {
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("sg.json");
  const BenchRun run = run_llmperf(
      concat(bench_serve_line(mock),
             {"--save-result", "--save-detailed", "--result-dir", "results", "--result-filename",
              "run1.json", "--metadata", "tp=2", "version=0.11", "--label", "nightly"}),
      cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const fs::path saved = fs::path(cwd) / "results" / "run1.json";
  ASSERT_TRUE(fs::exists(saved)) << diagnostics(run);
  const ordered_json result = ordered_json::parse(read_file(saved.string()));
  // The same file as the run directory's (but for the date, to the second).
  ordered_json in_run = ordered_json::parse(read_file((dir / "vllm_result.json").string()));
  in_run["date"] = result["date"];
  EXPECT_EQ(result, in_run);
  std::vector<std::string> head;
  for (const auto& item : result.items()) head.push_back(item.key());
  head.resize(12);
  EXPECT_EQ(head, (std::vector<std::string>{"date", "endpoint_type", "backend", "label", "model_id",
                                            "tokenizer_id", "num_prompts", "tp", "version",
                                            "request_rate", "burstiness", "max_concurrency"}));
  EXPECT_EQ(result["endpoint_type"], "openai-chat");
  EXPECT_EQ(result["label"], "nightly");
  EXPECT_EQ(result["tp"], "2");
  EXPECT_EQ(result["request_rate"], "inf");
  EXPECT_TRUE(result["max_concurrency"].is_null());  // no --max-concurrency, as in vLLM
  EXPECT_EQ(result["completed"], 10);
  // generated_texts: each request's answer as received, as requests.jsonl keeps it.
  const std::vector<json> records = read_requests(dir);
  ASSERT_EQ(result["generated_texts"].size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_FALSE(records[i]["output_text"].get<std::string>().empty());
    EXPECT_EQ(result["generated_texts"][i].get<std::string>(),
              records[i]["output_text"].get<std::string>());
  }
}

// The per-request arrays of benchmark_serving.py's result file, which it saved whatever its
// --save-detailed said; `vllm bench serve` drops them without --save-detailed.
const std::vector<std::string> kPerRequestArrays = {"input_lens", "output_lens",     "ttfts",
                                                    "itls",       "generated_texts", "errors"};

// The one *.json file `dir` holds besides the ShareGPT file.
fs::path only_result_copy(const std::string& dir) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "sg.json") {
      found.push_back(entry.path());
    }
  }
  return found.size() == 1 ? found.front() : fs::path();
}

TEST(ComingFromVllm, OldBenchmarkServingSaveResultKeepsThePerRequestArrays) {
  // python3 benchmark_serving.py --backend vllm --model /data/Qwen2.5-72B-Instruct-GPTQ-Int4
  //   --dataset ShareGPT_V3_unfiltered_cleaned_split.json --save-result
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("sg.json");
  const BenchRun run = run_llmperf(
      {"--backend", "vllm", "--model", "/data/Qwen2.5-72B-Instruct-GPTQ-Int4", "--dataset",
       "sg.json", "--save-result", "--num-prompts", "20", "--port", std::to_string(mock.port())},
      cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty()) << diagnostics(run);
  // Where benchmark_serving.py puts it: {backend}-{rate}qps-{model's last part}-{date}.json.
  const fs::path saved = only_result_copy(cwd);
  ASSERT_FALSE(saved.empty()) << diagnostics(run);
  EXPECT_TRUE(saved.filename().string().starts_with("vllm-infqps-Qwen2.5-72B-Instruct-GPTQ-Int4-"))
      << saved;
  const json result = json::parse(read_file(saved.string()));
  const std::vector<json> records = read_requests(dir);
  ASSERT_EQ(records.size(), 20u);
  for (const std::string& key : kPerRequestArrays) {
    ASSERT_TRUE(result.contains(key)) << key << " missing from " << saved;
    EXPECT_EQ(result[key].size(), records.size()) << key;
  }
  // One entry per request, in the order requests.jsonl has them.
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(result["output_lens"][i], records[i]["output_tokens"]) << i;
    EXPECT_EQ(result["input_lens"][i], records[i]["input_tokens"]) << i;
    EXPECT_GT(result["ttfts"][i].get<double>(), 0.0) << i;
    EXPECT_TRUE(result["itls"][i].is_array()) << i;
    EXPECT_EQ(result["itls"][i].size() + 1, records[i]["chunk_ns"].size()) << i;
    EXPECT_EQ(result["generated_texts"][i], records[i]["output_text"]) << i;
    EXPECT_EQ(result["errors"][i], "") << i;
  }
}

TEST(ComingFromVllm, BenchServeSaveResultDropsTheArraysWithoutSaveDetailed) {
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("sg.json");
  const BenchRun run = run_llmperf(concat(bench_serve_line(mock), {"--save-result"}), cwd);
  ASSERT_FALSE(only_run_dir(run).empty()) << diagnostics(run);
  const fs::path saved = only_result_copy(cwd);
  ASSERT_FALSE(saved.empty()) << diagnostics(run);
  const json result = json::parse(read_file(saved.string()));
  for (const std::string& key : kPerRequestArrays) EXPECT_FALSE(result.contains(key)) << key;
  EXPECT_EQ(result["latencies"].size(), 10u);  // vLLM keeps it, as its serve.py does
  EXPECT_EQ(result["completed"], 10);
}

TEST(ComingFromVllm, KeepTextBoundsTheAnswersKept) {
  MockServer mock({});
  const std::string cwd = directory_with_sharegpt("sg.json");
  // A budget of a few bytes: the first answers to finish use it up, later ones keep nothing.
  const BenchRun run = run_llmperf(
      concat(bench_serve_line(mock), {"--max-concurrency", "1", "--keep-text", "0.00001"}), cwd);
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json result = json::parse(read_file((dir / "vllm_result.json").string()));
  ASSERT_EQ(result["generated_texts"].size(), 10u);
  EXPECT_FALSE(result["generated_texts"][0].get<std::string>().empty());
  EXPECT_EQ(result["generated_texts"][9], "");
  // None at all with 0.
  const BenchRun none = run_llmperf(concat(bench_serve_line(mock), {"--keep-text", "0"}), cwd);
  const fs::path none_dir = only_run_dir(none);
  ASSERT_FALSE(none_dir.empty());
  const json none_result = json::parse(read_file((none_dir / "vllm_result.json").string()));
  for (const json& text : none_result["generated_texts"]) EXPECT_EQ(text, "");
  for (const json& record : read_requests(none_dir)) EXPECT_FALSE(record.contains("output_text"));
}

TEST(ComingFromVllm, MissingModelWhereNoModelListAnswersIsAClearError) {
  // Without --model, a server whose /v1/models gives no list is refused with what it answered.
  MockServer mock({});
  const BenchRun run =
      run_llmperf({"--base-url", mock.base() + "/nowhere", "--dataset-name", "random",
                   "--random-input-len", "8", "--random-output-len", "4", "--num-prompts", "2"});
  EXPECT_NE(run.process.exit_code, 0);
  EXPECT_NE(run.process.err.find("/nowhere/v1/models gave no model list"), std::string::npos)
      << diagnostics(run);
}

}  // namespace
}  // namespace llmperf::testing

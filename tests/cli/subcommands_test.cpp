// `llmperf report` and `llmperf compare` on the hand-made output directories in
// tests/fixtures/outputs (round-number timestamps, so every expected value is obvious), the
// legacy EvalScope summary block, and the subcommands' flags (what they run with, and their exit
// codes: tests/app/offline_commands_test.cpp).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/offline/rebuild.h"
#include "cli/subcommands.h"
#include "report/tools.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kFixtures = fs::path(LLMPERF_FIXTURES_DIR) / "outputs";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class SubcommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_sub_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(kFixtures, dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SubcommandsTest, ReportRebuildsARunFromItsRecords) {
  const fs::path run = dir_ / "sweep_a" / "parallel_1_number_2";
  const std::string text = rebuild_reports({run.string(), {}, ""});
  EXPECT_NE(text.find("QPS (req/s)"), std::string::npos) << text;

  // Two requests 0-200 ms and 200-400 ms: 3 output and 10 input tokens each.
  const json s = json::parse(read(run / "summary.json"));
  EXPECT_EQ(s["schema"], "llmperf.summary/1");
  EXPECT_EQ(s["config"]["model"], "qwen");
  EXPECT_EQ(s["config"]["api_key"], "***");
  EXPECT_EQ(s["run"]["started_at"], "2026-01-02T03:04:05Z");
  EXPECT_DOUBLE_EQ(s["window_s"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(s["qps"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(s["output_throughput_tok_s"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(s["total_throughput_tok_s"].get<double>(), 65.0);
  EXPECT_DOUBLE_EQ(s["metrics"]["ttft_ms"]["mean"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(s["metrics"]["tpot_ms"]["mean"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(s["metrics"]["itl_ms"]["mean"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(s["metrics"]["latency_s"]["percentiles"]["p99"].get<double>(), 0.2);
  for (const char* file : {"benchmark_summary.json", "benchmark_percentile.json", "report.html"}) {
    EXPECT_TRUE(fs::exists(run / file)) << file;
  }
  // The records survive the round trip, wall-clock anchor included.
  const json first =
      json::parse(read(run / "requests.jsonl").substr(0, read(run / "requests.jsonl").find('\n')));
  EXPECT_EQ(first["sent_unix_ns"], 1'767'323'045'000'000'000);
  EXPECT_EQ(first["chunk_ns"], json({100'000'000, 120'000'000, 140'000'000}));
}

TEST_F(SubcommandsTest, ReportKeepsVllmsResultFlags) {
  // A run made with --backend vllm --label nightly --metadata tp=2 --tokenizer T: the rebuilt
  // vllm_result.json says so as the run's did.
  const fs::path run = dir_ / "sweep_a" / "parallel_1_number_2";
  json summary = json::parse(read(run / "summary.json"));
  summary["config"]["vllm"] = {{"backend", "vllm"},
                               {"label", "nightly"},
                               {"model_id", "/data/qwen"},
                               {"tokenizer", "/data/qwen-tokenizer"},
                               {"metadata", {{"tp", "2"}}}};
  summary["config"]["metric_percentiles"] = {90};
  std::ofstream(run / "summary.json") << summary.dump();
  rebuild_reports({run.string(), {}, ""});
  const json result = json::parse(read(run / "vllm_result.json"));
  EXPECT_EQ(result["backend"], "vllm");
  EXPECT_EQ(result["endpoint_type"], "vllm");
  EXPECT_EQ(result["label"], "nightly");
  EXPECT_EQ(result["model_id"], "/data/qwen");
  EXPECT_EQ(result["tokenizer_id"], "/data/qwen-tokenizer");
  EXPECT_EQ(result["tp"], "2");
  EXPECT_TRUE(result.contains("p90_ttft_ms"));
  // And the rebuilt summary.json carries them on.
  EXPECT_EQ(json::parse(read(run / "summary.json"))["config"]["vllm"], summary["config"]["vllm"]);
}

TEST_F(SubcommandsTest, ReportOnASweepRewritesTheSweepTables) {
  const std::string text = rebuild_reports({(dir_ / "sweep_a").string(), {50, 95}, ""});
  EXPECT_NE(text.find("Sweep summary (P95 = 95th percentile)"), std::string::npos) << text;
  EXPECT_EQ(read(dir_ / "sweep_a" / "sweep_table.md"),
            "Sweep table (P95 = 95th percentile)\n\n"
            "| Concurrency | 1 | 2 |\n"
            "| --- | ---: | ---: |\n"
            "| Requests | 2 | 4 |\n"
            "| Succeeded | 2 | 3 |\n"
            "| Failed | 0 | 1 |\n"
            "| QPS (req/s) | 5 | 7.500 |\n"
            "| Output (tok/s) | 15 | 22.50 |\n"
            "| Total (tok/s) | 65 | 97.50 |\n"
            "| Avg Lat (s) | 0.2000 | 0.2000 |\n"
            "| P50 Lat (s) | 0.2000 | 0.2000 |\n"
            "| P95 Lat (s) | 0.2000 | 0.2000 |\n"
            "| Avg TTFT (ms) | 100 | 100 |\n"
            "| P95 TTFT (ms) | 100 | 100 |\n"
            "| Avg TPOT (ms) | 50 | 50 |\n"
            "| P95 TPOT (ms) | 50 | 50 |\n"
            "| Avg ITL (ms) | 20 | 20 |\n"
            "| P95 ITL (ms) | 20 | 20 |\n"
            "| Avg input tokens | 10 | 10 |\n"
            "| Avg output tokens | 3 | 3 |\n");
  EXPECT_EQ(read(dir_ / "sweep_a" / "sweep_table.csv").substr(0, 60),
            "Concurrency,1,2\nRequests,2,4\nSucceeded,2,3\nFailed,0,1\nQPS (r");
  const json sweep = json::parse(read(dir_ / "sweep_a" / "sweep_summary.json"));
  ASSERT_EQ(sweep.size(), 2U);
  EXPECT_EQ(sweep[1]["parallel"], 2);
  EXPECT_EQ(sweep[1]["succeeded"], 3);
  EXPECT_DOUBLE_EQ(sweep[1]["latency_p95_s"].get<double>(), 0.2);
  EXPECT_TRUE(fs::exists(dir_ / "sweep_a" / "report.html"));
  const json p2 = json::parse(read(dir_ / "sweep_a" / "parallel_2_number_4" / "summary.json"));
  EXPECT_EQ(p2["failures_by_kind"], json({{"http_500", 1}}));
  EXPECT_EQ(p2["config"]["percentiles"], json({50, 95}));
}

TEST_F(SubcommandsTest, LegacySummaryFormatPrintsEvalScopeLabels) {
  const fs::path run = dir_ / "sweep_a" / "parallel_1_number_2";
  EXPECT_EQ(rebuild_reports({run.string(), {}, "evalscope-legacy"}),
            "Benchmarking summary: \n"
            " Time taken for tests: 0.400 seconds\n"
            " Expected number of requests: 2\n"
            " Number of concurrency: 1\n"
            " Total requests: 2\n"
            " Succeed requests: 2\n"
            " Failed requests: 0\n"
            " Average QPS: 5.000\n"
            " Average latency: 0.200\n"
            " Throughput(average output tokens per second): 15.000\n"
            " Average time to first token: 0.100\n"
            " Average input tokens per request: 10.000\n"
            " Average output tokens per request: 3.000\n"
            " Average time per output token: 0.06667\n"
            " Average package per request: 3.000\n"
            " Average package latency: 0.020\n"
            " Percentile of time to first token: \n"
            "     p50: 0.1000\n"
            "     p90: 0.1000\n"
            "     p99: 0.1000\n"
            " Percentile of request latency: \n"
            "     p50: 0.2000\n"
            "     p90: 0.2000\n"
            "     p99: 0.2000\n");
}

TEST_F(SubcommandsTest, CompareSweepAndRunSideBySide) {
  rebuild_reports({(dir_ / "sweep_a").string(), {}, ""});
  rebuild_reports({(dir_ / "run_b").string(), {}, ""});
  CompareOptions options;
  options.dirs = {(dir_ / "sweep_a").string(), (dir_ / "run_b").string()};
  options.labels = {"vLLM", "Xinference|中文"};
  options.outputs_dir = (dir_ / "cmp").string();
  const std::string md = compare_outputs(options).markdown;
  EXPECT_EQ(read(dir_ / "cmp" / "compare.md"), md);
  const std::string expected_head =
      "# llmperf compare\n\n"
      "| Deployment | Model | Server | Runs | Directory |\n"
      "| --- | ---: | ---: | ---: | ---: |\n"
      "| vLLM | qwen | - | 2 | " +
      options.dirs[0] +
      " |\n"
      "| Xinference\\|中文 | qwen | - | 1 | " +
      options.dirs[1] +
      " |\n"
      "\n## QPS (req/s)\n\n"
      "| Concurrency | vLLM | Xinference\\|中文 |\n"
      "| --- | ---: | ---: |\n"
      "| 1 | 5 | - |\n"
      "| 2 | 7.500 | 20 |\n"
      "\n## Output throughput (tok/s)\n\n"
      "| Concurrency | vLLM | Xinference\\|中文 |\n"
      "| --- | ---: | ---: |\n"
      "| 1 | 15 | - |\n"
      "| 2 | 22.50 | 60 |\n";
  EXPECT_EQ(md.substr(0, expected_head.size()), expected_head);
  EXPECT_NE(md.find("## Failed requests\n\n| Concurrency | vLLM | Xinference\\|中文 |\n"
                    "| --- | ---: | ---: |\n| 1 | 0 | - |\n| 2 | 1 | 0 |\n"),
            std::string::npos)
      << md;
  const std::string html = read(dir_ / "cmp" / "compare.html");
  EXPECT_NE(html.find("Xinference|中文"), std::string::npos);
  EXPECT_NE(html.find("Request throughput"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST_F(SubcommandsTest, CompareReadsSweepSummaryJsonWhenRunsAreGone) {
  rebuild_reports({(dir_ / "sweep_a").string(), {}, ""});
  fs::remove_all(dir_ / "sweep_a" / "parallel_1_number_2");
  fs::remove_all(dir_ / "sweep_a" / "parallel_2_number_4");
  CompareOptions options;
  options.dirs = {(dir_ / "sweep_a").string()};
  options.outputs_dir = (dir_ / "cmp").string();
  const std::string md = compare_outputs(options).markdown;
  EXPECT_NE(md.find("| Concurrency | sweep_a |\n| --- | ---: |\n| 1 | 5 |\n| 2 | 7.500 |\n"),
            std::string::npos)
      << md;
}

// argv for `llmperf WORDS...`, held while the parse reads it.
struct SubcommandArgv {
  explicit SubcommandArgv(std::vector<std::string> args) : words(std::move(args)) {
    words.insert(words.begin(), "llmperf");
    for (const std::string& word : words) argv.push_back(word.c_str());
  }
  SubcommandArgv(const SubcommandArgv&) = delete;  // argv points into words
  SubcommandArgv& operator=(const SubcommandArgv&) = delete;
  int argc() const { return static_cast<int>(argv.size()); }
  std::vector<std::string> words;
  std::vector<const char*> argv;
};

TEST_F(SubcommandsTest, ArgvHandling) {
  const SubcommandArgv missing({"report", (dir_ / "nope").string()});
  const ReportCli missing_dir = parse_report(missing.argc(), missing.argv.data());
  EXPECT_FALSE(missing_dir.proceed);
  EXPECT_EQ(missing_dir.outcome.exit_code, 2);

  const SubcommandArgv given(
      {"report", (dir_ / "run_b").string(), "--results-db", "h.db", "--results-db-requests"});
  const ReportCli report = parse_report(given.argc(), given.argv.data());
  ASSERT_TRUE(report.proceed) << report.outcome.err;
  EXPECT_EQ(report.options.dir, (dir_ / "run_b").string());
  EXPECT_EQ(report.results_db.db, "h.db");
  EXPECT_TRUE(report.results_db.requests);

  const SubcommandArgv requests_alone(
      {"merge", (dir_ / "run_b").string(), "--results-db-requests"});
  EXPECT_EQ(parse_merge(requests_alone.argc(), requests_alone.argv.data()).outcome.exit_code, 2);

  const SubcommandArgv compare({"compare", (dir_ / "run_b").string()});
  const CompareCli compared = parse_compare(compare.argc(), compare.argv.data());
  ASSERT_TRUE(compared.proceed) << compared.outcome.err;
  EXPECT_EQ(compared.options.outputs_dir.rfind("outputs/compare_", 0), 0u)
      << compared.options.outputs_dir;

  const SubcommandArgv help({"compare", "--help"});
  const CompareCli helped = parse_compare(help.argc(), help.argv.data());
  EXPECT_FALSE(helped.proceed);
  EXPECT_EQ(helped.outcome.exit_code, 0);
  EXPECT_NE(helped.outcome.out.find("--label"), std::string::npos);
}

}  // namespace
}  // namespace llmperf

// vLLM's formats: the console block (--summary-format vllm) compared whole, line by line, with
// what vLLM's serve.py prints for the same numbers ("{:<40} {:<10}" and "{:<40} {:<10.2f}",
// trailing spaces kept; the expected lines were made with Python's str.format), and
// vllm_result.json as write_run_outputs writes it from hand-made records: its keys in order, units,
// request_rate, failed and warm-up requests, and statistics that agree with summary.json.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/stage_options.h"
#include "report/internal.h"
#include "report/report.h"
#include "run_files_support.h"
#include "test_units.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;
using report_detail::render_vllm_block;

Distribution dist(double mean, double std, std::vector<double> percentiles) {
  Distribution d;
  d.count = 4;
  d.mean = mean;
  d.std = std;
  d.min = percentiles.front() / 2;
  d.max = percentiles.back() * 2;
  d.percentiles = std::move(percentiles);
  return d;
}

// Four successful requests and one failure over 8 s; percentiles 50, 90, 99 and 99.9.
RunSummary test_summary() {
  RunSummary s;
  s.total = 5;
  s.succeeded = 4;
  s.failed = 1;
  s.window_ns = 8'000'000'000;
  s.qps = 0.5;
  s.output_throughput = 50.5;
  s.total_throughput = 100.5;
  s.total_input_tokens = 400;
  s.total_output_tokens = 404;
  s.peak_output_throughput = 75;
  s.peak_concurrency = 3;
  s.streamed = true;
  s.percentiles = {50, 90, 99, 99.9};
  s.ttft_ns = dist(250e6, 30e6, {240e6, 290e6, 299e6, 299.9e6});
  s.tpot_ns = dist(20e6, 2e6, {19.5e6, 21e6, 21.95e6, 21.995e6});
  s.itl_ns = dist(20e6, 5e6, {19e6, 25e6, 35e6, 39e6});
  s.latency_ns = dist(2e9, 5e8, {1.9e9, 2.5e9, 2.95e9, 2.9955e9});
  s.ttfb_ns = dist(100e6, 10e6, {100e6, 108e6, 109.8e6, 110e6});
  return s;
}

Config qwen_config() {
  Config c;
  c.target.model = "qwen";
  c.target.url = "http://127.0.0.1:8000/v1/chat/completions";
  c.output.percentiles = {50, 90, 99, 99.9};
  return c;
}

RunInfo info_2x10() {
  RunInfo info;
  info.parallel = 2;
  info.number = 10;
  return info;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Index of the line that is exactly `line`, or -1.
int index_of(const std::vector<std::string>& lines, const std::string& line) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == line) return static_cast<int>(i);
  }
  return -1;
}

// Index of the first line starting with `prefix`, or -1.
int index_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(prefix, 0) == 0) return static_cast<int>(i);
  }
  return -1;
}

TEST(VllmBlock, ClosedLoopIsVllmsBlockLineForLine) {
  const std::string expected =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     4         \n"
      "Failed requests:                         1         \n"
      "Maximum request concurrency:             2         \n"
      "Benchmark duration (s):                  8.00      \n"
      "Total input tokens:                      400       \n"
      "Total generated tokens:                  404       \n"
      "Request throughput (req/s):              0.50      \n"
      "Output token throughput (tok/s):         50.50     \n"
      "Peak output token throughput (tok/s):    75.00     \n"
      "Peak concurrent requests:                3.00      \n"
      "Total token throughput (tok/s):          100.50    \n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          250.00    \n"
      "Median TTFT (ms):                        240.00    \n"
      "P99 TTFT (ms):                           299.00    \n"
      "-----Time per Output Token (excl. 1st token)------\n"
      "Mean TPOT (ms):                          20.00     \n"
      "Median TPOT (ms):                        19.50     \n"
      "P99 TPOT (ms):                           21.95     \n"
      "---------------Inter-token Latency----------------\n"
      "Mean ITL (ms):                           20.00     \n"
      "Median ITL (ms):                         19.00     \n"
      "P99 ITL (ms):                            35.00     \n"
      "==================================================\n";
  const std::string block = render_vllm_block(report_options(qwen_config()), info_2x10(), test_summary());
  EXPECT_EQ(block, expected);
  // Compared line by line too, so that a failure names the line.
  const std::vector<std::string> got = lines_of(block);
  const std::vector<std::string> want = lines_of(expected);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "line " << i;
    EXPECT_EQ(got[i].size(), got[i].find(':') == std::string::npos ? 50u : 51u) << got[i];
  }
}

TEST(VllmBlock, RateRunShowsTheConfiguredRateAfterTheConcurrency) {
  RunInfo info = info_2x10();
  info.rate = 12.5;
  const std::vector<std::string> lines =
      lines_of(render_vllm_block(report_options(qwen_config()), info, test_summary()));
  const int rate = index_of(lines, "Request rate configured (RPS):           12.50     ");
  ASSERT_NE(rate, -1);
  EXPECT_EQ(lines[static_cast<size_t>(rate) - 1],
            "Maximum request concurrency:             2         ");
  EXPECT_EQ(lines[static_cast<size_t>(rate) + 1],
            "Benchmark duration (s):                  8.00      ");
  // A closed loop has no such line.
  EXPECT_EQ(index_starting(lines_of(render_vllm_block(report_options(qwen_config()), info_2x10(), test_summary())),
                           "Request rate configured"),
            -1);
}

TEST(VllmBlock, RateRunWithTheDefaultCapHasNoConcurrencyLine) {
  // vLLM prints the cap only when --max-concurrency was given.
  Config config = qwen_config();
  config.load.default_cap = true;
  RunInfo info = info_2x10();
  info.parallel = 1000;
  info.rate = 12.5;
  const std::vector<std::string> lines = lines_of(render_vllm_block(report_options(config), info, test_summary()));
  EXPECT_EQ(index_starting(lines, "Maximum request concurrency"), -1);
  const int rate = index_of(lines, "Request rate configured (RPS):           12.50     ");
  ASSERT_NE(rate, -1);
  EXPECT_EQ(lines[static_cast<size_t>(rate) - 1],
            "Failed requests:                         1         ");
}

TEST(VllmBlock, GoodputLineOnlyWithGoodput) {
  RunSummary s = test_summary();
  EXPECT_EQ(
      index_starting(lines_of(render_vllm_block(report_options(qwen_config()), info_2x10(), s)), "Request goodput"),
      -1);
  s.goodput_enabled = true;
  s.goodput_rps = 0.25;
  const std::vector<std::string> lines = lines_of(render_vllm_block(report_options(qwen_config()), info_2x10(), s));
  const int goodput = index_of(lines, "Request goodput (req/s):                 0.25      ");
  ASSERT_NE(goodput, -1);
  EXPECT_EQ(lines[static_cast<size_t>(goodput) - 1],
            "Request throughput (req/s):              0.50      ");
  EXPECT_EQ(lines[static_cast<size_t>(goodput) + 1],
            "Output token throughput (tok/s):         50.50     ");
}

TEST(VllmBlock, SectionsFollowPercentileMetricsInVllmsOrder) {
  Config config = qwen_config();
  config.output.percentile_metrics = {"e2el"};
  std::vector<std::string> lines = lines_of(render_vllm_block(report_options(config), info_2x10(), test_summary()));
  EXPECT_EQ(index_starting(lines, "Mean TTFT"), -1);
  EXPECT_EQ(index_starting(lines, "Mean TPOT"), -1);
  EXPECT_EQ(index_starting(lines, "Mean ITL"), -1);
  const int e2el = index_of(lines, "----------------End-to-end Latency----------------");
  ASSERT_NE(e2el, -1);
  const size_t at = static_cast<size_t>(e2el);
  ASSERT_EQ(lines.size(), at + 5);
  EXPECT_EQ(lines[at + 1], "Mean E2EL (ms):                          2000.00   ");
  EXPECT_EQ(lines[at + 2], "Median E2EL (ms):                        1900.00   ");
  EXPECT_EQ(lines[at + 3], "P99 E2EL (ms):                           2950.00   ");
  EXPECT_EQ(lines[at + 4], std::string(50, '='));

  // Given out of order, the sections still come in vLLM's order: TTFT, TPOT, ITL, E2EL.
  config.output.percentile_metrics = {"e2el", "itl", "ttft"};
  lines = lines_of(render_vllm_block(report_options(config), info_2x10(), test_summary()));
  const int ttft = index_starting(lines, "Mean TTFT");
  const int itl = index_starting(lines, "Mean ITL");
  const int e2 = index_starting(lines, "Mean E2EL");
  EXPECT_NE(ttft, -1);
  EXPECT_LT(ttft, itl);
  EXPECT_LT(itl, e2);
  EXPECT_EQ(index_starting(lines, "Mean TPOT"), -1);
}

TEST(VllmBlock, OnePLinePerMetricPercentileInTheirOrder) {
  Config config = qwen_config();
  config.output.percentile_metrics = {"e2el"};
  config.output.metric_percentiles = {50, 90, 99.9};
  const std::vector<std::string> lines =
      lines_of(render_vllm_block(report_options(config), info_2x10(), test_summary()));
  const int median = index_starting(lines, "Median E2EL");
  ASSERT_NE(median, -1);
  const size_t at = static_cast<size_t>(median);
  EXPECT_EQ(lines[at + 1], "P50 E2EL (ms):                           1900.00   ");
  EXPECT_EQ(lines[at + 2], "P90 E2EL (ms):                           2500.00   ");
  EXPECT_EQ(lines[at + 3], "P99.9 E2EL (ms):                         2995.50   ");
  EXPECT_EQ(lines[at + 4], std::string(50, '='));
}

TEST(VllmBlock, EmptyDistributionAndNonFiniteValuesPrintZero) {
  RunSummary s = test_summary();
  s.ttft_ns = Distribution{};
  s.ttft_ns.percentiles = {0, 0, 0, 0};
  s.qps = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::string> lines = lines_of(render_vllm_block(report_options(qwen_config()), info_2x10(), s));
  EXPECT_NE(index_of(lines, "Mean TTFT (ms):                          0.00      "), -1);
  EXPECT_NE(index_of(lines, "Median TTFT (ms):                        0.00      "), -1);
  EXPECT_NE(index_of(lines, "P99 TTFT (ms):                           0.00      "), -1);
  EXPECT_NE(index_of(lines, "Request throughput (req/s):              0.00      "), -1);
}

TEST(VllmBlock, LongValuesOverflowTheirColumnAsInPython) {
  RunSummary s = test_summary();
  s.qps = 123456789.123;
  const std::vector<std::string> lines = lines_of(render_vllm_block(report_options(qwen_config()), info_2x10(), s));
  EXPECT_NE(index_of(lines, "Request throughput (req/s):              123456789.12"), -1);
}

// --- vllm_result.json ---

constexpr int64_t kFileAnchor = 7'000'000'000;
constexpr int64_t kS = 1'000'000'000;  // ns per s

// A streamed success at 1 s (chunks at 1.2, 1.25, 1.3 s, end 1.5 s), an HTTP 503 at 2 s with
// partial output, a non-streamed success at 3 s (end 4 s, no usage for its input: the target
// length stands in), and a warm-up request that must not appear.
std::vector<RequestRecord> four_records() {
  std::vector<RequestRecord> records(4);
  RequestRecord& stream = records[0];
  stream.id = 1;
  stream.planned_ns = stream.sent_ns = kFileAnchor + 1 * kS;
  stream.first_byte_ns = kFileAnchor + 1 * kS + 100 * kMs;
  stream.chunk_ns = {kFileAnchor + 1200 * kMs, kFileAnchor + 1250 * kMs, kFileAnchor + 1300 * kMs};
  stream.first_content_ns = stream.chunk_ns.front();
  stream.last_event_ns = stream.end_ns = kFileAnchor + 1500 * kMs;
  stream.input_tokens = 12;
  stream.output_tokens = 3;
  stream.input_source = stream.output_source = TokenSource::kUsage;
  stream.http_status = 200;

  RequestRecord& failed = records[1];
  failed.id = 2;
  failed.planned_ns = failed.sent_ns = kFileAnchor + 2 * kS;
  failed.first_byte_ns = failed.end_ns = kFileAnchor + 2 * kS + 12 * kMs;
  failed.chunk_ns = {kFileAnchor + 2 * kS + 5 * kMs, kFileAnchor + 2 * kS + 10 * kMs};
  failed.first_content_ns = failed.chunk_ns.front();
  failed.input_tokens = 30;
  failed.output_tokens = 2;
  failed.http_status = 503;
  failed.error = ErrorKind::kStreamError;
  failed.error_message = "HTTP 503: \"overloaded\"";

  RequestRecord& plain = records[2];
  plain.id = 3;
  plain.stream = false;
  plain.planned_ns = plain.sent_ns = kFileAnchor + 3 * kS;
  plain.first_byte_ns = plain.end_ns = kFileAnchor + 4 * kS;
  plain.target_input_tokens = 50;
  plain.output_tokens = 10;
  plain.output_source = TokenSource::kCharCount;
  plain.http_status = 200;

  RequestRecord& warm = records[3];
  warm.id = 0;
  warm.warmup = true;
  warm.planned_ns = warm.sent_ns = kFileAnchor;
  warm.chunk_ns = {kFileAnchor + 10 * kMs, kFileAnchor + 20 * kMs};
  warm.first_content_ns = warm.chunk_ns.front();
  warm.end_ns = kFileAnchor + 30 * kMs;
  warm.input_tokens = 999;
  warm.output_tokens = 999;
  warm.http_status = 200;
  return records;
}

class VllmResultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("llmperf_vllm_format_test_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunInfo info() const {
    RunInfo i = info_2x10();
    i.output_dir = dir_.string();
    i.anchor_steady_ns = kFileAnchor;
    i.started_at = "2026-11-21T12:48:33Z";
    return i;
  }

  // Writes the run's files and returns vllm_result.json with its key order.
  ordered_json write(const Config& config, const RunInfo& run, const RunSummary& s) const {
    write_run_with_records(report_options(config), run, s, four_records());
    return ordered_json::parse(read("vllm_result.json"));
  }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }

  fs::path dir_;
};

// vLLM's --save-result keys in its order (vllm/benchmarks/serve.py, `vllm bench serve`, at
// vllm-project/vllm 009e6d4): date, endpoint_type, backend, label, model_id, tokenizer_id,
// num_prompts, the --metadata pairs, request_rate, burstiness, max_concurrency, then the benchmark
// result: its totals, the per-request arrays, the peaks and rtfx, then each metric's statistics.
std::vector<std::string> vllm_keys(const std::vector<std::string>& metadata,
                                   const std::vector<double>& percentiles) {
  std::vector<std::string> keys = {"date",     "endpoint_type", "backend",    "label",
                                   "model_id", "tokenizer_id",  "num_prompts"};
  keys.insert(keys.end(), metadata.begin(), metadata.end());
  for (const char* key : {"request_rate",
                          "burstiness",
                          "max_concurrency",
                          "duration",
                          "completed",
                          "failed",
                          "total_input_tokens",
                          "total_output_tokens",
                          "request_throughput",
                          "request_goodput",
                          "output_throughput",
                          "total_token_throughput",
                          "input_lens",
                          "output_lens",
                          "ttfts",
                          "itls",
                          "latencies",
                          "start_times",
                          "queue_times",
                          "generated_texts",
                          "errors",
                          "max_output_tokens_per_s",
                          "max_concurrent_requests",
                          "rtfx"}) {
    keys.emplace_back(key);
  }
  for (const char* metric : {"ttft", "tpot", "itl", "e2el"}) {
    for (const char* stat : {"mean", "median", "std"}) {
      keys.push_back(std::string(stat) + "_" + metric + "_ms");
    }
    for (const double p : percentiles) {
      keys.push_back(fmt::format("p{}_{}_ms", p, metric));
    }
  }
  return keys;
}

std::vector<std::string> keys_of(const ordered_json& j) {
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  return keys;
}

TEST_F(VllmResultTest, EveryKeyOfVllmsFileInItsOrder) {
  Config config = qwen_config();
  config.output.metric_percentiles = {99, 99.9};
  const ordered_json j = write(config, info(), test_summary());
  EXPECT_EQ(keys_of(j), vllm_keys({}, {99, 99.9}));
}

TEST_F(VllmResultTest, MetadataLabelBackendAndTokenizerAsGiven) {
  Config config = qwen_config();
  config.output.vllm.backend = "vllm";
  config.output.vllm.label = "nightly";
  config.output.vllm.tokenizer = "/data/qwen-tokenizer";
  // A pair named like a setup key takes its place (a Python dict); one named like a result gives
  // way to the result.
  config.output.vllm.metadata = {
      {"version", "0.11"}, {"tp", "2"}, {"model_id", "x"}, {"ttfts", "y"}};
  const ordered_json j = write(config, info(), test_summary());
  EXPECT_EQ(keys_of(j), vllm_keys({"version", "tp"}, {99}));
  EXPECT_EQ(j["endpoint_type"], "vllm");
  EXPECT_EQ(j["backend"], "vllm");
  EXPECT_EQ(j["label"], "nightly");
  EXPECT_EQ(j["model_id"], "x");
  EXPECT_EQ(j["tokenizer_id"], "/data/qwen-tokenizer");
  EXPECT_EQ(j["version"], "0.11");
  EXPECT_EQ(j["tp"], "2");
  EXPECT_TRUE(j["ttfts"].is_array());
}

TEST_F(VllmResultTest, GeneratedTextsAreTheAnswersKept) {
  std::vector<RequestRecord> records = four_records();
  records[0].output_text = "Hello \"world\"\n\xe4\xbd\xa0\xe5\xa5\xbd";
  records[1].output_text = "cut";  // what a failed request received before it failed
  records[3].output_text = "warm-up";
  write_run_with_records(report_options(qwen_config()), info(), test_summary(), records);
  const ordered_json j = ordered_json::parse(read("vllm_result.json"));
  // The non-streamed request kept none (beyond --keep-text, say): "" as vLLM writes for none.
  EXPECT_EQ(j["generated_texts"],
            ordered_json({"Hello \"world\"\n\xe4\xbd\xa0\xe5\xa5\xbd", "cut", ""}));
}

TEST_F(VllmResultTest, QueueTimesAreTheWaitsAfterThePlannedSend) {
  std::vector<RequestRecord> records = four_records();
  records[0].planned_ns = records[0].sent_ns - 250 * kMs;
  write_run_with_records(report_options(qwen_config()), info(), test_summary(), records);
  const ordered_json j = ordered_json::parse(read("vllm_result.json"));
  ASSERT_EQ(j["queue_times"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["queue_times"][0].get<double>(), 0.25);
  EXPECT_EQ(j["queue_times"][1], 0.0);
  EXPECT_EQ(j["rtfx"], 0.0);
}

TEST_F(VllmResultTest, SaveResultWritesACopyUnderVllmsName) {
  Config config = qwen_config();
  config.output.vllm.save = true;
  config.output.vllm.dir = (dir_ / "results").string();
  config.output.vllm.backend = "openai-chat";
  config.output.vllm.model_id = "/data/Qwen2.5-72B";
  RunInfo run = info();
  run.rate = 32;
  const ordered_json full = write(config, run, test_summary());
  std::vector<fs::path> copies;
  for (const auto& entry : fs::directory_iterator(dir_ / "results")) copies.push_back(entry.path());
  ASSERT_EQ(copies.size(), 1u);
  // {label or backend}-{rate}qps[-concurrency{N}]-{model's last part}-{date}.json; this rate run
  // chose its cap, so the name carries it.
  const std::string name = copies.front().filename().string();
  EXPECT_TRUE(std::regex_match(
      name, std::regex(R"(openai-chat-32\.0qps-concurrency2-Qwen2\.5-72B-\d{8}-\d{6}\.json)")))
      << name;
  // Without --save-detailed the copy drops the arrays vLLM drops; the rest is the same.
  const ordered_json copy = ordered_json::parse(read("results/" + name));
  for (const char* dropped :
       {"input_lens", "output_lens", "ttfts", "itls", "start_times", "generated_texts", "errors"}) {
    EXPECT_FALSE(copy.contains(dropped)) << dropped;
  }
  EXPECT_EQ(copy["latencies"], full["latencies"]);
  EXPECT_EQ(copy["mean_ttft_ms"], full["mean_ttft_ms"]);
  EXPECT_EQ(copy["model_id"], "/data/Qwen2.5-72B");

  // --result-filename and --save-detailed: that name, every key.
  config.output.vllm.filename = "mine.json";
  config.output.vllm.detailed = true;
  write(config, run, test_summary());
  EXPECT_EQ(keys_of(ordered_json::parse(read("results/mine.json"))), keys_of(full));
}

TEST_F(VllmResultTest, HeadValuesForAClosedLoopChatRun) {
  const ordered_json j = write(qwen_config(), info(), test_summary());
  EXPECT_TRUE(std::regex_match(j["date"].get<std::string>(), std::regex(R"(\d{8}-\d{6})")))
      << j["date"];
  EXPECT_EQ(j["endpoint_type"], "openai-chat");
  EXPECT_EQ(j["backend"], "openai-chat");
  EXPECT_TRUE(j["label"].is_null());
  EXPECT_EQ(j["model_id"], "qwen");
  EXPECT_EQ(j["tokenizer_id"], "qwen");
  EXPECT_EQ(j["num_prompts"], 10);
  EXPECT_EQ(j["request_rate"], "inf");
  EXPECT_EQ(j["burstiness"], 1.0);
  EXPECT_EQ(j["max_concurrency"], 2);
  EXPECT_EQ(j["duration"], 8.0);
  EXPECT_EQ(j["completed"], 4);
  EXPECT_EQ(j["failed"], 1);
  EXPECT_EQ(j["total_input_tokens"], 400);
  EXPECT_EQ(j["total_output_tokens"], 404);
  EXPECT_EQ(j["request_throughput"], 0.5);
  EXPECT_TRUE(j["request_goodput"].is_null());
  EXPECT_EQ(j["output_throughput"], 50.5);
  EXPECT_EQ(j["total_token_throughput"], 100.5);
  EXPECT_EQ(j["max_output_tokens_per_s"], 75.0);
  EXPECT_EQ(j["max_concurrent_requests"], 3);
}

TEST_F(VllmResultTest, RateRunGoodputAndCompletionsBackend) {
  Config config = qwen_config();
  config.target.url = "http://127.0.0.1:8000/v1/completions";
  config.target.api_kind = ApiKind::kCompletions;
  config.load.burstiness = 0.5;
  RunInfo run = info();
  run.rate = 12.5;
  RunSummary s = test_summary();
  s.goodput_enabled = true;
  s.goodput_rps = 0.25;
  const ordered_json j = write(config, run, s);
  EXPECT_EQ(j["request_rate"], 12.5);
  EXPECT_EQ(j["backend"], "openai");
  EXPECT_EQ(j["burstiness"], 0.5);
  EXPECT_EQ(j["request_goodput"], 0.25);
}

TEST_F(VllmResultTest, MaxConcurrencyIsNullForEverythingAtOnce) {
  // --request-rate inf without --max-concurrency: a closed loop of every request, no cap chosen.
  Config config = qwen_config();
  config.load.default_cap = true;
  RunInfo run = info();
  run.parallel = 10;
  EXPECT_TRUE(write(config, run, test_summary())["max_concurrency"].is_null());
  EXPECT_EQ(index_starting(lines_of(render_vllm_block(report_options(config), run, test_summary())),
                           "Maximum request concurrency"),
            -1);
}

TEST_F(VllmResultTest, MaxConcurrencyIsNullOnlyForARateRunWithTheDefaultCap) {
  Config config = qwen_config();
  config.load.default_cap = true;
  RunInfo run = info();
  run.parallel = 1000;
  run.rate = 12.5;
  EXPECT_TRUE(write(config, run, test_summary())["max_concurrency"].is_null());
  config.load.default_cap = false;
  EXPECT_EQ(write(config, run, test_summary())["max_concurrency"], 1000);
}

TEST_F(VllmResultTest, PerRequestArraysInSecondsWithoutWarmup) {
  const ordered_json j = write(qwen_config(), info(), test_summary());
  // Measured requests only, in requests.jsonl's order: streamed, failed, non-streamed.
  EXPECT_EQ(j["input_lens"], ordered_json({12, 30, 50}));
  EXPECT_EQ(j["output_lens"], ordered_json({3, 0, 10}));
  ASSERT_EQ(j["ttfts"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["ttfts"][0].get<double>(), 0.2);
  EXPECT_EQ(j["ttfts"][1], 0.0);  // failed
  EXPECT_EQ(j["ttfts"][2], 0.0);  // not streamed: no first token
  // itls: one list per request, gaps between chunks in seconds; failed requests have none.
  ASSERT_EQ(j["itls"].size(), 3u);
  ASSERT_TRUE(j["itls"][0].is_array());
  ASSERT_EQ(j["itls"][0].size(), 2u);
  EXPECT_DOUBLE_EQ(j["itls"][0][0].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(j["itls"][0][1].get<double>(), 0.05);
  EXPECT_EQ(j["itls"][1], ordered_json::array());
  EXPECT_EQ(j["itls"][2], ordered_json::array());
  ASSERT_EQ(j["latencies"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["latencies"][0].get<double>(), 0.5);
  EXPECT_EQ(j["latencies"][1], 0.0);
  EXPECT_DOUBLE_EQ(j["latencies"][2].get<double>(), 1.0);
  // Seconds from the run's anchor.
  ASSERT_EQ(j["start_times"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["start_times"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["start_times"][1].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["start_times"][2].get<double>(), 3.0);
  EXPECT_EQ(j["errors"], ordered_json({"", "HTTP 503: \"overloaded\"", ""}));
}

TEST_F(VllmResultTest, StatisticsInMsAgreeWithSummaryJson) {
  Config config = qwen_config();
  config.output.metric_percentiles = {90, 99.9};
  const ordered_json j = write(config, info(), test_summary());
  const json summary = json::parse(read("summary.json"));
  const json& metrics = summary["metrics"];
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"ttft", "ttft_ms"}, {"tpot", "tpot_ms"}, {"itl", "itl_ms"}};
  for (const auto& [key, name] : pairs) {
    SCOPED_TRACE(key);
    EXPECT_DOUBLE_EQ(j["mean_" + key + "_ms"].get<double>(), metrics[name]["mean"].get<double>());
    EXPECT_DOUBLE_EQ(j["std_" + key + "_ms"].get<double>(), metrics[name]["std"].get<double>());
    EXPECT_DOUBLE_EQ(j["median_" + key + "_ms"].get<double>(),
                     metrics[name]["percentiles"]["p50"].get<double>());
    EXPECT_DOUBLE_EQ(j["p90_" + key + "_ms"].get<double>(),
                     metrics[name]["percentiles"]["p90"].get<double>());
    EXPECT_DOUBLE_EQ(j["p99.9_" + key + "_ms"].get<double>(),
                     metrics[name]["percentiles"]["p99.9"].get<double>());
  }
  // E2EL is summary.json's latency, in ms rather than s.
  const json& latency = metrics["latency_s"];
  EXPECT_DOUBLE_EQ(j["mean_e2el_ms"].get<double>(), latency["mean"].get<double>() * 1000);
  EXPECT_DOUBLE_EQ(j["std_e2el_ms"].get<double>(), latency["std"].get<double>() * 1000);
  EXPECT_DOUBLE_EQ(j["median_e2el_ms"].get<double>(),
                   latency["percentiles"]["p50"].get<double>() * 1000);
  EXPECT_DOUBLE_EQ(j["p99.9_e2el_ms"].get<double>(),
                   latency["percentiles"]["p99.9"].get<double>() * 1000);
  // And the numbers themselves, by hand.
  EXPECT_DOUBLE_EQ(j["mean_ttft_ms"].get<double>(), 250);
  EXPECT_DOUBLE_EQ(j["std_ttft_ms"].get<double>(), 30);
  EXPECT_DOUBLE_EQ(j["median_tpot_ms"].get<double>(), 19.5);
  EXPECT_DOUBLE_EQ(j["p90_itl_ms"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(j["p99.9_e2el_ms"].get<double>(), 2995.5);
  // The head agrees with summary.json too.
  EXPECT_EQ(j["max_output_tokens_per_s"].dump(), summary["peak_output_throughput_tok_s"].dump());
  EXPECT_EQ(j["max_concurrent_requests"].dump(), summary["peak_concurrency"].dump());
  EXPECT_EQ(j["duration"].dump(), summary["window_s"].dump());
  EXPECT_EQ(j["request_throughput"].dump(), summary["qps"].dump());
}

TEST_F(VllmResultTest, PercentileNotInThePercentilesIsNullAndEmptyMetricsAreNull) {
  Config config = qwen_config();
  config.output.metric_percentiles = {95};
  RunSummary s = test_summary();
  s.itl_ns = Distribution{};
  s.itl_ns.percentiles = {0, 0, 0, 0};
  const ordered_json j = write(config, info(), s);
  EXPECT_TRUE(j["p95_ttft_ms"].is_null());
  EXPECT_TRUE(j["mean_itl_ms"].is_null());
  EXPECT_TRUE(j["median_itl_ms"].is_null());
  EXPECT_TRUE(j["std_itl_ms"].is_null());
  EXPECT_DOUBLE_EQ(j["mean_ttft_ms"].get<double>(), 250);
}

TEST_F(VllmResultTest, NoMeasuredRequestsGiveEmptyArrays) {
  std::vector<RequestRecord> records = four_records();
  records.erase(records.begin(), records.begin() + 3);  // only the warm-up
  write_run_with_records(report_options(qwen_config()), info(), test_summary(), records);
  const ordered_json j = ordered_json::parse(read("vllm_result.json"));
  for (const char* key : {"input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
                          "queue_times", "generated_texts", "errors"}) {
    EXPECT_EQ(j[key], ordered_json::array()) << key;
  }
}

}  // namespace
}  // namespace llmperf

// Reports: exact keys and values of every written file for hand-made summaries and records (not
// produced by the metrics code), requests.jsonl round trips, secret masking, the sweep table and
// the text summary.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/stage_options.h"
#include "report/report.h"
#include "run_files_support.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kSecret = "sk-TESTSECRET123";
constexpr int64_t kAnchor = 5'000'000'000;
constexpr int64_t kAnchorUnix = 1'700'000'000'000'000'000;

Distribution dist(size_t count, double mean, double std, double min, double max,
                  std::vector<double> percentiles) {
  Distribution d;
  d.count = count;
  d.mean = mean;
  d.std = std;
  d.min = min;
  d.max = max;
  d.percentiles = std::move(percentiles);
  return d;
}

Distribution empty_dist() { return dist(0, 0, 0, 0, 0, {0, 0, 0}); }

// A streamed run: 5 measured requests, 4 ok, one HTTP 503; percentiles 50/90/99.
RunSummary stream_summary() {
  RunSummary s;
  s.total = 5;
  s.succeeded = 4;
  s.failed = 1;
  s.warmup = 2;
  s.failures_by_kind = {{"http_503", 1}};
  s.failure_examples = {{"http_503", "HTTP 503: overloaded"}};
  s.window_ns = 8'000'000'000;
  s.qps = 0.5;
  s.output_throughput = 50.5;
  s.total_throughput = 100.5;
  s.total_input_tokens = 400;
  s.total_output_tokens = 404;
  s.input_provenance.from_usage = 4;
  s.output_provenance.from_usage = 4;
  s.streamed = true;
  s.percentiles = {50, 90, 99};
  s.latency_ns = dist(4, 2e9, 5e8, 1e9, 3e9, {2e9, 2.5e9, 2.95e9});
  s.ttft_ns = dist(4, 250e6, 50e6, 200e6, 300e6, {250e6, 290e6, 299e6});
  s.ttfb_ns = dist(4, 100e6, 10e6, 90e6, 110e6, {100e6, 108e6, 109.8e6});
  s.tpot_ns = dist(4, 20e6, 2e6, 18e6, 22e6, {20e6, 21.5e6, 21.95e6});
  s.itl_ns = dist(400, 20e6, 5e6, 1e6, 40e6, {19e6, 25e6, 35e6});
  s.input_tokens = dist(4, 100, 10, 90, 110, {100, 108, 109.8});
  s.output_tokens = dist(4, 101, 1, 100, 102, {101, 102, 102});
  s.chunks_per_request = dist(4, 100, 0, 100, 100, {100, 100, 100});
  s.output_tps_per_request = dist(4, 50.5, 5, 40, 60, {50, 58, 59.8});
  s.total_tps_per_request = dist(4, 100.5, 10, 80, 120, {100, 116, 119.6});
  s.latency_from_planned_ns = empty_dist();
  s.ttft_from_planned_ns = empty_dist();
  return s;
}

// The same run without streaming: no TTFT, TPOT, ITL or chunks.
RunSummary non_stream_summary() {
  RunSummary s = stream_summary();
  s.streamed = false;
  s.ttft_ns = empty_dist();
  s.tpot_ns = empty_dist();
  s.itl_ns = empty_dist();
  s.chunks_per_request = empty_dist();
  return s;
}

// Every request failed: nothing but counts (and a deliberately non-finite throughput).
RunSummary all_failed_summary() {
  RunSummary s;
  s.total = 3;
  s.failed = 3;
  s.failures_by_kind = {{"connect_refused", 3}};
  s.failure_examples = {{"connect_refused", "Couldn't connect to server"}};
  s.qps = std::numeric_limits<double>::quiet_NaN();
  s.output_throughput = std::numeric_limits<double>::infinity();
  s.percentiles = {50, 90, 99};
  for (Distribution* d : {&s.latency_ns, &s.ttft_ns, &s.ttfb_ns, &s.tpot_ns, &s.itl_ns,
                          &s.input_tokens, &s.output_tokens, &s.chunks_per_request,
                          &s.output_tps_per_request, &s.total_tps_per_request}) {
    *d = empty_dist();
  }
  return s;
}

Config test_config() {
  Config c;
  c.target.model = "qwen";
  c.target.url = "http://127.0.0.1:8000/v1/chat/completions";
  c.target.api_key = kSecret;
  c.target.headers = {{"Authorization", std::string("Bearer ") + kSecret}, {"X-Trace", "abc"}};
  c.workload.dataset_path = "open_qa.jsonl";
  c.load.parallel = {2};
  c.load.number = {10};
  c.output.percentiles = {50, 90, 99};
  return c;
}

RunInfo test_info(const fs::path& dir) {
  RunInfo info;
  info.parallel = 2;
  info.number = 10;
  info.output_dir = dir.string();
  info.started_at = "2026-11-21T12:48:33Z";
  info.anchor_steady_ns = kAnchor;
  info.anchor_unix_ns = kAnchorUnix;
  info.duration_s = 8.5;
  info.dataset.records_read = 12;
  info.dataset.accepted = 10;
  info.dataset.malformed = 2;
  info.dataset.malformed_lines = {3, 7};
  info.dataset.first_malformed_reason = "line 3: not JSON";
  return info;
}

std::vector<RequestRecord> test_records() {
  std::vector<RequestRecord> records(5);
  RequestRecord& ok = records[0];
  ok.id = 2;
  ok.worker = 1;
  ok.prompt_index = 7;
  ok.planned_ns = kAnchor + 1'000;
  ok.sent_ns = kAnchor + 1'000;
  ok.first_byte_ns = kAnchor + 1'000 + 50'000'000;
  ok.first_content_ns = kAnchor + 1'000 + 250'000'000;
  ok.chunk_ns = {ok.first_content_ns, ok.first_content_ns + 20'000'000,
                 ok.first_content_ns + 40'000'000};
  ok.last_event_ns = kAnchor + 1'000 + 300'000'000;
  ok.end_ns = kAnchor + 1'000 + 500'000'000;
  ok.input_tokens = 12;
  ok.output_tokens = 3;
  ok.target_input_tokens = 12;
  ok.target_output_tokens = 4;
  ok.input_chars = 30;
  ok.input_source = TokenSource::kUsage;
  ok.output_source = TokenSource::kUsage;
  ok.output_chars = 9;
  ok.http_status = 200;
  ok.finish_reason = "stop";
  ok.response_id = "chatcmpl-8f3a";

  RequestRecord& http = records[1];
  http.id = 3;
  http.planned_ns = http.sent_ns = kAnchor + 2'000;
  http.first_byte_ns = http.end_ns = kAnchor + 12'000'000;
  http.http_status = 503;
  http.error = ErrorKind::kHttp;
  http.error_message = "HTTP 503: {\"error\": \"overloaded\"} \xe4\xb8";  // cut inside a code point
  http.resends = 1;  // its kept-alive connection had been closed: sent again, then answered 503

  RequestRecord& cancelled = records[2];
  cancelled.id = 4;
  cancelled.error = ErrorKind::kInterrupted;  // Ctrl-C
  cancelled.error_message = "interrupted";

  RequestRecord& warm = records[3];
  warm.id = 0;
  warm.stream = false;
  warm.warmup = true;
  warm.planned_ns = warm.sent_ns = kAnchor - 10'000;
  warm.first_byte_ns = kAnchor + 90'000'000;
  warm.end_ns = kAnchor + 100'000'000;
  warm.output_tokens = 25;
  warm.output_source = TokenSource::kCharCount;
  warm.input_source = TokenSource::kNone;
  warm.http_status = 200;

  RequestRecord& empty = records[4];
  empty.id = 1;
  empty.planned_ns = kAnchor;
  empty.slot_wait_ns = 5;  // open loop: 5 ns without a free slot, then 2 ns late
  empty.sent_ns = kAnchor + 7;
  empty.first_byte_ns = empty.last_event_ns = empty.end_ns = kAnchor + 9'000'000;
  empty.malformed_events = 2;
  empty.http_status = 200;
  empty.output_source = TokenSource::kChunkCount;
  empty.error = ErrorKind::kNoOutput;
  empty.error_message = "stream ended without output";
  return records;
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("llmperf_report_test_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }
  json read_json(const std::string& name) const { return json::parse(read(name)); }

  fs::path dir_;
};

TEST_F(ReportTest, SummaryJsonHasExactSchema) {
  write_run_with_records(report_options(test_config()), test_info(dir_), stream_summary(),
                         test_records());
  const ordered_json j = ordered_json::parse(read("summary.json"));

  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schema",
                                            "llmperf_version",
                                            "run",
                                            "config",
                                            "dataset",
                                            "workload",
                                            "requests",
                                            "failures_by_kind",
                                            "failure_examples",
                                            "window_s",
                                            "qps",
                                            "output_throughput_tok_s",
                                            "total_throughput_tok_s",
                                            "input_throughput_chars_s",
                                            "output_throughput_chars_s",
                                            "peak_output_throughput_tok_s",
                                            "peak_concurrency",
                                            "exactness",
                                            "shared_prefix",
                                            "conversations",
                                            "reasoning",
                                            "shard",
                                            "items",
                                            "trace",
                                            "goodput",
                                            "open_loop",
                                            "client_bound",
                                            "client",
                                            "slo",
                                            "server",
                                            "http",
                                            "tokens",
                                            "metrics",
                                            "metric_definitions"}));
  EXPECT_TRUE(j["goodput"].is_null());    // no --goodput
  EXPECT_TRUE(j["shared_prefix"].is_null());  // not --dataset shared_prefix
  EXPECT_TRUE(j["conversations"].is_null());  // not --multi-turn
  EXPECT_TRUE(j["trace"].is_null());          // not a trace
  EXPECT_TRUE(j["open_loop"].is_null());  // closed loop
  EXPECT_FALSE(j["client_bound"].get<bool>());
  EXPECT_TRUE(j["client"].is_null());  // client health not assessed for a hand-made summary
  EXPECT_TRUE(j["slo"].is_null());     // no --slo
  EXPECT_TRUE(j["server"]["metrics"].is_null());  // /metrics not read
  EXPECT_FALSE(j["server"]["profiled"].get<bool>());
  EXPECT_EQ(j["schema"], "llmperf.summary/1");
  EXPECT_EQ(j["llmperf_version"], "0.1.0");
  EXPECT_EQ(j["run"], (ordered_json{{"parallel", 2},
                                    {"number", 10},
                                    {"rate", nullptr},
                                    {"started_at", "2026-11-21T12:48:33Z"},
                                    {"duration_s", 8.5},
                                    {"interrupted", false},
                                    {"input_tokens", nullptr},
                                    {"output_tokens", nullptr},
                                    {"output_dir", dir_.string()},
                                    {"monotonic_anchor_ns", kAnchor},
                                    {"anchor_unix_ns", kAnchorUnix}}));
  EXPECT_EQ(j["dataset"], (ordered_json{{"records_read", 12},
                                        {"accepted", 10},
                                        {"skipped_length", 0},
                                        {"skipped_empty", 0},
                                        {"skipped_turns", 0},
                                        {"malformed", 2},
                                        {"malformed_lines", {3, 7}},
                                        {"first_malformed_reason", "line 3: not JSON"}}));
  EXPECT_EQ(
      j["requests"],
      (ordered_json{{"total", 5}, {"succeeded", 4}, {"failed", 1}, {"warmup", 2}, {"resent", 0}}));
  EXPECT_EQ(j["failures_by_kind"], (ordered_json{{"http_503", 1}}));
  EXPECT_EQ(j["failure_examples"], (ordered_json{{"http_503", "HTTP 503: overloaded"}}));
  EXPECT_EQ(j["window_s"], 8.0);
  EXPECT_EQ(j["qps"], 0.5);
  EXPECT_EQ(j["output_throughput_tok_s"], 50.5);
  EXPECT_EQ(j["total_throughput_tok_s"], 100.5);
  EXPECT_EQ(j["tokens"], (ordered_json{{"input_total", 400},
                                       {"output_total", 404},
                                       {"input_source", "usage"},
                                       {"output_source", "usage"},
                                       {"output_from_usage", 4},
                                       {"output_estimated", 0},
                                       {"input_from_usage", 4},
                                       {"input_estimated", 0},
                                       {"input_chars_total", 0},
                                       {"output_chars_total", 0}}));
  EXPECT_EQ(j["workload"], (ordered_json{{"synthetic", false}}));  // a dataset of text
  EXPECT_EQ(j["exactness"]["input"]["requests"], 0);               // no targets

  const auto& m = j["metrics"];
  std::vector<std::string> metric_keys;
  for (const auto& item : m.items()) metric_keys.push_back(item.key());
  EXPECT_EQ(metric_keys, (std::vector<std::string>{
                             "latency_s", "ttft_ms", "ttfat_ms", "ttfb_ms", "tpot_ms", "itl_ms", "input_tokens",
                             "output_tokens", "chunks_per_request", "output_tok_s_per_request",
                             "total_tok_s_per_request", "latency_from_planned_s",
                             "ttft_from_planned_ms", "ttfat_from_planned_ms",
                             "ttfb_from_planned_ms", "schedule_lag_ms"}));
  EXPECT_EQ(m["latency_s"],
            (ordered_json{{"count", 4},
                          {"mean", 2.0},
                          {"std", 0.5},
                          {"min", 1.0},
                          {"max", 3.0},
                          {"percentiles", {{"p50", 2.0}, {"p90", 2.5}, {"p99", 2.95}}}}));
  EXPECT_EQ(m["ttft_ms"],
            (ordered_json{{"count", 4},
                          {"mean", 250.0},
                          {"std", 50.0},
                          {"min", 200.0},
                          {"max", 300.0},
                          {"percentiles", {{"p50", 250.0}, {"p90", 290.0}, {"p99", 299.0}}}}));
  EXPECT_EQ(m["itl_ms"]["count"], 400);
  EXPECT_EQ(m["itl_ms"]["percentiles"]["p99"], 35.0);
  EXPECT_EQ(m["tpot_ms"]["percentiles"]["p99"], 21.95);
  EXPECT_EQ(m["input_tokens"]["percentiles"]["p99"], 109.8);
  EXPECT_EQ(m["output_tok_s_per_request"]["mean"], 50.5);
  EXPECT_TRUE(m["latency_from_planned_s"].is_null());
  EXPECT_TRUE(m["ttft_from_planned_ms"].is_null());
  for (const char* key :
       {"ttft", "ttfb", "latency", "tpot", "itl", "qps", "output_throughput", "total_throughput"}) {
    EXPECT_TRUE(j["metric_definitions"][key].is_string()) << key;
  }

  const auto& c = j["config"];
  EXPECT_EQ(c["url"], "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(c["model"], "qwen");
  EXPECT_EQ(c["api_key"], "***");
  EXPECT_EQ(c["headers"], (ordered_json{{"Authorization", "***"}, {"X-Trace", "abc"}}));
  EXPECT_EQ(c["parallel"], ordered_json::array({2}));
  EXPECT_EQ(c["number"], ordered_json::array({10}));
  EXPECT_EQ(c["max_tokens"], 2048);
  EXPECT_TRUE(c["min_tokens"].is_null());
  EXPECT_TRUE(c["max_prompt_length"].is_null());
  EXPECT_EQ(c["read_timeout"], 600);
  EXPECT_EQ(c["stream"], true);
}

TEST_F(ReportTest, OpenLoopRateAndPlannedLatencies) {
  RunInfo info = test_info(dir_);
  info.rate = 2.5;
  RunSummary s = stream_summary();
  s.latency_from_planned_ns = dist(4, 3e9, 1e9, 2e9, 4e9, {3e9, 3.8e9, 3.98e9});
  s.ttft_from_planned_ns = dist(4, 1250e6, 50e6, 1200e6, 1300e6, {1250e6, 1290e6, 1299e6});
  write_run_with_records(report_options(test_config()), info, s, std::vector<RequestRecord>{});
  const json j = read_json("summary.json");
  EXPECT_EQ(j["run"]["rate"], 2.5);
  EXPECT_EQ(j["metrics"]["latency_from_planned_s"]["percentiles"]["p99"], 3.98);
  EXPECT_EQ(j["metrics"]["ttft_from_planned_ms"]["mean"], 1250.0);
  EXPECT_EQ(read_json("benchmark_summary.json")["Request Rate (req/s)"], 2.5);
  EXPECT_EQ(read("requests.jsonl"), "");

  const std::string text = render_text_summary(report_options(test_config()), info, s);
  EXPECT_NE(text.find("Latency from planned send (s)"), std::string::npos);
  EXPECT_NE(text.find("TTFT from planned send (ms)"), std::string::npos);
  EXPECT_NE(text.find("rate 2.500 req/s"), std::string::npos);
}

TEST_F(ReportTest, BenchmarkSummaryMatchesEvalScopeNames) {
  write_run_with_records(report_options(test_config()), test_info(dir_), stream_summary(),
                         std::vector<RequestRecord>{});
  EXPECT_EQ(read_json("benchmark_summary.json"), (json{{"Test Duration (s)", 8.0},
                                                       {"Concurrency", 2},
                                                       {"Request Rate (req/s)", -1},
                                                       {"Total Requests", 5},
                                                       {"Success Requests", 4},
                                                       {"Failed Requests", 1},
                                                       {"Req Throughput (req/s)", 0.5},
                                                       {"Avg Latency (s)", 2.0},
                                                       {"Avg TTFT (ms)", 250.0},
                                                       {"Avg TPOT (ms)", 20.0},
                                                       {"Avg ITL (ms)", 20.0},
                                                       {"Avg Input Tokens", 100.0},
                                                       {"Avg Output Tokens", 101.0},
                                                       {"Output Throughput (tok/s)", 50.5},
                                                       {"Total Throughput (tok/s)", 100.5}}));
}

TEST_F(ReportTest, BenchmarkFilesRoundToFourDecimals) {
  RunSummary s = stream_summary();
  s.qps = 1.0 / 3.0;
  s.percentiles = {99.9};
  s.latency_ns = dist(4, 2e9, 5e8, 1e9, 3e9, {1234567891});
  write_run_with_records(report_options(test_config()), test_info(dir_), s,
                         std::vector<RequestRecord>{});
  EXPECT_EQ(read_json("benchmark_summary.json")["Req Throughput (req/s)"], 0.3333);
  const json rows = read_json("benchmark_percentile.json");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0]["Percentiles"], "99.9%");
  EXPECT_EQ(rows[0]["Latency (s)"], 1.2346);
}

TEST_F(ReportTest, BenchmarkPercentileRows) {
  write_run_with_records(report_options(test_config()), test_info(dir_), stream_summary(),
                         std::vector<RequestRecord>{});
  const json expected = json::array({
      {{"Percentiles", "50%"},
       {"TTFT (ms)", 250.0},
       {"ITL (ms)", 19.0},
       {"TPOT (ms)", 20.0},
       {"Latency (s)", 2.0},
       {"Input tokens", 100.0},
       {"Output tokens", 101.0},
       {"Output (tok/s)", 50.0},
       {"Total (tok/s)", 100.0}},
      {{"Percentiles", "90%"},
       {"TTFT (ms)", 290.0},
       {"ITL (ms)", 25.0},
       {"TPOT (ms)", 21.5},
       {"Latency (s)", 2.5},
       {"Input tokens", 108.0},
       {"Output tokens", 102.0},
       {"Output (tok/s)", 58.0},
       {"Total (tok/s)", 116.0}},
      {{"Percentiles", "99%"},
       {"TTFT (ms)", 299.0},
       {"ITL (ms)", 35.0},
       {"TPOT (ms)", 21.95},
       {"Latency (s)", 2.95},
       {"Input tokens", 109.8},
       {"Output tokens", 102.0},
       {"Output (tok/s)", 59.8},
       {"Total (tok/s)", 119.6}},
  });
  EXPECT_EQ(read_json("benchmark_percentile.json"), expected);
}

TEST_F(ReportTest, NonStreamRunWritesNullsNotLatency) {
  Config config = test_config();
  config.body.stream = false;
  write_run_with_records(report_options(config), test_info(dir_), non_stream_summary(),
                         std::vector<RequestRecord>{});
  const json j = read_json("summary.json");
  for (const char* key : {"ttft_ms", "tpot_ms", "itl_ms", "chunks_per_request"}) {
    EXPECT_TRUE(j["metrics"][key].is_null()) << key;
  }
  EXPECT_EQ(j["metrics"]["latency_s"]["mean"], 2.0);
  EXPECT_EQ(j["config"]["stream"], false);

  const json b = read_json("benchmark_summary.json");
  EXPECT_TRUE(b["Avg TTFT (ms)"].is_null());
  EXPECT_TRUE(b["Avg TPOT (ms)"].is_null());
  EXPECT_TRUE(b["Avg ITL (ms)"].is_null());
  EXPECT_EQ(b["Avg Latency (s)"], 2.0);

  const json rows = read_json("benchmark_percentile.json");
  ASSERT_EQ(rows.size(), 3U);
  for (const auto& row : rows) {
    EXPECT_TRUE(row["TTFT (ms)"].is_null());
    EXPECT_TRUE(row["ITL (ms)"].is_null());
    EXPECT_TRUE(row["TPOT (ms)"].is_null());
    EXPECT_FALSE(row["Latency (s)"].is_null());
  }
}

void expect_same_record(const RequestRecord& a, const RequestRecord& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.worker, b.worker);
  EXPECT_EQ(a.prompt_index, b.prompt_index);
  EXPECT_EQ(a.stream, b.stream);
  EXPECT_EQ(a.warmup, b.warmup);
  EXPECT_EQ(a.planned_ns, b.planned_ns);
  EXPECT_EQ(a.slot_wait_ns, b.slot_wait_ns);
  EXPECT_EQ(a.sent_ns, b.sent_ns);
  EXPECT_EQ(a.first_byte_ns, b.first_byte_ns);
  EXPECT_EQ(a.first_content_ns, b.first_content_ns);
  EXPECT_EQ(a.last_event_ns, b.last_event_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.chunk_ns, b.chunk_ns);
  EXPECT_EQ(a.input_tokens, b.input_tokens);
  EXPECT_EQ(a.output_tokens, b.output_tokens);
  EXPECT_EQ(a.target_input_tokens, b.target_input_tokens);
  EXPECT_EQ(a.target_output_tokens, b.target_output_tokens);
  EXPECT_EQ(a.input_chars, b.input_chars);
  EXPECT_EQ(a.input_source, b.input_source);
  EXPECT_EQ(a.output_source, b.output_source);
  EXPECT_EQ(a.output_chars, b.output_chars);
  EXPECT_EQ(a.malformed_events, b.malformed_events);
  EXPECT_EQ(a.resends, b.resends);
  EXPECT_EQ(a.http_status, b.http_status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.finish_reason, b.finish_reason);
  EXPECT_EQ(a.response_id, b.response_id);
  EXPECT_EQ(a.output_text, b.output_text);
}

TEST_F(ReportTest, RecordsFileStreamsToAPartialFileAndCommitsByRename) {
  const auto records = test_records();
  {
    RecordsFile file(report_options(test_config()), test_info(dir_));
    file.append(records[0]);
    file.flush();
    // While the run goes on, only the .partial file exists, holding every flushed line.
    EXPECT_TRUE(fs::exists(dir_ / "requests.jsonl.partial"));
    EXPECT_FALSE(fs::exists(dir_ / "requests.jsonl"));
    EXPECT_EQ(read("requests.jsonl.partial"), record_to_json(records[0], test_info(dir_)) + "\n");
    file.append(records[1]);
    file.commit();
  }
  EXPECT_FALSE(fs::exists(dir_ / "requests.jsonl.partial"));
  std::istringstream lines(read("requests.jsonl"));
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) EXPECT_EQ(record_from_json(line).id, records[count++].id);
  EXPECT_EQ(count, 2);
}

TEST_F(ReportTest, RecordsFileDroppedWithoutCommitKeepsWhatItGathered) {
  const auto records = test_records();
  {
    RecordsFile file(report_options(test_config()), test_info(dir_));
    for (const auto& r : records) file.append(r);
  }  // e.g. an exception in the run: no commit
  EXPECT_FALSE(fs::exists(dir_ / "requests.jsonl"));
  std::istringstream lines(read("requests.jsonl.partial"));
  std::string line;
  size_t count = 0;
  while (std::getline(lines, line)) {
    record_from_json(line);
    ++count;
  }
  EXPECT_EQ(count, records.size());
}

TEST_F(ReportTest, ApproximateItlPercentilesAreFlaggedInEveryOutput) {
  RunSummary s = stream_summary();
  s.itl_ns.percentiles_approximate = true;
  s.itl_ns.count = 2'500'000;
  write_run_with_records(report_options(test_config()), test_info(dir_), s,
                         std::vector<RequestRecord>{});
  const json j = read_json("summary.json");
  EXPECT_EQ(j["metrics"]["itl_ms"]["percentiles_relative_error"], PooledSamples::kRelativeError);
  EXPECT_FALSE(j["metrics"]["ttft_ms"].contains("percentiles_relative_error"));
  const std::string text = render_text_summary(report_options(test_config()), test_info(dir_), s);
  EXPECT_NE(text.find("ITL percentiles come from a histogram of all 2500000 gaps"),
            std::string::npos);
  EXPECT_NE(read("report.html").find("ITL percentiles come from a histogram"), std::string::npos);
  // An exact run says nothing of the kind.
  EXPECT_EQ(render_text_summary(report_options(test_config()), test_info(dir_), stream_summary()).find("histogram"),
            std::string::npos);
}

// Requests sent again after their kept-alive connection had been closed are not failures; the
// client line says how many there were (and nothing when there were none).
TEST_F(ReportTest, ClientLineCountsResentRequests) {
  RunSummary s = stream_summary();
  EXPECT_EQ(render_load_text(test_info(dir_), s, "poisson").find("sent again"), std::string::npos);
  s.resent = 2;
  const std::string rebuilt = render_load_text(test_info(dir_), s, "poisson");
  EXPECT_NE(rebuilt.find("Client: 2 requests sent again on a new connection (the server had "
                         "closed the kept-alive one before answering; latency counts from the "
                         "first send)\n"),
            std::string::npos)
      << rebuilt;
  s.client.measured = true;
  s.client.cpu_s = 0.5;
  s.client.cpu_utilization = 0.25;
  const std::string measured = render_load_text(test_info(dir_), s, "poisson");
  EXPECT_NE(measured.find("Client: 0.50 s CPU (25% of 1 core), stamp delay -; 2 requests sent "
                          "again on a new connection"),
            std::string::npos)
      << measured;
  write_run_with_records(report_options(test_config()), test_info(dir_), s,
                         std::vector<RequestRecord>{});
  EXPECT_EQ(read_json("summary.json")["requests"]["resent"], 2);
}

TEST_F(ReportTest, RequestsJsonlRoundTrips) {
  Config config = test_config();
  config.target.api_key.clear();
  config.target.headers.clear();
  const auto records = test_records();
  write_run_with_records(report_options(config), test_info(dir_), stream_summary(), records);

  std::istringstream lines(read("requests.jsonl"));
  std::string line;
  std::vector<RequestRecord> back;
  while (std::getline(lines, line)) back.push_back(record_from_json(line));
  ASSERT_EQ(back.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    SCOPED_TRACE(i);
    RequestRecord expected = records[i];
    for (int64_t* t : {&expected.planned_ns, &expected.sent_ns, &expected.first_byte_ns,
                       &expected.first_content_ns, &expected.last_event_ns, &expected.end_ns}) {
      if (*t >= 0) *t -= kAnchor;
    }
    for (auto& t : expected.chunk_ns) t -= kAnchor;
    expect_same_record(back[i], expected);
  }
  EXPECT_EQ(back[0].error_message, "");
  EXPECT_EQ(back[0].slot_wait_ns, -1);  // not written when not recorded
  EXPECT_EQ(back[4].slot_wait_ns, 5);   // a duration: not moved by the anchor
  EXPECT_EQ(back[2].error_message, "interrupted");
  EXPECT_EQ(back[1].error_message.rfind("HTTP 503: {\"error\": \"overloaded\"} ", 0), 0U);
}

TEST_F(ReportTest, RequestsJsonlFieldsAndUnits) {
  const auto records = test_records();
  const json ok = json::parse(record_to_json(records[0], test_info(dir_)));
  const json expected = {{"id", 2},
                         {"worker", 1},
                         {"prompt_index", 7},
                         {"stream", true},
                         {"warmup", false},
                         {"ok", true},
                         {"error_kind", nullptr},
                         {"error_message", ""},
                         {"http_status", 200},
                         {"finish_reason", "stop"},
                         {"response_id", "chatcmpl-8f3a"},
                         {"input_tokens", 12},
                         {"output_tokens", 3},
                         {"target_input_tokens", 12},
                         {"target_output_tokens", 4},
                         {"input_chars", 30},
                         {"input_token_source", "usage"},
                         {"output_token_source", "usage"},
                         {"output_chars", 9},
                         {"malformed_events", 0},
                         {"planned_ns", 1000},
                         {"sent_ns", 1000},
                         {"first_byte_ns", 50'001'000},
                         {"first_content_ns", 250'001'000},
                         {"last_event_ns", 300'001'000},
                         {"end_ns", 500'001'000},
                         {"sent_unix_ns", kAnchorUnix + 1000},
                         {"ttft_ms", 250.0},
                         {"ttfb_ms", 50.0},
                         {"latency_s", 0.5},
                         {"chunk_ns", {250'000'000, 270'000'000, 290'000'000}}};
  EXPECT_EQ(ok, expected);

  const json http = json::parse(record_to_json(records[1], test_info(dir_)));
  EXPECT_EQ(http["ok"], false);
  EXPECT_EQ(http["error_kind"], "http_503");
  EXPECT_TRUE(http["target_input_tokens"].is_null());  // no target: a dataset of text
  EXPECT_TRUE(http["target_output_tokens"].is_null());
  EXPECT_TRUE(http["ttft_ms"].is_null());
  EXPECT_TRUE(http["latency_s"].is_null());
  EXPECT_TRUE(http["first_content_ns"].is_null());
  EXPECT_EQ(http["resends"], 1);  // written only when the request was sent again

  const json cancelled = json::parse(record_to_json(records[2], test_info(dir_)));
  EXPECT_EQ(cancelled["error_kind"], "interrupted");
  EXPECT_TRUE(cancelled["sent_ns"].is_null());
  EXPECT_TRUE(cancelled["sent_unix_ns"].is_null());

  const json warm = json::parse(record_to_json(records[3], test_info(dir_)));
  EXPECT_EQ(warm["sent_ns"], -10'000);
  EXPECT_TRUE(warm["ttft_ms"].is_null());
  EXPECT_EQ(warm["latency_s"], 0.10001);
  EXPECT_EQ(warm["output_token_source"], "char_count");

  EXPECT_EQ(
      record_from_json(R"({"id":9,"ok":false,"error_kind":"http_429","http_status":429})").error,
      ErrorKind::kHttp);
  EXPECT_EQ(record_from_json(R"({"id":9,"ok":false,"error_kind":"no_response"})").error,
            ErrorKind::kNoResponse);
  EXPECT_THROW(record_from_json("not json"), std::runtime_error);
  EXPECT_THROW(record_from_json(R"({"id":"x"})"), std::runtime_error);
  // Numbers that do not fit their field are refused (nlohmann would convert 1e30 with undefined
  // behaviour), as is a chunk time that overflows once added to the send time.
  EXPECT_THROW(record_from_json(R"({"id":1,"sent_ns":1e30})"), std::runtime_error);
  EXPECT_THROW(record_from_json(R"({"id":1,"worker":5000000000})"), std::runtime_error);
  EXPECT_THROW(record_from_json(R"({"id":1,"output_tokens":2.5})"), std::runtime_error);
  EXPECT_THROW(record_from_json(R"({"id":-1})"), std::runtime_error);
  EXPECT_THROW(record_from_json(R"({"id":1,"sent_ns":9000000000000000000,"chunk_ns":[9e17]})"),
               std::runtime_error);
  const RequestRecord whole = record_from_json(R"({"id":1.0,"sent_ns":5,"output_tokens":4e0})");
  EXPECT_EQ(whole.id, 1u);  // a float with an integral value is that integer
  EXPECT_EQ(whole.output_tokens, 4);
}

// requests.jsonl lines are written field by field (not through nlohmann): strings must be escaped
// exactly as nlohmann would, invalid UTF-8 replaced, and intervals stay floating-point numbers.
TEST_F(ReportTest, RequestsJsonlLineEscapesStringsAsNlohmannDoes) {
  RequestRecord record = test_records()[1];
  record.error_message =
      "HTTP 500: {\"error\": \"bad\\path\"}\n\ttab \x01 \xe6\x9c\x8d\xe5\x8a\xa1 \xff end";
  record.finish_reason = "";
  record.response_id = "id with \"quotes\"";
  record.output_text = "answer \"quoted\"\n\xe6\x9c\x8d";
  const std::string line = record_to_json(record, test_info(dir_));
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const json parsed = json::parse(line);
  EXPECT_EQ(
      parsed["error_message"],
      "HTTP 500: {\"error\": \"bad\\path\"}\n\ttab \x01 \xe6\x9c\x8d\xe5\x8a\xa1 \xef\xbf\xbd end");
  EXPECT_EQ(parsed["response_id"], "id with \"quotes\"");
  EXPECT_EQ(parsed["finish_reason"], "");
  EXPECT_EQ(parsed["output_text"], "answer \"quoted\"\n\xe6\x9c\x8d");
  EXPECT_EQ(record_from_json(line).output_text, record.output_text);
  // Escaped as nlohmann escapes it, byte for byte.
  EXPECT_NE(line.find(json(parsed["error_message"]).dump()), std::string::npos);

  const RequestRecord ok = test_records()[0];  // TTFT exactly 250 ms: still written as 250.0
  const json fields = json::parse(record_to_json(ok, test_info(dir_)));
  EXPECT_TRUE(fields["ttft_ms"].is_number_float());
  EXPECT_TRUE(fields["latency_s"].is_number_float());
  EXPECT_TRUE(fields["sent_ns"].is_number_integer());
  RequestRecord no_chunks = ok;
  no_chunks.chunk_ns.clear();
  EXPECT_EQ(json::parse(record_to_json(no_chunks, test_info(dir_)))["chunk_ns"], json::array());
}

TEST_F(ReportTest, SecretsNeverReachAnyFile) {
  Config config = test_config();
  config.target.headers.emplace_back("X-Api-Key", "key-0123456789");
  auto records = test_records();
  records[1].error_message = std::string("server echoed Authorization: Bearer ") + kSecret;
  RunSummary s = stream_summary();
  s.failure_examples["http_503"] = std::string("echo ") + kSecret;
  write_run_with_records(report_options(config), test_info(dir_), s, records);
  write_sweep_outputs(dir_.string(), {SweepRow{test_info(dir_), s}});

  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    ++files;
    const std::string content = read(entry.path().filename().string());
    EXPECT_EQ(content.find("TESTSECRET"), std::string::npos) << entry.path();
    EXPECT_EQ(content.find("key-0123456789"), std::string::npos) << entry.path();
    EXPECT_EQ(content.find(".tmp."), std::string::npos) << entry.path();
  }
  // 4 JSON(L) + vllm_result.json + report.html + benchmark_data.db + sweep_summary.* + table.*
  EXPECT_EQ(files, 12);
  EXPECT_EQ(report_options(config).config_json.find("TESTSECRET"), std::string::npos);
  EXPECT_EQ(render_text_summary(report_options(config), test_info(dir_), s).find("TESTSECRET"), std::string::npos);
}

// What plan_benchmark resolved (the server's model without --model, a trace's -n and rate) is what
// the config block records and the reports name, and what the shards' benchmark id hashes.
TEST(ConfigBlock, TheConfigBlockRecordsTheResolvedModelNumberAndRate) {
  Config config = test_config();
  config.target.model.clear();  // no --model
  const ResolvedFlags resolved{"served-model", {42}, {3.5}};
  const ReportOptions options = report_options(config, resolved);
  EXPECT_EQ(options.model, "served-model");
  const json block = json::parse(options.config_json);
  EXPECT_EQ(block["model"], "served-model");
  EXPECT_EQ(block["number"], json({42}));
  EXPECT_EQ(block["rate"], json({3.5}));
  EXPECT_EQ(block["parallel"], json({2}));  // the rest is the Config's
  // As given, the block holds the Config's own values.
  const json given = json::parse(report_options(config).config_json);
  EXPECT_EQ(given["model"], "");
  EXPECT_EQ(given["number"], json({10}));
  EXPECT_EQ(given["rate"], json::array());
  EXPECT_NE(benchmark_run_id(config, resolved), benchmark_run_id(config, as_given(config)));
}

TEST(ConfigBlock, MasksCredentialHeadersOnly) {
  Config config;
  config.target.headers = {{"authorization", "a"},   {"Proxy-Authorization", "b"},
                           {"x-api-key", "c"},       {"API-Key", "d"},
                           {"Cookie", "e"},          {"X-Auth-Token", "f"},
                           {"X-Client-Secret", "g"}, {"Accept", "text/plain"},
                           {"X-Trace", "h"}};
  const json j = json::parse(report_options(config).config_json);
  const json expected = {{"authorization", "***"},
                         {"Proxy-Authorization", "***"},
                         {"x-api-key", "***"},
                         {"API-Key", "***"},
                         {"Cookie", "***"},
                         {"X-Auth-Token", "***"},
                         {"X-Client-Secret", "***"},
                         {"Accept", "text/plain"},
                         {"X-Trace", "h"}};
  EXPECT_EQ(j["headers"], expected);
  EXPECT_TRUE(j["api_key"].is_null());
  EXPECT_EQ(j["percentiles"], json({10, 25, 50, 66, 75, 80, 90, 95, 98, 99}));
}

std::vector<SweepRow> sweep_rows() {
  SweepRow a{test_info("out/p1"), stream_summary()};
  a.info.parallel = 1;
  SweepRow b{test_info("out/p4,x"), non_stream_summary()};
  b.info.parallel = 4;
  b.info.number = 40;
  b.info.rate = 2.5;
  b.summary.qps = 1.0 / 3.0;
  return {a, b};
}

TEST_F(ReportTest, SweepJsonCsvMarkdown) {
  write_sweep_outputs(dir_.string(), sweep_rows());

  const ordered_json j = ordered_json::parse(read("sweep_summary.json"));
  ASSERT_EQ(j.size(), 2U);
  EXPECT_EQ(j[0], (ordered_json{{"parallel", 1},
                                {"number", 10},
                                {"rate", nullptr},
                                {"total", 5},
                                {"succeeded", 4},
                                {"failed", 1},
                                {"qps", 0.5},
                                {"latency_avg_s", 2.0},
                                {"latency_p99_s", 2.95},
                                {"ttft_avg_ms", 250.0},
                                {"ttft_p99_ms", 299.0},
                                {"tpot_avg_ms", 20.0},
                                {"tpot_p99_ms", 21.95},
                                {"itl_avg_ms", 20.0},
                                {"itl_p99_ms", 35.0},
                                {"output_throughput_tok_s", 50.5},
                                {"total_throughput_tok_s", 100.5},
                                {"output_dir", "out/p1"},
                                {"server_running_max", nullptr},
                                {"server_waiting_max", nullptr},
                                {"server_kv_usage_max", nullptr},
                                {"server_preemptions", nullptr},
                                {"token_mismatch", nullptr},
                                {"request_mismatch", nullptr},
                                {"server_gauges_incomplete", nullptr}}));
  EXPECT_EQ(j[1]["rate"], 2.5);
  EXPECT_EQ(j[1]["qps"], 0.3333);
  EXPECT_TRUE(j[1]["ttft_avg_ms"].is_null());
  EXPECT_TRUE(j[1]["itl_p99_ms"].is_null());

  EXPECT_EQ(read("sweep_summary.csv"),
            "parallel,number,rate,total,succeeded,failed,qps,latency_avg_s,latency_p99_s,"
            "ttft_avg_ms,ttft_p99_ms,tpot_avg_ms,tpot_p99_ms,itl_avg_ms,itl_p99_ms,"
            "output_throughput_tok_s,total_throughput_tok_s,output_dir,server_running_max,"
            "server_waiting_max,server_kv_usage_max,server_preemptions,token_mismatch,"
            "request_mismatch,server_gauges_incomplete\n"
            "1,10,,5,4,1,0.5,2.0,2.95,250.0,299.0,20.0,21.95,20.0,35.0,50.5,100.5,out/p1,,,,,,,\n"
            "4,40,2.5,5,4,1,0.3333,2.0,2.95,,,,,,,50.5,100.5,\"out/p4,x\",,,,,,,\n");

  EXPECT_EQ(read("sweep_summary.md"),
            "Sweep summary (P99 = 99th percentile)\n\n"
            "| Parallel | Requests | OK | Failed | QPS (req/s) | Avg Lat (s) | P99 Lat (s) | "
            "Avg TTFT (ms) | P99 TTFT (ms) | Avg TPOT (ms) | Avg ITL (ms) | P99 ITL (ms) | "
            "Output (tok/s) | Total (tok/s) |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
            "---: | ---: |\n"
            "| 1 | 5 | 4 | 1 | 0.5000 | 2 | 2.950 | 250 | 299 | 20 | 20 | 35 | 50.50 | 100.5 |\n"
            "| 4 | 5 | 4 | 1 | 0.3333 | 2 | 2.950 | - | - | - | - | - | 50.50 | 100.5 |\n");

  const std::string text = render_sweep_text(sweep_rows());
  EXPECT_NE(text.find("P99 Lat (s)"), std::string::npos);
  EXPECT_NE(text.find("0.3333"), std::string::npos);
}

// The server table of a grid names each run as the sweep table does ("4 in 100 out 32", not
// "parallel 4" six times), and a run shorter than two scrapes has no maximum, not 0.
TEST_F(ReportTest, SweepServerTableNamesGridRunsAndSaysWhenScrapesWereTooFew) {
  std::vector<SweepRow> rows;
  for (const int64_t in : {100, 500}) {
    SweepRow row{test_info("out/" + std::to_string(in)), stream_summary()};
    row.info.parallel = 4;
    row.info.input_tokens = in;
    row.info.output_tokens = 32;
    ServerSummary& s = row.summary.server;
    s.available = true;
    s.engine = "vLLM";
    s.url = "http://127.0.0.1:8000/metrics";
    s.running = in == 100 ? GaugeStats{1, 0, 0, true} : GaugeStats{3, 2, 5, true};
    rows.push_back(row);
  }
  const std::string text = render_sweep_text(rows);
  const size_t table = text.find("Server during each run");
  ASSERT_NE(table, std::string::npos) << text;
  const std::string server = text.substr(table);
  EXPECT_EQ(server.find("parallel 4"), std::string::npos) << server;
  EXPECT_NE(server.find("\n4 in 100 out 32  n/a (1 scrape)"), std::string::npos) << server;
  EXPECT_NE(server.find("\n4 in 500 out 32               5 "), std::string::npos) << server;

  write_sweep_outputs(dir_.string(), rows);
  const ordered_json j = ordered_json::parse(read("sweep_summary.json"));
  EXPECT_TRUE(j[0]["server_running_max"].is_null());
  EXPECT_NE(j[0]["server_gauges_incomplete"].get<std::string>().find("1 scrape during the run"),
            std::string::npos);
  EXPECT_EQ(j[1]["server_running_max"], 5.0);
  EXPECT_TRUE(j[1]["server_gauges_incomplete"].is_null());
}

// A client late because the machine was busy (issue 37): the text says so, as the machine's doing
// rather than llmperf's, and summary.json's client carries it with the kernel's figures; the run
// is not client-bound.
TEST_F(ReportTest, ABusyMachineIsNotCalledClientBound) {
  RunInfo info = test_info(dir_);
  RunSummary summary = stream_summary();
  ClientHealth& c = summary.client;
  c.measured = true;
  c.cpu_s = 0.44;
  c.cpu_utilization = 0.11;
  c.busy_share = 0.12;
  c.stamp_delay = {3.19e6, 1e6, ""};
  c.machine_busy = true;
  c.machine_warnings = {"ready events waited 3.19 ms (p99) before being time-stamped"};
  c.machine = {true, 2, 7.2, 0, 2345, 0.41};
  const std::string text = render_load_text(info, summary, "poisson");
  EXPECT_NE(text.find("WARNING: machine busy: ready events waited 3.19 ms (p99) before being "
                      "time-stamped. These numbers include the waits of the client's machine, not "
                      "only the server's.\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("client-bound"), std::string::npos) << text;

  write_run_with_records(report_options(test_config()), info, summary, test_records());
  const json j = read_json("summary.json");
  EXPECT_FALSE(j["client_bound"].get<bool>());
  const json& client = j["client"];
  EXPECT_TRUE(client["machine_busy"].get<bool>());
  EXPECT_EQ(client["machine_warnings"].size(), 1u);
  EXPECT_TRUE(client["warnings"].empty());
  EXPECT_DOUBLE_EQ(client["busy_share"].get<double>(), 0.12);
  EXPECT_DOUBLE_EQ(client["stamp_delay_limit_ms"].get<double>(), 1.0);
  EXPECT_TRUE(client["client_lag_limit_ms"].is_null());  // closed loop: not judged
  EXPECT_EQ(client["machine"], (json{{"cores", 2},
                                     {"others_cpu_s", 7.2},
                                     {"steal_s", 0.0},
                                     {"involuntary_switches", 2345},
                                     {"run_queue_wait_s", 0.41}}));
}

// Open loop above the server's capacity (issue 23): sends that waited for a free slot are the
// server's doing. The text, summary.json's open_loop and report.html say the cap was reached; the
// client is not called client-bound for it.
TEST_F(ReportTest, OpenLoopCapReachedIsReportedAsTheServers) {
  RunInfo info = test_info(dir_);
  info.rate = 20;
  info.parallel = 64;
  RunSummary summary = stream_summary();
  OpenLoopSummary& o = summary.open_loop;
  o.sends = 300;
  o.slot_waits = 279;
  o.slot_wait_ns.count = 279;
  o.slot_wait_ns.max = 5e9;
  o.slot_wait_ns.percentiles = std::vector<double>(summary.percentiles.size(), 2e9);
  o.client_lag_ns.count = 300;
  o.client_lag_ns.max = 0.3e6;
  o.client_lag_ns.percentiles = std::vector<double>(summary.percentiles.size(), 0.1e6);
  summary.schedule_lag_ns = o.slot_wait_ns;
  summary.client.measured = true;
  const std::string note =
      "the in-flight cap of 64 was reached for 93.0% of sends (279 of 300): the server did not "
      "keep up with 20 req/s; latencies from the planned send include the wait";

  const std::string text = render_load_text(info, summary, "poisson");
  EXPECT_NE(text.find("WARNING: open loop: " + note + ".\n"), std::string::npos) << text;
  EXPECT_NE(text.find("of it waiting for a free slot: "), std::string::npos) << text;
  EXPECT_EQ(text.find("client-bound"), std::string::npos) << text;

  write_run_with_records(report_options(test_config()), info, summary, test_records());
  const json j = read_json("summary.json");
  const json& open_loop = j["open_loop"];
  EXPECT_EQ(open_loop["in_flight_cap"], 64);
  EXPECT_EQ(open_loop["sends"], 300);
  EXPECT_EQ(open_loop["cap_reached_sends"], 279);
  EXPECT_DOUBLE_EQ(open_loop["cap_reached_share"].get<double>(), 0.93);
  EXPECT_EQ(open_loop["slot_wait_ms"]["max"], 5000.0);
  EXPECT_EQ(open_loop["client_lag_ms"]["max"], 0.3);
  EXPECT_EQ(open_loop["cap_note"], note);
  EXPECT_FALSE(j["client_bound"].get<bool>());
  EXPECT_NE(read("report.html").find("the in-flight cap of 64 was reached"), std::string::npos);

  // No send waited: nothing to say.
  summary.open_loop = OpenLoopSummary{};
  summary.open_loop.sends = 300;
  EXPECT_EQ(render_load_text(info, summary, "poisson").find("in-flight cap"), std::string::npos);
}

TEST_F(ReportTest, SweepTailFallsBackToLargestPercentile) {
  auto rows = sweep_rows();
  for (auto& row : rows) row.summary.percentiles = {50, 95};
  write_sweep_outputs(dir_.string(), rows);
  const json j = read_json("sweep_summary.json");
  EXPECT_EQ(j[0]["latency_p95_s"], 2.5);
  EXPECT_FALSE(j[0].contains("latency_p99_s"));
  EXPECT_NE(read("sweep_summary.csv").find(",latency_avg_s,latency_p95_s,"), std::string::npos);
  EXPECT_NE(render_sweep_text(rows).find("P95 Lat (s)"), std::string::npos);
  EXPECT_NE(render_sweep_text(rows).find("P95 = 95th percentile"), std::string::npos);
}

// The cells of the text line that starts with `label`, split on runs of two or more spaces.
std::vector<std::string> row_cells(const std::string& text, const std::string& label) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(label + "  ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream words(line.substr(label.size()));
    std::string word;
    while (words >> word) cells.push_back(word);
    return cells;
  }
  return {};
}

TEST(TextSummary, StreamRunTables) {
  const std::string text =
      render_text_summary(report_options(test_config()), test_info("/tmp/x"), stream_summary());
  EXPECT_EQ(text.rfind("llmperf: qwen | http://127.0.0.1:8000/v1/chat/completions | parallel 2 | "
                       "10 requests | stream\n",
                       0),
            0U);
  for (const char* needle :
       {"Test duration (s)",
        "QPS (req/s)",
        "Output throughput (tok/s)",
        "Total throughput (tok/s)",
        "Avg input tokens",
        "(usage)",
        "Metric",
        "Mean",
        "Std",
        "Min",
        "P50",
        "P90",
        "P99",
        "Max",
        "Chunks/request",
        "Output tok/s per request",
        "Percentile",
        "Output (tok/s)",
        "Total (tok/s)",
        "Failures by kind",
        "HTTP 503: overloaded",
        "Dataset notes",
        "2 malformed record(s) skipped (first at line(s) 3, 7): line 3: not JSON"}) {
    EXPECT_NE(text.find(needle), std::string::npos) << needle;
  }
  EXPECT_EQ(text.find("interrupted"), std::string::npos);
  EXPECT_EQ(text.find("from planned"), std::string::npos);
  EXPECT_EQ(row_cells(text, "Latency (s)"),
            (std::vector<std::string>{"2", "0.5000", "1", "2", "2.500", "2.950", "3"}));
  EXPECT_EQ(row_cells(text, "TTFT (ms)"),
            (std::vector<std::string>{"250", "50", "200", "250", "290", "299", "300"}));
  EXPECT_EQ(row_cells(text, "99%"), (std::vector<std::string>{"299", "35", "21.95", "2.950",
                                                              "109.8", "102", "59.80", "119.6"}));
  EXPECT_EQ(row_cells(text, "Failed requests"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(row_cells(text, "http_503"),
            (std::vector<std::string>{"1", "HTTP", "503:", "overloaded"}));
}

TEST(TextSummary, NonStreamShowsDashesAndUserPercentiles) {
  Config config = test_config();
  config.body.stream = false;
  config.output.name = "nightly";
  RunInfo info = test_info("/tmp/x");
  info.interrupted = true;
  RunSummary s = non_stream_summary();
  s.percentiles = {10, 25, 75};
  const std::string text = render_text_summary(report_options(config), info, s);
  EXPECT_NE(text.find("nightly (model qwen)"), std::string::npos);
  EXPECT_NE(text.find("non-stream (interrupted: partial results)"), std::string::npos);
  EXPECT_NE(text.find("P10"), std::string::npos);
  EXPECT_NE(text.find("P25"), std::string::npos);
  EXPECT_NE(text.find("P75"), std::string::npos);
  EXPECT_EQ(text.find("P50"), std::string::npos);
  const std::vector<std::string> dashes(7, "-");
  EXPECT_EQ(row_cells(text, "TTFT (ms)"), dashes);
  EXPECT_EQ(row_cells(text, "TPOT (ms)"), dashes);
  EXPECT_EQ(row_cells(text, "ITL (ms)"), dashes);
  EXPECT_EQ(row_cells(text, "Chunks/request"), dashes);
  EXPECT_EQ(row_cells(text, "Latency (s)")[0], "2");
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

TEST_F(ReportTest, AllFailedRunWritesOnlyFiniteNumbers) {
  RunSummary s = all_failed_summary();
  Config config = test_config();
  RunInfo info = test_info(dir_);
  write_run_with_records(report_options(config), info, s, test_records());
  write_sweep_outputs(dir_.string(), {SweepRow{info, s}});
  std::vector<std::string> outputs = {render_text_summary(report_options(config), info, s),
                                      render_sweep_text({SweepRow{info, s}})};
  for (const auto& entry : fs::directory_iterator(dir_)) {
    outputs.push_back(read(entry.path().filename().string()));
  }
  for (const auto& output : outputs) {
    std::string lower = lowercase(output);
    // vLLM's own spelling of an unpaced run's rate is the string "inf", not a number.
    if (const size_t rate = lower.find("\"request_rate\":\"inf\""); rate != std::string::npos) {
      lower.erase(rate, 20);
    }
    EXPECT_EQ(lower.find("nan"), std::string::npos) << output;
    EXPECT_EQ(lower.find("inf"), std::string::npos) << output;
  }
  const json j = read_json("summary.json");
  EXPECT_TRUE(j["qps"].is_null());
  EXPECT_TRUE(j["output_throughput_tok_s"].is_null());
  EXPECT_TRUE(j["metrics"]["latency_s"].is_null());
  EXPECT_EQ(j["failures_by_kind"], (json{{"connect_refused", 3}}));
  EXPECT_TRUE(read_json("benchmark_summary.json")["Req Throughput (req/s)"].is_null());
}

}  // namespace
}  // namespace llmperf

// Tests for how the server's own view is reported, from hand-made summaries (not produced by the
// metrics code): summary.json's "server" object key by key (histogram quantiles with their bucket
// bounds, +Inf written "+Inf", the reconciliation objects), the text summary's "Server" block
// (MISMATCH and the warnings, PROFILED, "not read", nothing when /metrics was not asked for), and
// server_metrics.jsonl's lines: phase and time from the run's anchor, common series only where
// known, every sample under its Prometheus-style key, NaN and infinities as strings, always JSON.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/internal.h"
#include "report/server/server_metrics_file.h"

namespace llmperf::report_detail {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

RunInfo vllm_info() {
  RunInfo info;
  info.server.server_header = "uvicorn";
  info.server.engine = "vLLM";
  info.server.version = "0.11.0";
  info.server.models = {"Qwen/Qwen2.5-7B"};
  info.server.max_model_len = 32768;
  info.server.details = {{"owned_by", "vllm"}};
  info.server.answered = {"/v1/models", "/version"};
  return info;
}

Reconciled check(double client, double server, bool matches, bool lower_bound = false) {
  Reconciled r;
  r.available = true;
  r.client = client;
  r.server = server;
  r.difference = server - client;
  r.relative = client > 0 ? std::fabs(r.difference) / client : 0;
  r.matches = matches;
  r.lower_bound = lower_bound;
  return r;
}

// A vLLM run of 10 requests: the server counted one request more than llmperf; 10 TTFTs, 4 in
// (0, 0.1] s, 4 in (0.1, 0.5] s, 2 above.
RunSummary vllm_summary() {
  RunSummary summary;
  ServerSummary& s = summary.server;
  s.available = true;
  s.engine = "vLLM";
  s.url = "http://127.0.0.1:8000/metrics";
  s.scrapes = 12;
  s.failed_scrapes = 1;
  s.slow_scrapes = 0;
  s.interval_s = 1;
  s.scrape_ms_max = 12.5;
  s.requests = 10;
  s.prompt_tokens = 1000;
  s.generation_tokens = 600;
  s.preemptions = 2;
  s.prefix_hits = 250;
  s.prefix_queries = 1000;
  s.running = {3, 4.5, 8, true};
  s.kv_usage = {3, 0.25, 0.5, true};
  HistogramWindow ttft;
  ttft.metric = "vllm:time_to_first_token_seconds";
  ttft.bounds = {0.1, 0.5, kInf};
  ttft.counts = {4, 8, 10};
  ttft.sum = 3;
  ttft.count = 10;
  s.ttft = ttft;
  s.requests_check = check(9, 10, false);
  s.prompt_check = check(1000, 1000, true);
  s.warnings = {"requests: server 10 vs llmperf 9 (+11.1%): the server counted more"};
  s.notes = {"a note for the reader"};
  return summary;
}

TEST(ServerJson, IdentityMetricsAndProfile) {
  const Json j = server_json(vllm_info(), vllm_summary());
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"identity", "metrics", "profiled", "profile_note"}));
  EXPECT_EQ(json::parse(j.at("identity").dump()), json::parse(R"({
      "engine": "vLLM", "version": "0.11.0", "server_header": "uvicorn",
      "models": ["Qwen/Qwen2.5-7B"], "max_model_len": 32768, "details": {"owned_by": "vllm"},
      "answered": ["/v1/models", "/version"]})"));
  EXPECT_EQ(j.at("profiled"), false);
  EXPECT_TRUE(j.at("profile_note").is_null());
}

TEST(ServerJson, MetricsScalarsCountersAndGauges) {
  const Json m = server_json(vllm_info(), vllm_summary()).at("metrics");
  EXPECT_EQ(m.at("available"), true);
  EXPECT_TRUE(m.at("unavailable_reason").is_null());
  EXPECT_EQ(m.at("url"), "http://127.0.0.1:8000/metrics");
  EXPECT_EQ(m.at("engine_names"), "vLLM");
  EXPECT_EQ(m.at("interval_s"), 1.0);
  EXPECT_EQ(m.at("scrapes"), 12);
  EXPECT_EQ(m.at("failed_scrapes"), 1);
  EXPECT_EQ(m.at("slow_scrapes"), 0);
  EXPECT_EQ(m.at("slowest_scrape_ms"), 12.5);
  EXPECT_NE(m.at("window").get<std::string>().find("from the scrape before the run"),
            std::string::npos);
  EXPECT_EQ(json::parse(m.at("counters").dump()), json::parse(R"({
      "requests": 10, "prompt_tokens": 1000, "generation_tokens": 600, "preemptions": 2,
      "prefix_cache_hits": 250, "prefix_cache_queries": 1000, "prefix_cache_hit_rate": 0.25})"));
  EXPECT_EQ(json::parse(m.at("gauges").dump()), json::parse(R"({
      "running": {"mean": 4.5, "max": 8, "scrapes": 3},
      "waiting": null,
      "kv_cache_usage": {"mean": 0.25, "max": 0.5, "scrapes": 3}})"));
  EXPECT_EQ(m.at("warnings"), Json::array({"requests: server 10 vs llmperf 9 (+11.1%): the server "
                                           "counted more"}));
  EXPECT_EQ(m.at("notes"), Json::array({"a note for the reader"}));
}

TEST(ServerJson, HistogramQuantilesWithTheirBuckets) {
  const Json h = server_json(vllm_info(), vllm_summary()).at("metrics").at("histograms");
  EXPECT_TRUE(h.at("itl").is_null());
  EXPECT_TRUE(h.at("e2e").is_null());
  EXPECT_TRUE(h.at("queue").is_null());
  const Json& ttft = h.at("ttft");
  EXPECT_EQ(ttft.at("metric"), "vllm:time_to_first_token_seconds");
  EXPECT_EQ(ttft.at("count"), 10.0);
  EXPECT_DOUBLE_EQ(ttft.at("mean_s").get<double>(), 0.3);
  EXPECT_EQ(ttft.at("bucket_bounds_s"), Json::parse(R"([0.1, 0.5, "+Inf"])"));
  std::vector<std::string> keys;
  for (const auto& item : ttft.at("quantiles").items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"p50", "p90", "p99"}));
  // p50: rank 5, 1 of the 4 in (0.1, 0.5]; p90 and p99 fall in the +Inf bucket.
  const Json& p50 = ttft.at("quantiles").at("p50");
  EXPECT_DOUBLE_EQ(p50.at("value_s").get<double>(), 0.2);
  EXPECT_EQ(p50.at("bucket_s"), Json::parse("[0.1, 0.5]"));
  EXPECT_EQ(json::parse(ttft.at("quantiles").at("p90").dump()),
            json::parse(R"({"value_s": 0.5, "bucket_s": [0.5, "+Inf"]})"));
  EXPECT_EQ(ttft.at("quantiles").at("p99").at("bucket_s"), Json::parse(R"([0.5, "+Inf"])"));
  EXPECT_NE(ttft.at("resolution").get<std::string>().find("histogram_quantile"), std::string::npos);
}

TEST(ServerJson, HistogramWithoutObservations) {
  RunSummary summary = vllm_summary();
  summary.server.ttft->counts = {0, 0, 0};
  summary.server.ttft->count = 0;
  summary.server.ttft->sum = 0;
  const Json ttft = server_json(vllm_info(), summary).at("metrics").at("histograms").at("ttft");
  EXPECT_EQ(ttft.at("count"), 0.0);
  EXPECT_TRUE(ttft.at("mean_s").is_null());
  EXPECT_EQ(json::parse(ttft.at("quantiles").dump()),
            json::parse(R"({"p50": null, "p90": null, "p99": null})"));
}

TEST(ServerJson, Reconciliation) {
  const Json r = server_json(vllm_info(), vllm_summary()).at("metrics").at("reconciliation");
  EXPECT_EQ(r.at("tolerance"), 0.01);
  const Json& requests = r.at("requests");
  EXPECT_EQ(requests.at("client"), 9.0);
  EXPECT_EQ(requests.at("server"), 10.0);
  EXPECT_EQ(requests.at("difference"), 1.0);
  EXPECT_DOUBLE_EQ(requests.at("relative").get<double>(), 1.0 / 9);
  EXPECT_EQ(requests.at("matches"), false);
  EXPECT_EQ(requests.at("server_is_lower_bound"), false);
  EXPECT_EQ(json::parse(r.at("prompt_tokens").dump()), json::parse(R"({
      "client": 1000, "server": 1000, "difference": 0, "relative": 0, "matches": true,
      "server_is_lower_bound": false})"));
  EXPECT_TRUE(r.at("generation_tokens").is_null());
  EXPECT_EQ(r.at("token_mismatch"), 0.0);
  EXPECT_DOUBLE_EQ(r.at("request_mismatch").get<double>(), 1.0 / 9);
}

TEST(ServerJson, NonFiniteNumbersBecomeNull) {
  RunSummary summary = vllm_summary();
  summary.server.requests = kNan;
  summary.server.running.mean = kInf;
  const Json m = server_json(vllm_info(), summary).at("metrics");
  EXPECT_TRUE(m.at("counters").at("requests").is_null());
  EXPECT_TRUE(m.at("gauges").at("running").at("mean").is_null());
}

TEST(ServerJson, UnreadMetricsKeepTheReason) {
  RunSummary summary;
  summary.server.unavailable_reason = "connection refused";
  const Json j = server_json(RunInfo{}, summary);
  EXPECT_EQ(json::parse(j.at("metrics").dump()),
            json::parse(R"({"available": false, "unavailable_reason": "connection refused"})"));

  summary.server.url = "http://h/metrics";
  const Json m = server_json(RunInfo{}, summary).at("metrics");
  EXPECT_EQ(m.at("available"), false);
  EXPECT_EQ(m.at("unavailable_reason"), "connection refused");
  EXPECT_TRUE(m.at("engine_names").is_null());
  EXPECT_TRUE(m.at("counters").at("requests").is_null());
  EXPECT_TRUE(m.at("reconciliation").at("token_mismatch").is_null());
}

TEST(ServerJson, NothingAskedNothingKnown) {
  const Json j = server_json(RunInfo{}, RunSummary{});
  EXPECT_EQ(json::parse(j.dump()), json::parse(R"({
      "identity": {"engine": null, "version": null, "server_header": null, "models": [],
                   "max_model_len": null, "details": {}, "answered": []},
      "metrics": null, "profiled": false, "profile_note": null})"));
}

TEST(ServerJson, Profiled) {
  RunSummary summary;
  summary.server.profiled = true;
  summary.server.profile_note = "traces in /tmp/vllm_profile";
  const Json j = server_json(RunInfo{}, summary);
  EXPECT_EQ(j.at("profiled"), true);
  EXPECT_EQ(j.at("profile_note"), "traces in /tmp/vllm_profile");
}

// --- render_server_text -------------------------------------------------------------------------

TEST(ServerText, NothingWhenNotAsked) {
  EXPECT_EQ(render_server_text(vllm_info(), RunSummary{}), "");
  RunSummary reason_only;
  reason_only.server.unavailable_reason = "not asked";
  EXPECT_EQ(render_server_text(vllm_info(), reason_only), "");
}

TEST(ServerText, TotalsGaugesHistogramsNotesAndWarnings) {
  EXPECT_EQ(render_server_text(vllm_info(), vllm_summary()),
            "\nServer: vLLM 0.11.0 (/metrics http://127.0.0.1:8000/metrics, every 1 s)\n"
            "Totals over the run  llmperf  server  diff   diff %  check\n"
            "-------------------  -------  ------  ----  -------  --------\n"
            "Requests                   9      10    +1  +11.11%  MISMATCH\n"
            "Prompt tokens           1000    1000    +0   +0.00%  ok\n"
            "\n"
            "During the run       mean  max\n"
            "------------------  -----  ---\n"
            "Requests running    4.500    8\n"
            "KV-cache usage (%)     25   50\n"
            "  preemptions 2, prefix-cache hit rate 25.0% (250 of 1000 tokens)\n"
            "\n"
            "Server histograms (ms)  count  P50  P90  P99  P50 bucket\n"
            "----------------------  -----  ---  ---  ---  ----------\n"
            "TTFT                       10  200  500  500     100-500\n"
            "  (from the server's buckets: each value is only known within its bucket)\n"
            "  note: a note for the reader\n"
            "  WARNING: requests: server 10 vs llmperf 9 (+11.1%): the server counted more\n");
}

// A run shorter than two scraping intervals: the server has the gauges but too few scrapes fell
// inside the run for a maximum, which is said rather than shown as 0.
TEST(ServerText, GaugesOfTooFewScrapesAreIncomplete) {
  RunSummary summary = vllm_summary();
  summary.server.running = {1, 0, 0, true};
  summary.server.kv_usage = {0, 0, 0, true};
  const std::string text = render_server_text(vllm_info(), summary);
  EXPECT_NE(text.find("During the run                 mean              max\n"
                      "------------------  ---------------  ---------------\n"
                      "Requests running     n/a (1 scrape)   n/a (1 scrape)\n"
                      "KV-cache usage (%)  n/a (0 scrapes)  n/a (0 scrapes)\n"
                      "  note: 1 scrape during the run: too few for its mean and maximum (the run "
                      "was shorter than two scraping intervals; see --metrics-interval)\n"),
            std::string::npos)
      << text;
  const Json gauges = server_json(vllm_info(), summary).at("metrics").at("gauges");
  EXPECT_TRUE(gauges.at("running").at("max").is_null());
  EXPECT_TRUE(gauges.at("running").at("mean").is_null());
  EXPECT_EQ(gauges.at("running").at("scrapes"), 1);
  EXPECT_NE(gauges.at("running")
                .at("incomplete")
                .get<std::string>()
                .find("1 scrape during the run: too few"),
            std::string::npos);
  EXPECT_TRUE(gauges.at("waiting").is_null());  // the server has no such gauge
}

TEST(ServerText, LowerBoundCheckIsMarked) {
  RunSummary summary = vllm_summary();
  summary.server.prompt_check = check(1000, 800, true, true);
  const std::string text = render_server_text(vllm_info(), summary);
  EXPECT_NE(text.find("ok (server counts uncached only)"), std::string::npos) << text;
}

TEST(ServerText, MedianInTheInfBucket) {
  RunSummary summary = vllm_summary();
  summary.server.ttft->counts = {1, 2, 10};
  const std::string text = render_server_text(vllm_info(), summary);
  EXPECT_NE(text.find("TTFT                       10  500  500  500     500-inf\n"),
            std::string::npos)
      << text;
}

TEST(ServerQuantileCells, ValueAndBucketInMilliseconds) {
  const auto ttft = vllm_summary().server.ttft;
  const QuantileCells median = server_quantile_cells(ttft, 0.5);  // rank 5: 1 of the 4 above 0.1
  EXPECT_EQ(median.value_ms, "200");
  EXPECT_EQ(median.bucket_ms, "100-500");
  EXPECT_EQ(server_quantile_cells(ttft, 0.99).bucket_ms, "500-inf");
}

TEST(ServerQuantileCells, DashesWithoutObservations) {
  HistogramWindow empty;
  empty.bounds = {0.1, kInf};
  empty.counts = {0, 0};
  for (const auto& h : {std::optional<HistogramWindow>(), std::optional<HistogramWindow>(empty)}) {
    const QuantileCells cells = server_quantile_cells(h, 0.5);
    EXPECT_EQ(cells.value_ms, "-");
    EXPECT_EQ(cells.bucket_ms, "-");
  }
}

TEST(ServerText, ProfiledIsCalledOut) {
  RunSummary summary = vllm_summary();
  summary.server.profiled = true;
  std::string text = render_server_text(vllm_info(), summary);
  EXPECT_NE(text.find("\n  PROFILED: the server's profiler ran during this run, which slows it "
                      "down\n"),
            std::string::npos)
      << text;

  RunSummary profiled_only;
  profiled_only.server.profiled = true;
  EXPECT_EQ(render_server_text(RunInfo{}, profiled_only),
            "\nServer\n  PROFILED: the server's profiler ran during this run, which slows it "
            "down\n");
}

TEST(ServerText, NotReadSaysWhy) {
  RunSummary summary;
  summary.server.url = "http://127.0.0.1:8000/metrics";
  summary.server.interval_s = 0.5;
  summary.server.unavailable_reason = "HTTP 404 from /metrics";
  summary.server.warnings = {"the scrape after the run failed"};
  EXPECT_EQ(render_server_text(vllm_info(), summary),
            "\nServer: vLLM 0.11.0 (/metrics http://127.0.0.1:8000/metrics, every 0.5 s)\n"
            "  not read: HTTP 404 from /metrics\n"
            "  WARNING: the scrape after the run failed\n");
}

TEST(ServerText, HeaderNamesTheServerOnce) {
  RunInfo info;
  info.server.engine = "llama.cpp";
  info.server.version = "b4719";
  RunSummary summary;
  summary.server.url = "http://h/metrics";
  summary.server.interval_s = 2;
  EXPECT_EQ(render_server_text(info, summary)
                .rfind("\nServer: llama.cpp b4719 (/metrics "
                       "http://h/metrics, every 2 s)\n",
                       0),
            0U);
  info.server.engine = "llmperf-mock";
  info.server.version = "llmperf-mock 0.1.0";
  EXPECT_EQ(render_server_text(info, summary).rfind("\nServer: llmperf-mock 0.1.0 (", 0), 0U);
  EXPECT_EQ(render_server_text(RunInfo{}, summary).rfind("\nServer (/metrics http://h/metrics", 0),
            0U);
}

TEST(ServerText, UnknownEngineShowsNoTables) {
  RunSummary summary = vllm_summary();
  summary.server.engine = "";
  const std::string text = render_server_text(RunInfo{}, summary);
  EXPECT_EQ(text.find("Totals over the run"), std::string::npos) << text;
  EXPECT_NE(text.find("WARNING: requests"), std::string::npos) << text;
}

// --- server_metrics.jsonl -----------------------------------------------------------------------

constexpr int64_t kViewAnchor = 5'000'000'000;

MetricSample sample(std::string name, double value,
                    std::vector<std::pair<std::string, std::string>> labels = {}) {
  MetricSample s;
  s.name = std::move(name);
  s.value = value;
  s.labels = std::move(labels);
  return s;
}

ScrapeLine answered_scrape(const ServerPoint& point, const std::vector<MetricSample>& samples) {
  ScrapeLine line;
  line.phase = "during";
  line.t_ns = kViewAnchor + 1'500'000'000;
  line.t_unix_ns = 1'700'000'001'500'000'000;
  line.duration_ns = 2'500'000;
  line.ok = true;
  line.point = &point;
  line.samples = &samples;
  return line;
}

TEST(ScrapeLine, AnsweredScrape) {
  ServerPoint point;
  point.running = 3;
  point.kv_usage = 0.25;
  point.prompt_tokens = 1000;
  const std::vector<MetricSample> samples = {
      sample("vllm:num_requests_running", 3, {{"engine", "0"}, {"model_name", "m"}}),
      sample("process_open_fds", 12),
  };
  const std::string line = render_scrape_line(answered_scrape(point, samples), kViewAnchor);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"phase", "t_ns", "t_unix_ns", "duration_ms", "ok",
                                            "common", "series"}));
  EXPECT_EQ(j.at("phase"), "during");
  EXPECT_EQ(j.at("t_ns"), 1'500'000'000);
  EXPECT_EQ(j.at("t_unix_ns"), 1'700'000'001'500'000'000);
  EXPECT_EQ(j.at("duration_ms"), 2.5);
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(json::parse(j.at("common").dump()),
            json::parse(R"({"running": 3, "kv_usage": 0.25, "prompt_tokens": 1000})"));
  EXPECT_EQ(json::parse(j.at("series").dump()), json::parse(R"({
      "vllm:num_requests_running{engine=\"0\",model_name=\"m\"}": 3,
      "process_open_fds": 12})"));
}

TEST(ScrapeLine, FailedScrapeHasTheErrorAndNoSeries) {
  ScrapeLine scrape;
  scrape.phase = "before";
  scrape.t_ns = kViewAnchor - 200'000'000;  // before the anchor: negative
  scrape.t_unix_ns = 1'699'999'999'800'000'000;
  scrape.duration_ns = 1'000'000'000;
  scrape.ok = false;
  scrape.error = "HTTP 503: \"overloaded\"";
  const json j = json::parse(render_scrape_line(scrape, kViewAnchor));
  EXPECT_EQ(j, json::parse(R"({"phase": "before", "t_ns": -200000000,
      "t_unix_ns": 1699999999800000000, "duration_ms": 1000, "ok": false,
      "error": "HTTP 503: \"overloaded\""})"));
}

TEST(ScrapeLine, SeriesKeysEscapeLabelValues) {
  const ServerPoint point;
  const std::vector<MetricSample> samples = {
      sample("m", 1, {{"path", "C:\\dir"}, {"msg", "say \"hi\"\nbye"}}),
      sample("m", 2, {{"a", ""}}),
  };
  const json j = json::parse(render_scrape_line(answered_scrape(point, samples), kViewAnchor));
  EXPECT_EQ(j.at("common"), json::object());
  const json& series = j.at("series");
  ASSERT_EQ(series.size(), 2U);
  EXPECT_EQ(series.at(R"(m{path="C:\\dir",msg="say \"hi\"\nbye"})"), 1);
  EXPECT_EQ(series.at(R"(m{a=""})"), 2);
}

TEST(ScrapeLine, NonFiniteValuesAsStrings) {
  ServerPoint point;
  point.kv_usage = kNan;
  point.running = kInf;
  const std::vector<MetricSample> samples = {sample("a", kNan), sample("b", kInf),
                                             sample("c", -kInf), sample("d", 0.5)};
  const json j = json::parse(render_scrape_line(answered_scrape(point, samples), kViewAnchor));
  EXPECT_EQ(j.at("series"), json::parse(R"({"a": "NaN", "b": "+Inf", "c": "-Inf", "d": 0.5})"));
  EXPECT_EQ(j.at("common"), json::parse(R"({"running": "+Inf", "kv_usage": "NaN"})"));
}

TEST(ScrapeLine, InvalidUtf8IsReplacedSoTheLineStaysJson) {
  const ServerPoint point;
  const std::vector<MetricSample> samples = {sample("m\xff", 1, {{"l", "ab\xe4\xb8"}})};
  std::string line;
  ASSERT_NO_THROW(line = render_scrape_line(answered_scrape(point, samples), kViewAnchor));
  const json j = json::parse(line);
  EXPECT_EQ(j.at("series").size(), 1U);
}

class ServerMetricsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("llmperf_server_view_test_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
};

TEST_F(ServerMetricsFileTest, AppendsOneJsonLinePerScrape) {
  const std::string path = (dir_ / "run" / "server_metrics.jsonl").string();
  ServerPoint point;
  point.running = 1;
  const std::vector<MetricSample> samples = {sample("x", 1)};
  {
    ServerMetricsFile file(path, kViewAnchor);
    EXPECT_EQ(file.path(), path);
    ScrapeLine failed;
    failed.phase = "before";
    failed.t_ns = kViewAnchor;
    failed.error = "timeout";
    file.append(failed);
    file.append(answered_scrape(point, samples));
    EXPECT_TRUE(file.ok());
    // Flushed as written: readable before the file is closed.
    std::ifstream in(path);
    std::string first;
    ASSERT_TRUE(std::getline(in, first));
    EXPECT_EQ(json::parse(first).at("error"), "timeout");
  }
  std::ifstream in(path);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].at("t_ns"), 0);
  EXPECT_EQ(lines[1].at("phase"), "during");
  EXPECT_EQ(lines[1].at("t_ns"), 1'500'000'000);
  EXPECT_EQ(lines[1].at("series"), json::parse(R"({"x": 1})"));
}

TEST_F(ServerMetricsFileTest, TruncatesAnEarlierFile) {
  fs::create_directories(dir_);
  const std::string path = (dir_ / "server_metrics.jsonl").string();
  std::ofstream(path) << "old line\n";
  { ServerMetricsFile file(path, kViewAnchor); }
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), "");
}

TEST_F(ServerMetricsFileTest, UnwritablePathThrowsNamingIt) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "a_file") << "x";
  const std::string path = (dir_ / "a_file" / "server_metrics.jsonl").string();
  try {
    ServerMetricsFile file(path, kViewAnchor);
    FAIL() << "no error for " << path;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace llmperf::report_detail

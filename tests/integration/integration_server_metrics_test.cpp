// End-to-end tests of the server's side of a run (issue 13): the real llmperf binary against
// llmperf-mock, whose /metrics (vLLM's names) counts exactly what it did, so that reconciliation,
// the scrape timeline, server-side histogram quantiles and --profile can be checked exactly.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> read_jsonl(const fs::path& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(json::parse(line));
  }
  return lines;
}

// A closed-loop run of `n` requests of 20 output tokens against `mock`.
std::vector<std::string> run_args(const MockServer& mock, int parallel, int n) {
  return concat(base_args(mock), {"--parallel", std::to_string(parallel), "-n", std::to_string(n),
                                  "--max-tokens", "20", "--metrics-interval", "0.2"});
}

TEST(IntegrationServerMetrics, ClientAndServerTotalsReconcileExactly) {
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "2"});
  const BenchRun run = run_llmperf(concat(run_args(mock, 4, 40), {"--slo", "token_mismatch<=0",
                                                                   "--slo", "request_mismatch<=0"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& server = run.summary["server"];
  EXPECT_EQ(server["identity"]["server_header"], "llmperf-mock") << server.dump(1);
  EXPECT_EQ(server["identity"]["models"], json::array({"mock-model"})) << server.dump(1);
  const json& m = server["metrics"];
  ASSERT_TRUE(m["available"].get<bool>()) << m.dump(1);
  EXPECT_EQ(m["engine_names"], "vLLM");
  EXPECT_EQ(m["failed_scrapes"], 0);
  const json& r = m["reconciliation"];
  for (const char* what : {"requests", "prompt_tokens", "generation_tokens"}) {
    SCOPED_TRACE(what);
    ASSERT_TRUE(r[what].is_object()) << r.dump(1);
    EXPECT_EQ(r[what]["difference"], 0.0) << r.dump(1);
    EXPECT_TRUE(r[what]["matches"].get<bool>());
  }
  EXPECT_EQ(r["requests"]["client"], 40.0);
  EXPECT_EQ(r["generation_tokens"]["client"], 40.0 * 20);
  EXPECT_EQ(r["prompt_tokens"]["client"], run.summary["tokens"]["input_total"].get<double>());
  EXPECT_EQ(m["counters"]["generation_tokens"], 800.0);
  EXPECT_EQ(m["histograms"]["ttft"]["count"], 40.0);
  EXPECT_TRUE(contains(run.process.out, "Generated tokens")) << run.process.out;
  EXPECT_FALSE(contains(run.process.out, "MISMATCH")) << run.process.out;
}

TEST(IntegrationServerMetrics, TimelineLinesArePresentAndMonotonic) {
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "10"});
  // 20 requests of 20 tokens at 10 ms, 2 at a time: about 2 s, so about 10 scrapes at 0.2 s.
  const BenchRun run = run_llmperf(run_args(mock, 2, 20));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> lines = read_jsonl(run.run_dirs.front() / "server_metrics.jsonl");
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines.front()["phase"], "before");
  EXPECT_EQ(lines.back()["phase"], "after");
  int64_t during = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const json& line = lines[i];
    SCOPED_TRACE(line.dump().substr(0, 300));
    EXPECT_TRUE(line["ok"].get<bool>());
    EXPECT_TRUE(line["series"].contains(
        "vllm:num_requests_running{engine=\"0\",model_name=\"mock-model\"}"));
    EXPECT_TRUE(line["common"].contains("running"));
    if (line["phase"] == "during") ++during;
    if (i == 0) continue;
    EXPECT_GE(line["t_ns"].get<int64_t>(), lines[i - 1]["t_ns"].get<int64_t>());
    EXPECT_GE(line["t_unix_ns"].get<int64_t>(), lines[i - 1]["t_unix_ns"].get<int64_t>());
    EXPECT_GE(line["common"]["generation_tokens"].get<double>(),
              lines[i - 1]["common"]["generation_tokens"].get<double>());
  }
  EXPECT_GE(during, 3);
  // The scrapes during the run saw its two requests at work.
  const json& running = run.summary["server"]["metrics"]["gauges"]["running"];
  EXPECT_EQ(running["max"], 2.0) << running.dump();
}

TEST(IntegrationServerMetrics, ASecondClientOnTheServerIsAMismatch) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "2"});
  // Another client keeps two requests in flight on the same server for the whole measured run.
  const std::string other_outputs = make_temp_dir();
  BackgroundProcess other({LLMPERF_BIN, "--url", mock.chat_url(), "--model", "mock-model",
                           "--prompt", "hi", "--parallel", "2", "-n", "1000000",
                           "--no-server-metrics", "--outputs-dir", other_outputs});
  ASSERT_TRUE(other.wait_for_stderr("run 1/1", 30)) << other.stderr_text();
  const BenchRun run =
      run_llmperf(concat(run_args(mock, 1, 10), {"--slo", "request_mismatch<=1%"}));
  other.signal(SIGINT);
  other.wait(30);
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);  // the SLO caught it
  const json& r = run.summary["server"]["metrics"]["reconciliation"];
  ASSERT_TRUE(r["requests"].is_object()) << r.dump(1);
  EXPECT_EQ(r["requests"]["client"], 10.0);
  EXPECT_GT(r["requests"]["server"].get<double>(), 10.0) << r.dump(1);
  EXPECT_FALSE(r["requests"]["matches"].get<bool>());
  EXPECT_FALSE(r["generation_tokens"]["matches"].get<bool>());
  EXPECT_TRUE(contains(run.process.out, "MISMATCH")) << run.process.out;
  EXPECT_TRUE(contains(run.process.out, "other clients on the server")) << run.process.out;
}

// The TTFT of every request as the mock saw it: from its arrival ("recv <seq> <ns>") to the
// write of its first content chunk ("evt <seq> 0 <ns>"), in seconds.
std::vector<double> event_log_ttfts(const std::string& path) {
  std::map<int64_t, int64_t> received, first;
  std::ifstream in(path);
  std::string kind;
  while (in >> kind) {
    int64_t seq = 0, a = 0, b = 0;
    if (kind == "recv" && in >> seq >> a) {
      received[seq] = a;
    } else if (kind == "evt" && in >> seq >> a >> b) {
      if (a == 0) first[seq] = b;
    } else {
      std::string rest;
      std::getline(in, rest);
    }
  }
  std::vector<double> ttfts;
  for (const auto& [seq, at] : first) {
    if (received.count(seq) != 0) ttfts.push_back(static_cast<double>(at - received[seq]) / 1e9);
  }
  std::sort(ttfts.begin(), ttfts.end());
  return ttfts;
}

TEST(IntegrationServerMetrics, ServerTtftMedianIsWithinOneBucketOfTheMocksTruth) {
  const std::string log = make_temp_dir() + "/events.log";
  double p50 = 0, lower = 0, upper = 0;
  {
    // 30 ms plus 1 ms per request in flight: medians near 0.033 s, in vLLM's (0.02, 0.04] bucket.
    MockServer mock({"--ttft-ms", "30", "--ttft-per-active-ms", "1", "--itl-ms", "1",
                     "--event-log", log});
    const BenchRun run = run_llmperf(run_args(mock, 4, 40));
    ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
    const json& q = run.summary["server"]["metrics"]["histograms"]["ttft"]["quantiles"]["p50"];
    ASSERT_TRUE(q.is_object()) << run.summary["server"].dump(1);
    p50 = q["value_s"].get<double>();
    lower = q["bucket_s"][0].get<double>();
    upper = q["bucket_s"][1].get<double>();
    mock.process().signal(SIGTERM);
    ASSERT_EQ(mock.process().wait(20), 0) << mock.process().stderr_text();
  }
  std::vector<double> truth = event_log_ttfts(log);
  // The probe request is counted before the run's first scrape; the run's 40 follow it.
  ASSERT_EQ(truth.size(), 41u);
  truth.erase(truth.begin());
  const double median = (truth[19] + truth[20]) / 2;
  EXPECT_GE(p50, lower);
  EXPECT_LE(p50, upper);
  // Within one bucket: the true median lies in the reported bucket or next to it.
  const double width = upper - lower;
  EXPECT_GE(median, lower - width) << "server p50 " << p50 << " in (" << lower << ", " << upper
                                   << "]";
  EXPECT_LE(median, upper + width);
}

TEST(IntegrationServerMetrics, ProfileCallsStartBeforeTheRunAndStopAfterIt) {
  const std::string log = make_temp_dir() + "/events.log";
  BenchRun run;
  {
    MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--event-log", log});
    run = run_llmperf(concat(run_args(mock, 2, 10), {"--profile"}));
    mock.process().signal(SIGTERM);
    ASSERT_EQ(mock.process().wait(20), 0) << mock.process().stderr_text();
    EXPECT_TRUE(contains(mock.process().stderr_text(), "profiler started"));
    EXPECT_TRUE(contains(mock.process().stderr_text(), "profiler stopped"));
  }
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_TRUE(run.summary["server"]["profiled"].get<bool>());
  EXPECT_TRUE(run.summary["config"]["profile"].get<bool>());
  EXPECT_TRUE(contains(run.process.out, "PROFILED")) << run.process.out;
  // In the mock's log: the probe, then start_profile, the run's 10 requests, then stop_profile.
  std::vector<std::string> order;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const std::string kind = line.substr(0, line.find(' '));
    if (kind == "recv" || kind == "start_profile" || kind == "stop_profile") order.push_back(kind);
  }
  std::vector<std::string> expected = {"recv", "start_profile"};
  expected.insert(expected.end(), 10, "recv");
  expected.push_back("stop_profile");
  EXPECT_EQ(order, expected);
}

TEST(IntegrationServerMetrics, AServerWithoutAProfilerIsExplainedAndTheRunGoesOn) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--no-profiler"});
  const BenchRun run = run_llmperf(concat(run_args(mock, 2, 6), {"--profile"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(run.summary["server"]["profiled"].get<bool>());
  EXPECT_TRUE(contains(run.process.err, "404")) << run.process.err;
  EXPECT_TRUE(contains(run.process.err, "VLLM_TORCH_PROFILER_DIR")) << run.process.err;
  EXPECT_EQ(run.summary["requests"]["succeeded"], 6);
}

TEST(IntegrationServerMetrics, WithoutMetricsTheRunSaysWhyAndGoesOn) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--no-metrics"});
  const BenchRun run =
      run_llmperf(concat(run_args(mock, 2, 6), {"--slo", "token_mismatch<=1%"}));
  // An SLO on a value that cannot be had fails the run: CI asked for it.
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);
  const json& m = run.summary["server"]["metrics"];
  EXPECT_FALSE(m["available"].get<bool>()) << m.dump(1);
  EXPECT_TRUE(contains(m["unavailable_reason"].get<std::string>(), "HTTP 404")) << m.dump(1);
  EXPECT_FALSE(fs::exists(run.run_dirs.front() / "server_metrics.jsonl"));
  EXPECT_EQ(run.summary["requests"]["succeeded"], 6);
}

TEST(IntegrationServerMetrics, NoServerMetricsSkipsTheProbe) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1"});
  const BenchRun run = run_llmperf(concat(run_args(mock, 2, 6), {"--no-server-metrics"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(fs::exists(run.run_dirs.front() / "server_metrics.jsonl"));
  EXPECT_EQ(run.summary["server"]["metrics"]["unavailable_reason"], "--no-server-metrics");
  EXPECT_FALSE(contains(run.process.out, "\nServer")) << run.process.out;
}

// A grid at one concurrency (issue 23): the server table names each run by its cell, as the sweep
// table does, and runs far shorter than the scraping interval say their gauges are incomplete
// instead of showing the idle scrapes around them as a maximum of 0.
TEST(IntegrationServerMetrics, GridRunsAreNamedByTheirCellAndShortRunsSayIncomplete) {
  MockServer mock({});
  const BenchRun run =
      run_llmperf(concat({"--url", mock.chat_url()},
                         {"--model", "mock-model", "--dataset", "random", "--sleep-interval", "0",
                          "--input-tokens", "50", "100", "--output-tokens", "5", "10", "--parallel",
                          "2", "-n", "4", "--metrics-interval", "60"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::string& out = run.process.out;
  const size_t table = out.find("Server during each run");
  ASSERT_NE(table, std::string::npos) << out;
  const std::string server = out.substr(table);
  EXPECT_FALSE(contains(server, "parallel 2")) << server;
  for (const char* cell :
       {"\n2 in 50 out 5 ", "\n2 in 50 out 10 ", "\n2 in 100 out 5 ", "\n2 in 100 out 10 "}) {
    EXPECT_TRUE(contains(server, cell)) << cell << server;
  }
  EXPECT_TRUE(contains(server, "n/a (0 scrapes)")) << server;
  const json rows = json::parse(read_file((run.sweep_dir / "sweep_summary.json").string()));
  ASSERT_EQ(rows.size(), 4U);
  for (const json& row : rows) {
    EXPECT_TRUE(row["server_running_max"].is_null()) << row.dump();
    EXPECT_TRUE(contains(row["server_gauges_incomplete"].get<std::string>(), "0 scrapes during"))
        << row.dump();
  }
  const json& running = run.summary["server"]["metrics"]["gauges"]["running"];
  EXPECT_TRUE(running["max"].is_null()) << running.dump();
  EXPECT_EQ(running["scrapes"], 0);
}

}  // namespace
}  // namespace llmperf::testing

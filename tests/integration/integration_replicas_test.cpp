// End-to-end tests of several --url (replicas with no load balancer in front of them): the real
// llmperf binary against three llmperf-mock processes, the third one ten times slower. Round-robin
// splits the requests evenly, least-inflight sends the slow replica clearly fewer, summary.json
// and the text break the run down per URL, every record names its URL, the replicas' /metrics
// are summed, and the per-URL fields survive `llmperf report` and a sharded run's `llmperf merge`.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../mock/mock_http.h"
#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Three mocks: two fast, the third (index 2) ten times slower.
struct Replicas {
  std::vector<std::unique_ptr<MockServer>> mocks;
  Replicas() {
    for (const char* ttft : {"10", "10", "100"}) {
      const std::string itl = std::string(ttft) == "100" ? "10" : "1";
      mocks.push_back(std::make_unique<MockServer>(
          std::vector<std::string>{"--ttft-ms", ttft, "--itl-ms", itl, "--output-tokens", "16"}));
    }
  }
  // --url for each, then the model and prompt.
  std::vector<std::string> args() const {
    std::vector<std::string> out;
    for (const auto& mock : mocks) out.insert(out.end(), {"--url", mock->chat_url()});
    out.insert(out.end(), {"--model", "mock-model", "--prompt", "hello world", "--sleep-interval",
                           "0", "--metrics-interval", "0.2"});
    return out;
  }
};

// Requests per url_index in a run directory's requests.jsonl.
std::map<int, int> requests_per_url(const fs::path& run_dir) {
  std::map<int, int> counts;
  for (const json& r : read_requests(run_dir)) ++counts[r.at("url_index").get<int>()];
  return counts;
}

// name{labels} -> value of a Prometheus text page (comments skipped).
std::map<std::string, double> prometheus_series(const std::string& text) {
  std::map<std::string, double> series;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    series[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return series;
}

TEST(IntegrationReplicas, RoundRobinSplitsEvenlyAndBreaksTheRunDownPerUrl) {
  const Replicas replicas;
  const BenchRun run =
      run_llmperf(concat(replicas.args(), {"--parallel", "6", "-n", "60", "--threads", "2"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const fs::path dir = only_run_dir(run);
  EXPECT_EQ(requests_per_url(dir), (std::map<int, int>{{0, 20}, {1, 20}, {2, 20}}));

  const json& config = run.summary["config"];
  ASSERT_EQ(config["urls"].size(), 3u) << config.dump(1);
  EXPECT_EQ(config["url_policy"], "round-robin");
  const json& by_url = run.summary["by_url"];
  ASSERT_EQ(by_url.size(), 3u) << run.summary.dump(1);
  int64_t total = 0;
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const json& u = by_url[i];
    EXPECT_EQ(u["url_index"], i);
    EXPECT_EQ(u["url"], replicas.mocks[i]->chat_url());
    EXPECT_EQ(u["requests"]["total"], 20);
    EXPECT_EQ(u["requests"]["failed"], 0);
    EXPECT_GT(u["qps"].get<double>(), 0);
    EXPECT_GT(u["output_throughput_tok_s"].get<double>(), 0);
    EXPECT_EQ(u["metrics"]["ttft_ms"]["count"], 20);
    EXPECT_TRUE(u["metrics"]["latency_s"]["percentiles"]["p99"].is_number());
    total += u["requests"]["total"].get<int64_t>();
  }
  EXPECT_EQ(total, run.summary["requests"]["total"].get<int64_t>());
  // The slow replica's TTFT is its own: 100 ms against 10 ms.
  const double slow_p50 = by_url[2]["metrics"]["ttft_ms"]["percentiles"]["p50"].get<double>();
  const double fast_p50 = by_url[0]["metrics"]["ttft_ms"]["percentiles"]["p50"].get<double>();
  EXPECT_GE(slow_p50, 100);
  EXPECT_LT(fast_p50, 100);

  EXPECT_TRUE(contains(run.process.out, "By URL")) << run.process.out;
  for (const auto& mock : replicas.mocks) {
    EXPECT_TRUE(contains(run.process.out, mock->chat_url())) << run.process.out;
  }
}

TEST(IntegrationReplicas, LeastInflightSendsTheSlowReplicaFewerRequests) {
  const Replicas replicas;
  const BenchRun run =
      run_llmperf(concat(replicas.args(), {"--parallel", "6", "-n", "90", "--threads", "2",
                                           "--url-policy", "least-inflight"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::map<int, int> counts = requests_per_url(only_run_dir(run));
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts.at(0) + counts.at(1) + counts.at(2), 90);
  // The slow replica holds each request ten times longer: it gets far fewer than a third.
  EXPECT_LT(counts.at(2) * 2, std::min(counts.at(0), counts.at(1)))
      << counts.at(0) << " " << counts.at(1) << " " << counts.at(2);
  EXPECT_EQ(run.summary["config"]["url_policy"], "least-inflight");
  EXPECT_EQ(run.summary["by_url"][2]["requests"]["total"], counts.at(2));
}

TEST(IntegrationReplicas, ServerMetricsAreTheSumOfEveryReplicas) {
  const Replicas replicas;
  const BenchRun run = run_llmperf(concat(replicas.args(), {"--parallel", "3", "-n", "30"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& m = run.summary["server"]["metrics"];
  ASSERT_TRUE(m["available"].get<bool>()) << m.dump(1);
  // Reconciled against the sum: the server side counted every request of the three.
  EXPECT_EQ(m["reconciliation"]["requests"]["server"], 30.0) << m.dump(1);
  EXPECT_TRUE(m["reconciliation"]["generation_tokens"]["matches"].get<bool>()) << m.dump(1);

  // The "after" scrape is the sum of what each replica says now (they are idle since).
  std::map<std::string, double> summed;
  for (const auto& mock : replicas.mocks) {
    const HttpReply reply = http_call(mock->port(), "GET", "/metrics");
    ASSERT_EQ(reply.status, 200);
    for (const auto& [key, value] : prometheus_series(reply.body)) summed[key] += value;
  }
  json after;
  std::istringstream lines(read_file((only_run_dir(run) / "server_metrics.jsonl").string()));
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line);
    if (j["phase"] == "after") after = j["series"];
  }
  ASSERT_TRUE(after.is_object());
  int checked = 0;
  for (const auto& [key, value] : summed) {
    if (key.find("usage") != std::string::npos) continue;  // a fraction: averaged, not summed
    SCOPED_TRACE(key);
    ASSERT_TRUE(after.contains(key));
    EXPECT_DOUBLE_EQ(after[key].get<double>(), value);
    ++checked;
  }
  EXPECT_GT(checked, 20);  // counters, gauges and every histogram bucket
  EXPECT_DOUBLE_EQ(
      summed.at("vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"mock-model\"}"),
      31.0);  // the run's 30 and the probe
}

// A URL given twice gets twice the share; its /metrics is read once, not counted twice.
TEST(IntegrationReplicas, AUrlGivenTwiceGetsTwiceTheShare) {
  MockServer a({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "8"});
  MockServer b({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "8"});
  const BenchRun run = run_llmperf({"--url", a.chat_url(), "--url", a.chat_url(), "--url",
                                    b.chat_url(), "--model", "mock-model", "--prompt", "hi",
                                    "--parallel", "3", "-n", "30", "--metrics-interval", "0.2"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(requests_per_url(only_run_dir(run)), (std::map<int, int>{{0, 10}, {1, 10}, {2, 10}}));
  const json& m = run.summary["server"]["metrics"];
  EXPECT_EQ(m["reconciliation"]["requests"]["server"], 30.0) << m.dump(1);
  EXPECT_TRUE(m["reconciliation"]["requests"]["matches"].get<bool>()) << m.dump(1);
}

TEST(IntegrationReplicas, UrlsOfDifferentEndpointsAreRefused) {
  const BenchRun mixed =
      run_llmperf({"--url", "http://127.0.0.1:1/v1/chat/completions", "--url",
                   "http://127.0.0.1:2/v1/completions", "--model", "m", "--prompt", "hi"});
  EXPECT_EQ(mixed.process.exit_code, 2);
  EXPECT_TRUE(contains(mixed.process.out + mixed.process.err, "same endpoint path"))
      << mixed.process.err;
  const BenchRun policy = run_llmperf({"--url", "http://127.0.0.1:1/v1/chat/completions",
                                       "--url-policy", "random", "--model", "m", "--prompt", "hi"});
  EXPECT_EQ(policy.process.exit_code, 2);
  EXPECT_TRUE(contains(policy.process.out + policy.process.err, "--url-policy"));
}

TEST(IntegrationReplicas, CredentialsInAUrlAreNeverWritten) {
  const Replicas replicas;
  std::vector<std::string> args = replicas.args();
  const std::string secret = "s3cret-replica-password";
  args[1] = "http://user:" + secret + "@" + replicas.mocks[0]->chat_url().substr(7);
  const BenchRun run = run_llmperf(concat(args, {"--parallel", "3", "-n", "9"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(contains(run.process.out + run.process.err, secret));
  EXPECT_EQ(run.summary["by_url"][0]["url"], replicas.mocks[0]->chat_url());
  for (const auto& entry : fs::recursive_directory_iterator(run.outputs_dir)) {
    if (!entry.is_regular_file()) continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_FALSE(contains(read_file(entry.path().string()), secret));
  }
}

// `llmperf report` rebuilds the breakdown from requests.jsonl and the config's URL list; two
// shards merged keep it, each shard having spread its own requests round-robin.
TEST(IntegrationReplicas, ReportAndMergeKeepThePerUrlBreakdown) {
  const Replicas replicas;
  const BenchRun run =
      run_llmperf(concat(replicas.args(), {"--parallel", "3", "-n", "30", "--no-server-metrics"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const fs::path dir = only_run_dir(run);
  const ProcessResult report = run_process({LLMPERF_BIN, "report", dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(contains(report.out, "By URL")) << report.out;
  const json rebuilt = json::parse(read_file((dir / "summary.json").string()));
  ASSERT_EQ(rebuilt["by_url"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const json& before = run.summary["by_url"][i];
    const json& after = rebuilt["by_url"][i];
    for (const char* key : {"url", "requests", "qps", "output_throughput_tok_s", "window_s"}) {
      EXPECT_EQ(after[key], before[key]) << key;
    }
    for (const char* metric : {"ttft_ms", "latency_s", "tpot_ms", "itl_ms"}) {
      EXPECT_EQ(after["metrics"][metric], before["metrics"][metric]) << metric;
    }
  }

  std::vector<std::string> shard_dirs;
  for (int i = 0; i < 2; ++i) {
    const BenchRun shard = run_llmperf(
        concat(replicas.args(), {"--parallel", "2", "-n", "24", "--no-server-metrics",
                                 "--no-timestamp", "--shard", std::to_string(i) + "/2"}));
    ASSERT_EQ(shard.process.exit_code, 0) << diagnostics(shard);
    EXPECT_EQ(requests_per_url(only_run_dir(shard)), (std::map<int, int>{{0, 4}, {1, 4}, {2, 4}}));
    shard_dirs.push_back(shard.sweep_dir.string());
  }
  const std::string out = make_temp_dir();
  const ProcessResult merged = run_process(
      {LLMPERF_BIN, "merge", shard_dirs[0], shard_dirs[1], "--outputs-dir", out}, kTimeoutS);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_TRUE(contains(merged.out, "By URL")) << merged.out;
  fs::path merged_run;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (entry.path().filename() == "summary.json") merged_run = entry.path().parent_path();
  }
  ASSERT_FALSE(merged_run.empty());
  EXPECT_EQ(requests_per_url(merged_run), (std::map<int, int>{{0, 8}, {1, 8}, {2, 8}}));
  const json summary = json::parse(read_file((merged_run / "summary.json").string()));
  ASSERT_EQ(summary["by_url"].size(), 3u) << summary.dump(1);
  for (const json& u : summary["by_url"]) EXPECT_EQ(u["requests"]["total"], 8);
}

}  // namespace
}  // namespace llmperf::testing

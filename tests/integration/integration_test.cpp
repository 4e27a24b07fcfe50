// End-to-end tests: the real llmperf binary against llmperf-mock over loopback. Each test checks
// counts exactly and timings against the mock's configured schedule with generous bounds.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(Integration, StreamCountsAndTokensAreExact) {
  MockServer mock({"--output-tokens", "20"});
  const BenchRun run = run_llmperf(concat(base_args(mock), {"--parallel", "4", "-n", "40"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& s = run.summary;
  EXPECT_EQ(s["schema"], "llmperf.summary/1");
  EXPECT_EQ(s["requests"]["total"], 40);
  EXPECT_EQ(s["requests"]["succeeded"], 40);
  EXPECT_EQ(s["requests"]["failed"], 0);
  EXPECT_EQ(s["tokens"]["output_total"], 40 * 20);
  // "hello world" is 4 of the mock's tokens ("hell" "o" " wor" "ld"); one user message adds 11.
  EXPECT_EQ(s["tokens"]["input_total"], 40 * (4 + 11));
  EXPECT_EQ(s["tokens"]["output_source"], "usage");
  EXPECT_EQ(s["metrics"]["chunks_per_request"]["mean"], 20.0);
  EXPECT_EQ(s["metrics"]["itl_ms"]["count"], 40 * 19);
  // Each record carries the server's id for its response, one per request.
  std::set<std::string> response_ids;
  for (const json& r : read_requests(run.run_dirs.front())) {
    const std::string id = r["response_id"];
    EXPECT_EQ(id.rfind("chatcmpl-", 0), 0u) << id;
    response_ids.insert(id);
  }
  EXPECT_EQ(response_ids.size(), 40u);
  // The human summary goes to stdout and names the run's output directory.
  EXPECT_NE(run.process.out.find("TTFT"), std::string::npos);
  EXPECT_NE(run.process.out.find(run.sweep_dir.string()), std::string::npos);
}

TEST(Integration, SeveralWorkerThreadsShareTheRunExactly) {
  MockServer mock({"--output-tokens", "7", "--itl-ms", "1"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--threads", "2", "--parallel", "6", "-n", "60"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 60);
  EXPECT_EQ(run.summary["tokens"]["output_total"], 60 * 7);
  std::set<int> ids;
  std::set<int> workers;
  for (const json& r : read_requests(run.run_dirs.front())) {
    ids.insert(r["id"].get<int>());
    workers.insert(r["worker"].get<int>());
  }
  EXPECT_EQ(ids.size(), 60u);  // every id exactly once
  EXPECT_EQ(*ids.rbegin(), 59);
  EXPECT_EQ(workers, (std::set<int>{0, 1}));
}

TEST(Integration, TimingMatchesTheServerSchedule) {
  // TTFT 100 ms, then a chunk every 20 ms: 10 tokens take 100 + 9 * 20 = 280 ms.
  MockServer mock({"--ttft-ms", "100", "--itl-ms", "20", "--output-tokens", "10"});
  const BenchRun run = run_llmperf(concat(base_args(mock), {"--parallel", "4", "-n", "8"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& m = run.summary["metrics"];
  EXPECT_GE(m["ttft_ms"]["min"].get<double>(), 100.0);
  EXPECT_LT(m["ttft_ms"]["mean"].get<double>(), 100.0 + 40.0);
  EXPECT_GE(m["itl_ms"]["mean"].get<double>(), 20.0 - 2.0);
  EXPECT_LT(m["itl_ms"]["mean"].get<double>(), 20.0 + 8.0);
  EXPECT_NEAR(m["tpot_ms"]["mean"].get<double>(), 20.0, 6.0);
  EXPECT_GE(m["latency_s"]["min"].get<double>(), 0.280);
  EXPECT_LT(m["latency_s"]["mean"].get<double>(), 0.280 + 0.100);
  // TTFB is the response headers (sent with the role chunk at once), well before the first token.
  EXPECT_LT(m["ttfb_ms"]["mean"].get<double>(), m["ttft_ms"]["mean"].get<double>());
}

TEST(Integration, NonStreamHasLatencyButNoTokenTimings) {
  MockServer mock({"--ttft-ms", "50", "--itl-ms", "5", "--output-tokens", "10"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--no-stream", "--parallel", "2", "-n", "6"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], 6);
  EXPECT_TRUE(s["metrics"]["ttft_ms"].is_null());
  EXPECT_TRUE(s["metrics"]["tpot_ms"].is_null());
  EXPECT_TRUE(s["metrics"]["itl_ms"].is_null());
  EXPECT_GE(s["metrics"]["latency_s"]["min"].get<double>(), 0.050 + 9 * 0.005);
  EXPECT_EQ(s["tokens"]["output_total"], 60);
}

TEST(Integration, InjectedFaultsAreCountedByKind) {
  MockServer mock({"--output-tokens", "8", "--seed", "7", "--fault-http-rate", "0.2",
                   "--fault-drop-rate", "0.1", "--fault-error-event-rate", "0.1"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--no-probe", "--parallel", "8", "-n", "200"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& s = run.summary;
  const int total = s["requests"]["total"];
  const int ok = s["requests"]["succeeded"];
  const int failed = s["requests"]["failed"];
  EXPECT_EQ(total, 200);
  EXPECT_EQ(ok + failed, 200);
  int by_kind = 0;
  for (const auto& [kind, count] : s["failures_by_kind"].items()) by_kind += count.get<int>();
  EXPECT_EQ(by_kind, failed);
  EXPECT_GT(s["failures_by_kind"].value("http_500", 0), 0);
  EXPECT_GT(s["failures_by_kind"].value("stream_truncated", 0), 0);
  EXPECT_GT(s["failures_by_kind"].value("stream_error", 0), 0);
  EXPECT_NE(s["failure_examples"]["http_500"].get<std::string>().find("injected error"),
            std::string::npos);
  // Every failed request in requests.jsonl carries a kind and a message.
  std::istringstream lines(read_file((run.run_dirs.front() / "requests.jsonl").string()));
  std::string line;
  int records = 0;
  while (std::getline(lines, line)) {
    const json r = json::parse(line);
    ++records;
    if (!r["ok"].get<bool>()) {
      EXPECT_FALSE(r["error_kind"].get<std::string>().empty());
      EXPECT_FALSE(r["error_message"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(records, 200);
}

TEST(Integration, StalledStreamsHitTheReadTimeout) {
  MockServer mock({"--output-tokens", "8", "--fault-stall-rate", "1"});
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--no-probe", "--read-timeout", "1", "--parallel", "2", "-n", "2"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["failures_by_kind"].value("timeout_read", 0), 2);
}

TEST(Integration, SweepWritesEveryPromisedFile) {
  MockServer mock({"--output-tokens", "5"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "1", "2", "-n", "4", "8"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 2u);
  EXPECT_EQ(run.run_dirs[0].filename(), "parallel_1_number_4");
  EXPECT_EQ(run.run_dirs[1].filename(), "parallel_2_number_8");
  for (const auto& dir : run.run_dirs) {
    for (const char* file : {"summary.json", "benchmark_summary.json", "benchmark_percentile.json",
                             "requests.jsonl"}) {
      EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
    }
  }
  for (const char* file : {"sweep_summary.json", "sweep_summary.csv", "sweep_summary.md"}) {
    EXPECT_TRUE(fs::exists(run.sweep_dir / file)) << run.sweep_dir / file;
  }
  const json sweep = json::parse(read_file((run.sweep_dir / "sweep_summary.json").string()));
  ASSERT_EQ(sweep.size(), 2u);
  EXPECT_EQ(sweep[1]["parallel"], 2);
  EXPECT_EQ(sweep[1]["succeeded"], 8);
  const json evalscope =
      json::parse(read_file((run.run_dirs[1] / "benchmark_summary.json").string()));
  EXPECT_EQ(evalscope["Concurrency"], 2);
  EXPECT_EQ(evalscope["Total Requests"], 8);
}

TEST(Integration, EvalScopeSeedCommandIsAccepted) {
  MockServer mock({"--output-tokens", "4"});
  // Run from a directory holding ./datasets, exactly as the seed command expects.
  const std::string cwd = make_temp_dir();
  fs::create_symlink(LLMPERF_DATASETS_DIR, fs::path(cwd) / "datasets");
  const BenchRun run = run_llmperf(
      {"--api", "openai", "--url", mock.chat_url(), "--model", "qwen", "--dataset", "openqa",
       "--dataset-path", "./datasets/open_qa.jsonl", "--max-prompt-length", "8000", "--stop",
       "<|im_end|>", "--read-timeout=120", "--parallel", "100", "-n", "1000"},
      cwd);
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 1000);
  EXPECT_EQ(run.summary["run"]["parallel"], 100);
}

TEST(Integration, RefusedConnectionStopsWithExitOne) {
  // Find a free port by starting and stopping a mock: nothing listens there afterwards.
  std::string url;
  {
    MockServer mock({});
    url = mock.chat_url();
    mock.process().signal(SIGTERM);
    ASSERT_EQ(mock.process().wait(20), 0);
  }
  const BenchRun run = run_llmperf({"--url", url, "--model", "m", "--prompt", "hi", "-n", "3"});
  EXPECT_EQ(run.process.exit_code, 1) << diagnostics(run);
  EXPECT_NE(run.process.err.find("connection refused"), std::string::npos) << run.process.err;
}

TEST(Integration, ClientErrorOnProbeStopsWithTheServersMessage) {
  MockServer mock({});
  const BenchRun run = run_llmperf(
      {"--url", mock.base() + "/v1/no/such/path", "--model", "m", "--prompt", "hi", "-n", "3"});
  EXPECT_EQ(run.process.exit_code, 1) << diagnostics(run);
  EXPECT_NE(run.process.err.find("HTTP 404"), std::string::npos) << run.process.err;
}

TEST(Integration, MismatchedSweepListsAreAUsageError) {
  const ProcessResult result =
      run_process({LLMPERF_BIN, "--url", "http://127.0.0.1:9/v1/chat/completions", "--model", "m",
                   "--prompt", "hi", "--parallel", "1", "2", "3", "-n", "10", "20"},
                  kTimeoutS);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--parallel"), std::string::npos) << result.err;
}

TEST(Integration, InterruptWritesPartialResults) {
  // Every request waits 60 s for its first token, so the run is still going when interrupted.
  MockServer mock({"--ttft-ms", "60000", "--verbose"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf({LLMPERF_BIN, "--url", mock.chat_url(), "--model", "m", "--prompt",
                             "hi", "--no-probe", "--parallel", "2", "-n", "10", "--outputs-dir",
                             outputs});
  // Interrupt once both requests are held by the server (it logs each one it receives).
  ASSERT_TRUE(mock.process().wait_for_stderr("#2 POST", 30)) << llmperf.stderr_text();
  llmperf.signal(SIGINT);
  EXPECT_EQ(llmperf.wait(30), 130) << llmperf.stderr_text();
  bool found = false;
  for (const auto& entry : fs::recursive_directory_iterator(outputs)) {
    if (entry.path().filename() != "summary.json") continue;
    found = true;
    const json s = json::parse(read_file(entry.path().string()));
    EXPECT_TRUE(s["run"]["interrupted"].get<bool>());
    EXPECT_EQ(s["requests"]["total"], 2);
    EXPECT_EQ(s["failures_by_kind"].value("interrupted", 0), 2);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace llmperf::testing

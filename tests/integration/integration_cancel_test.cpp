// End-to-end tests of --cancel-rate / --cancel-after: the real llmperf binary against
// llmperf-mock, which counts a request whose client closed the connection before the end as
// vllm:request_success_total{finished_reason="abort"}, as vLLM does. The chosen requests are
// closed at the moment asked for, get the outcome "cancelled" (not a failure), are counted in
// summary.json and kept out of the statistics unless --include-cancelled; the same --seed
// chooses the same requests.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../mock/mock_http.h"
#include "core/clock.h"
#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// 50 tokens, one per chunk, 5 ms apart: a stream lasts about 255 ms.
std::vector<std::string> cancel_mock_args() {
  return {"--ttft-ms", "5", "--itl-ms", "5", "--output-tokens", "50"};
}

std::vector<std::string> cancel_run_args(const MockServer& mock, std::vector<std::string> extra) {
  return concat(concat(base_args(mock), {"--parallel", "4", "-n", "40", "--seed", "7"}), extra);
}

std::vector<json> cancelled_records(const BenchRun& run) {
  std::vector<json> out;
  for (const json& r : read_requests(only_run_dir(run))) {
    if (r["error_kind"] == "cancelled") out.push_back(r);
  }
  return out;
}

// The mock's count of requests whose client went away, once it has seen every close (it notices
// a closed connection at its next write: polled for up to 2 s).
double mock_aborts(const MockServer& mock, double expected) {
  const std::string key =
      "vllm:request_success_total{engine=\"0\",finished_reason=\"abort\",model_name=\"mock-"
      "model\"}";
  double value = -1;
  const int64_t deadline = now_ns() + 2'000'000'000;
  do {
    const HttpReply reply = http_call(mock.port(), "GET", "/metrics");
    std::istringstream lines(reply.body);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(key + " ", 0) == 0) value = std::stod(line.substr(key.size() + 1));
    }
    if (value == expected) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // polling the server's counter
  } while (now_ns() < deadline);
  return value;
}

TEST(IntegrationCancel, AfterTtftTheChosenRequestsAreCancelledNotFailed) {
  MockServer mock(cancel_mock_args());
  const BenchRun run =
      run_llmperf(cancel_run_args(mock, {"--cancel-rate", "0.5", "--cancel-after", "ttft"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> cancelled = cancelled_records(run);
  const auto count = static_cast<int64_t>(cancelled.size());
  EXPECT_GT(count, 5);
  EXPECT_LT(count, 35);
  for (const json& r : cancelled) {
    EXPECT_FALSE(r["ok"].get<bool>());
    EXPECT_GE(r["chunk_ns"].size(), 1u) << r.dump();
    EXPECT_LT(r["chunk_ns"].size(), 50u) << r.dump();  // closed long before its end
    EXPECT_TRUE(r["latency_s"].is_null());
  }
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["total"], 40);
  EXPECT_EQ(s["requests"]["cancelled"], count);
  EXPECT_EQ(s["requests"]["failed"], 0);
  EXPECT_EQ(s["requests"]["succeeded"], 40 - count);
  EXPECT_FALSE(s["failures_by_kind"].contains("cancelled")) << s["failures_by_kind"].dump();
  // Kept out of the statistics: only the completed requests are in them.
  EXPECT_EQ(s["metrics"]["ttft_ms"]["count"], 40 - count);
  EXPECT_EQ(s["metrics"]["latency_s"]["count"], 40 - count);
  EXPECT_EQ(s["config"]["cancel_after"], "ttft");
  EXPECT_TRUE(contains(run.process.out, "Cancelled requests")) << run.process.out;
  // The server saw each of them go: its abort counter.
  EXPECT_EQ(mock_aborts(mock, static_cast<double>(count)), static_cast<double>(count));

  // The same --seed chooses the same requests.
  const BenchRun again =
      run_llmperf(cancel_run_args(mock, {"--cancel-rate", "0.5", "--cancel-after", "ttft"}));
  ASSERT_EQ(again.process.exit_code, 0) << diagnostics(again);
  std::set<int64_t> first_ids;
  std::set<int64_t> second_ids;
  for (const json& r : cancelled) first_ids.insert(r["id"].get<int64_t>());
  for (const json& r : cancelled_records(again)) second_ids.insert(r["id"].get<int64_t>());
  EXPECT_EQ(first_ids, second_ids);
}

TEST(IntegrationCancel, AfterNTokensAndAfterSecondsAndIncluded) {
  MockServer mock(cancel_mock_args());
  const BenchRun tokens = run_llmperf(cancel_run_args(
      mock, {"--cancel-rate", "0.3", "--cancel-after", "10-tokens", "--no-server-metrics"}));
  ASSERT_EQ(tokens.process.exit_code, 0) << diagnostics(tokens);
  const std::vector<json> by_tokens = cancelled_records(tokens);
  ASSERT_FALSE(by_tokens.empty());
  for (const json& r : by_tokens) {
    EXPECT_GE(r["chunk_ns"].size(), 10u) << r.dump();
    EXPECT_LT(r["chunk_ns"].size(), 50u) << r.dump();
  }

  const BenchRun timed = run_llmperf(cancel_run_args(
      mock, {"--cancel-rate", "0.3", "--cancel-after", "0.1", "--no-server-metrics"}));
  ASSERT_EQ(timed.process.exit_code, 0) << diagnostics(timed);
  const std::vector<json> by_time = cancelled_records(timed);
  ASSERT_FALSE(by_time.empty());
  for (const json& r : by_time) {
    // Not before 0.1 s after the send, and before the stream's own end (at 0.255 s: 50 tokens
    // 5 ms apart). It is checked with the read timeouts (every 50 ms at least), so it closes by
    // about 0.15 s on a quiet machine; how much later on a busy one is the machine's, not
    // llmperf's (0.203 s under a loaded sanitizer build), so no tighter bound is asserted.
    const double closed_s =
        static_cast<double>(r["end_ns"].get<int64_t>() - r["sent_ns"].get<int64_t>()) / 1e9;
    EXPECT_GE(closed_s, 0.1) << r.dump();
    EXPECT_LT(r["chunk_ns"].size(), 50u) << r.dump();  // cut before its end
  }

  const BenchRun included =
      run_llmperf(cancel_run_args(mock, {"--cancel-rate", "0.3", "--cancel-after", "10-tokens",
                                         "--include-cancelled", "--no-server-metrics"}));
  ASSERT_EQ(included.process.exit_code, 0) << diagnostics(included);
  const json& s = included.summary;
  EXPECT_EQ(s["requests"]["cancelled"], static_cast<int64_t>(by_tokens.size()));
  EXPECT_EQ(s["metrics"]["ttft_ms"]["count"], 40);  // every request, the cancelled ones too
  EXPECT_EQ(s["requests"]["failed"], 0);
}

TEST(IntegrationCancel, BadValuesAreRefused) {
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--cancel-rate", "1.5"},
        std::vector<std::string>{"--cancel-rate", "0.2", "--cancel-after", "soon"},
        std::vector<std::string>{"--cancel-rate", "0.2", "--cancel-after", "0-tokens"},
        std::vector<std::string>{"--cancel-rate", "0.2", "--no-stream"}}) {
    const BenchRun run = run_llmperf(concat(
        {"--url", "http://127.0.0.1:1/v1/chat/completions", "--model", "m", "--prompt", "hi"},
        bad));
    EXPECT_EQ(run.process.exit_code, 2) << bad[1];
    EXPECT_TRUE(contains(run.process.err + run.process.out, "--cancel-")) << run.process.err;
  }
}

}  // namespace
}  // namespace llmperf::testing

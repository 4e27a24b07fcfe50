// End-to-end tests of kept-alive connections that the server closes or forgets while idle (issue
// 23): llmperf-mock with cpp-httplib's and uvicorn's idle timeout and request limit, and a load
// balancer's silent one, against the real llmperf binary. No request may be lost to a connection
// the server had already given up, none may be sent twice once it reached the server, and every
// resend is counted. The idle gaps come from workload traces, so each run takes a few seconds.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;

// A workload trace (EvalScope's form) with one small chat request at each of `times_s`.
std::string write_trace(const std::vector<double>& times_s) {
  const std::string path = make_temp_dir() + "/trace.jsonl";
  std::ofstream out(path);
  for (size_t i = 0; i < times_s.size(); ++i) {
    const json body = {
        {"messages", {{{"role", "user"}, {"content", "question " + std::to_string(i)}}}},
        {"max_tokens", 2}};
    out << json{{"timestamp", times_s[i]}, {"body", body}}.dump() << "\n";
  }
  return path;
}

BenchRun replay(const MockServer& mock, const std::vector<double>& times_s, int parallel) {
  return run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset",
                      "workload_trace", "--dataset-path", write_trace(times_s), "--parallel",
                      std::to_string(parallel), "--threads", "1"});
}

// Every request succeeded; returns the resends of each, in id order.
std::vector<int> resends_of_successes(const BenchRun& run, size_t requests) {
  EXPECT_EQ(run.process.exit_code, 0) << diagnostics(run);
  std::vector<int> resends(requests, -1);
  if (run.run_dirs.empty()) return resends;
  const std::vector<json> records = read_requests(run.run_dirs.front());
  EXPECT_EQ(records.size(), requests);
  for (const json& r : records) {
    EXPECT_TRUE(r["ok"].get<bool>()) << r.dump();
    const auto id = r["id"].get<size_t>();
    if (id < requests) resends[id] = r.value("resends", 0);
  }
  EXPECT_EQ(run.summary["requests"]["failed"], 0) << run.summary["failure_examples"].dump();
  return resends;
}

std::vector<double> every(double gap_s, int count) {
  std::vector<double> times;
  for (int i = 0; i < count; ++i) times.push_back(gap_s * i);
  return times;
}

// llama.cpp's server closes the connection right after every streamed response, although the
// response said "Connection: keep-alive". A slot sends its next request at once, before the close
// arrives, so the request goes into a connection the server is closing, unread. curl resends it
// on a new connection by itself, but libcurl before 8.17 counts those resends per handle, never
// per request: the seventh request of a slot failed with "Connection died, tried 5 times before
// giving up" (issue 23). Each is now resent, counted, and keeps its first send time.
TEST(IntegrationKeepAlive, ConnectionsClosedAfterEachStreamLoseNoRequest) {
  MockServer mock({"--close-after-stream-ms", "250"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "1", "-n", "10", "--max-tokens", "4"}));
  const std::vector<int> resends = resends_of_successes(run, 10);
  EXPECT_EQ(resends[0], 0);  // a new connection
  for (size_t i = 1; i < resends.size(); ++i) EXPECT_EQ(resends[i], 1) << "request " << i;
  EXPECT_EQ(run.summary["requests"]["resent"], 9);
  EXPECT_NE(run.process.out.find("9 requests sent again on a new connection"), std::string::npos)
      << run.process.out;
  // The lost attempt is part of the latency: the mock resets it 250 ms after the previous
  // response ended, which was a little before this request's send.
  for (const json& r : read_requests(run.run_dirs.front())) {
    if (r["id"].get<int>() > 0) {
      EXPECT_GE(r["latency_s"].get<double>(), 0.2) << r.dump();
    }
  }
}

// A load balancer forgets a connection idle for 1 s; the next request on it is reset. Nothing in
// the header says so, so llmperf reuses connections idle 1.5 s (below its 2 s cap) and every
// reuse is dead: each is resent by curl and counted.
TEST(IntegrationKeepAlive, ConnectionsForgottenWhileIdleLoseNoRequest) {
  MockServer mock({"--keep-alive-timeout", "1", "--keep-alive-silent", "--no-keep-alive-header"});
  const BenchRun run = replay(mock, every(1.5, 4), 1);
  EXPECT_EQ(resends_of_successes(run, 4), (std::vector<int>{0, 1, 1, 1}));
  EXPECT_EQ(run.summary["requests"]["resent"], 3);
}

// The same server, advertising "Keep-Alive: timeout=1" as cpp-httplib does: llmperf no longer
// reuses a connection idle for a second, so nothing needs sending again.
TEST(IntegrationKeepAlive, AnAdvertisedIdleTimeoutIsHonoured) {
  MockServer mock({"--keep-alive-timeout", "1", "--keep-alive-silent"});
  const BenchRun run = replay(mock, every(1.5, 4), 1);
  EXPECT_EQ(resends_of_successes(run, 4), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(run.summary["requests"]["resent"], 0);
}

// Six connections opened by a burst are all forgotten when the next request comes: curl tries
// five of them and gives up, even with its count reset. llmperf sends the request once more on a
// new connection, keeping its first send time.
TEST(IntegrationKeepAlive, WhenCurlGivesUpTheRequestGoesOnceMoreOnANewConnection) {
  MockServer mock({"--keep-alive-timeout", "1", "--keep-alive-silent", "--no-keep-alive-header",
                   "--ttft-ms", "200", "--verbose"});
  const BenchRun run = replay(mock, {0, 0, 0, 0, 0, 0, 1.7}, 6);
  const std::vector<int> resends = resends_of_successes(run, 7);
  EXPECT_EQ(resends, (std::vector<int>{0, 0, 0, 0, 0, 0, 6}))
      << "curl's five retries on forgotten connections and llmperf's one on a new connection\n"
      << mock.process().stderr_text();
  EXPECT_EQ(run.summary["requests"]["resent"], 1);
}

// cpp-httplib's ordinary behaviour: idle connections closed with a FIN after 1 s, and
// "Connection: close" on every third response. curl sees both coming: nothing is lost or resent.
TEST(IntegrationKeepAlive, ClosedIdleConnectionsAndRequestLimitsCostNothing) {
  MockServer mock({"--keep-alive-timeout", "1", "--keep-alive-max", "3", "--no-keep-alive-header"});
  std::vector<double> times = every(0.05, 7);
  for (const double t : every(1.5, 3)) times.push_back(0.4 + t);
  const BenchRun run = replay(mock, times, 2);
  const std::vector<int> resends = resends_of_successes(run, times.size());
  EXPECT_EQ(resends, std::vector<int>(times.size(), 0));
}

}  // namespace
}  // namespace llmperf::testing

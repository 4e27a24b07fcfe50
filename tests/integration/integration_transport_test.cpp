// libcurl's HTTP phases end to end (issue 26): the real llmperf against llmperf-mock over
// loopback. A request that opened a connection has a TCP connect phase, one that reused a
// connection has none; the phases add up to the request's latency; summary.json splits them into
// new and reused connections and counts the protocols; `llmperf report` keeps them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The sum of a record's phases (ns).
int64_t transport_phase_sum(const json& record) {
  int64_t sum = 0;
  for (const auto& [name, value] : record["phases_ns"].items()) sum += value.get<int64_t>();
  return sum;
}

TEST(HttpPhases, NewConnectionsConnectReusedOnesDoNotAndPhasesAddUpToTheLatency) {
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "8"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "4", "-n", "40", "--threads", "1"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = read_requests(only_run_dir(run));
  ASSERT_EQ(records.size(), 40u);
  int fresh = 0;
  int reused = 0;
  std::vector<double> gaps_ns;  // |phases' sum - latency| of each request
  for (const json& r : records) {
    ASSERT_TRUE(r.contains("phases_ns")) << r.dump();
    EXPECT_EQ(r["http_version"], "http/1.1") << r.dump();
    const json& p = r["phases_ns"];
    for (const auto& [name, value] : p.items()) EXPECT_GE(value.get<int64_t>(), 0) << r.dump();
    EXPECT_EQ(p["tls"], 0) << r.dump();  // plain HTTP
    if (r["connection"] == "new") {
      ++fresh;
      EXPECT_GT(p["connect"].get<int64_t>(), 0) << r.dump();
    } else {
      ASSERT_EQ(r["connection"], "reused") << r.dump();
      ++reused;
      EXPECT_EQ(p["dns"], 0) << r.dump();
      EXPECT_EQ(p["connect"], 0) << r.dump();
    }
    // The mock sends its headers at once and its first token after 5 ms: wait ends at the
    // headers, receive holds the tokens.
    EXPECT_GT(p["wait"].get<int64_t>() + p["receive"].get<int64_t>(), 4'000'000) << r.dump();
    // curl's total starts when the worker hands the request over (sent_ns) and ends when the
    // transfer is done: the phases add up to the latency, within scheduling noise. One request
    // may see a few ms of it on a loaded machine (a sanitizer build, a compiler beside it), so
    // each one is held to a loose bound and the typical request to a tight one.
    const double latency_ns = r["latency_s"].get<double>() * 1e9;
    const double gap_ns = static_cast<double>(transport_phase_sum(r)) - latency_ns;
    EXPECT_LE(std::abs(gap_ns), std::max(5e6, 0.25 * latency_ns)) << r.dump();
    gaps_ns.push_back(std::abs(gap_ns));
  }
  std::nth_element(gaps_ns.begin(), gaps_ns.begin() + gaps_ns.size() / 2, gaps_ns.end());
  EXPECT_LE(gaps_ns[gaps_ns.size() / 2], 1e6) << "the median request's phases miss its latency";
  // One connection per slot, kept alive for the rest of the run.
  EXPECT_GE(fresh, 1);
  EXPECT_LE(fresh, 8);
  EXPECT_GE(reused, 32);

  const json& http = run.summary["http"];
  EXPECT_EQ(http["connections"]["new"], fresh) << http.dump();
  EXPECT_EQ(http["connections"]["reused"], reused);
  EXPECT_EQ(http["protocols"], json({{"http/1.1", 40}}));
  EXPECT_EQ(http["phases_new_connection"]["requests"], fresh);
  EXPECT_GT(http["phases_new_connection"]["connect_ms"]["mean"].get<double>(), 0);
  EXPECT_EQ(http["phases_reused_connection"]["connect_ms"]["max"], 0.0);
  EXPECT_TRUE(contains(run.process.out, "HTTP phases (mean ms")) << run.process.out;
  EXPECT_FALSE(contains(run.process.out, "TLS handshake")) << "the table is for --verbose";

  // `llmperf report` rebuilds the same block from requests.jsonl.
  const fs::path dir = only_run_dir(run);
  const ProcessResult report = run_process({LLMPERF_BIN, "report", dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const json rebuilt = json::parse(read_file((dir / "summary.json").string()));
  EXPECT_EQ(rebuilt["http"], http);
  EXPECT_TRUE(contains(read_file((dir / "report.html").string()), "HTTP phases, mean per request"));
}

TEST(HttpPhases, VerboseAddsThePhaseTable) {
  MockServer mock({"--output-tokens", "2"});
  const BenchRun run = run_llmperf(concat(base_args(mock), {"-n", "4", "--verbose"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.out, "TLS handshake")) << run.process.out;
  EXPECT_TRUE(contains(run.process.out, "Wait (to first byte)")) << run.process.out;
}

}  // namespace
}  // namespace llmperf::testing

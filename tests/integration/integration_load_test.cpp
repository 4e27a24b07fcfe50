// End-to-end tests of load shapes and verdicts (issue 3): open-loop rates, the in-flight cap and
// planned-send latencies, warm-up, duration, SLO verdicts with JUnit, baseline regressions and
// --search, all with the real llmperf binary against llmperf-mock.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "llmperf_run.h"
#include "open_loop_checks.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The most requests in flight at once, from the records' [sent, end] intervals.
int max_in_flight(const std::vector<json>& records) {
  std::vector<std::pair<int64_t, int>> edges;
  for (const json& r : records) {
    edges.emplace_back(r["sent_ns"].get<int64_t>(), +1);
    edges.emplace_back(r["end_ns"].get<int64_t>(), -1);
  }
  std::sort(edges.begin(), edges.end());  // at equal times an end (-1) sorts before a send
  int current = 0;
  int most = 0;
  for (const auto& [time, delta] : edges) {
    current += delta;
    most = std::max(most, current);
  }
  return most;
}

// What llmperf controls of a constant rate, in every build and on a busy machine (issue 37): the
// planned schedule to the nanosecond, and an achieved rate off by no more than the sends'
// lateness explains, and said to be off when it is. The strict 2 % check of the same run is
// IntegrationLoad.ConstantRateIsHeldWithinTwoPercent (integration_rate_test.cpp): only a build
// without sanitizers on a quiet core means anything by it.
TEST(IntegrationLoad, ConstantRateFollowsItsPlannedSchedule) {
  MockServer mock({"--output-tokens", "4", "--itl-ms", "2"});
  const BenchRun run = run_llmperf(concat(
      base_args(mock), {"--rate", "1000", "--arrival", "constant", "-n", "3000", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], 3000);
  EXPECT_EQ(s["open_loop"]["requested_rate"], 1000.0);
  EXPECT_EQ(s["open_loop"]["sends"], 3000);
  expect_constant_schedule(read_requests(run.run_dirs.front()), 1000);
  expect_rate_held_or_explained(s, 1000, 2.999, 0.02);
  EXPECT_FALSE(s["metrics"]["schedule_lag_ms"].is_null());
  EXPECT_FALSE(s["metrics"]["latency_from_planned_s"].is_null());
  EXPECT_NE(run.process.out.find("Open loop: requested 1000 req/s"), std::string::npos);
}

TEST(IntegrationLoad, OpenLoopScheduleIsSharedBySeveralWorkerThreads) {
  // Three workers take the planned sends round-robin: every id goes out once, from every worker,
  // at the requested rate overall.
  MockServer mock({"--output-tokens", "3", "--itl-ms", "1"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--rate", "300", "--arrival", "constant", "--threads",
                                           "3", "--parallel", "30", "-n", "600", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 600);
  expect_rate_held_or_explained(run.summary, 300, 599.0 / 300, 0.02);
  std::vector<int> ids;
  std::set<int> workers;
  for (const json& r : read_requests(run.run_dirs.front())) {
    ids.push_back(r["id"].get<int>());
    workers.insert(r["worker"].get<int>());
    EXPECT_EQ(r["worker"].get<int>(), r["id"].get<int>() % 3);  // round-robin ownership
  }
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), 600u);
  for (int i = 0; i < 600; ++i) EXPECT_EQ(ids[static_cast<size_t>(i)], i);
  EXPECT_EQ(workers, (std::set<int>{0, 1, 2}));
}

TEST(IntegrationLoad, CapHoldsAndPlannedLatencyIncludesTheWait) {
  // 1000 req/s offered, but at most 2 in flight with 20 ms each: requests queue for a slot. Only
  // the first two of the 300 find one free, so the p99 of the client's own lateness is that of
  // sends made the moment a slot came back, even on a busy machine.
  MockServer mock({"--ttft-ms", "20", "--output-tokens", "2"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--rate", "1000", "--arrival", "constant", "--parallel",
                                           "2", "-n", "300", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_LE(max_in_flight(read_requests(run.run_dirs.front())), 2);
  const json& m = run.summary["metrics"];
  const double from_send = m["latency_s"]["mean"];
  const double from_planned = m["latency_from_planned_s"]["mean"];
  EXPECT_GT(from_planned, from_send + 0.1);  // most requests waited well over 100 ms
  EXPECT_GT(m["schedule_lag_ms"]["max"].get<double>(), 100.0);
  // The lag was the server's: sends waited for one of the 2 slots, so the cap is reported and the
  // client is not blamed for it (issue 23).
  const json& open_loop = run.summary["open_loop"];
  EXPECT_EQ(open_loop["in_flight_cap"], 2);
  EXPECT_EQ(open_loop["sends"], 300);
  EXPECT_GE(open_loop["cap_reached_share"].get<double>(), 0.9) << open_loop.dump();
  EXPECT_GT(open_loop["slot_wait_ms"]["max"].get<double>(), 100.0);
  // The client's own lateness leaves the slot waits out: a p99 far below the 100+ ms the sends
  // waited, even on a busy machine. Whether it is also under the warning's limit depends on how
  // busy the machine is (a sanitizer build beside other tests can pass it), so the warning is
  // checked against the figure: present, as client-bound or machine busy, exactly when the p99 is
  // over the limit the summary gives.
  const double client_lag_p99 = open_loop["client_lag_ms"]["percentiles"]["p99"];
  EXPECT_LT(client_lag_p99, kThreadSanitizer ? 50.0 : 20.0) << open_loop.dump();
  const json& client = run.summary["client"];
  bool lag_warning = false;
  for (const char* list : {"warnings", "machine_warnings"}) {
    for (const json& warning : client[list]) {
      lag_warning =
          lag_warning || warning.get<std::string>().find("planned send") != std::string::npos;
    }
  }
  const double lag_limit = client["client_lag_limit_ms"].get<double>();
  EXPECT_GE(lag_limit, 1.0);
  EXPECT_EQ(lag_warning, client_lag_p99 > lag_limit) << client_lag_p99 << " " << lag_limit;
  EXPECT_EQ(run.process.out.find("after their planned send time") != std::string::npos,
            lag_warning)
      << run.process.out;
  const std::string& out = run.process.out;
  EXPECT_NE(out.find("WARNING: open loop: the in-flight cap of 2 was reached for"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("the server did not keep up with 1000 req/s; latencies from the planned send "
                     "include the wait."),
            std::string::npos)
      << out;
  EXPECT_NE(open_loop["cap_note"].get<std::string>().find("in-flight cap of 2"), std::string::npos);
  int waited = 0;
  for (const json& r : read_requests(run.run_dirs.front())) waited += r["slot_wait_ns"] > 0;
  EXPECT_EQ(waited, open_loop["cap_reached_sends"].get<int>());
}

TEST(IntegrationLoad, AClientThatCannotKeepItsScheduleIsClientBound) {
  // A slot for every request, so no send can wait for one: 800 sends planned 5 us apart (all
  // within 4 ms) on one worker thread, each needing its own new connection. No HTTP client sends
  // a request in 5 us, so sends fall tens of milliseconds behind their plan, by the client's own
  // doing: client-bound, and the cap is never reached.
  MockServer mock({"--output-tokens", "1"});
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--rate", "200000", "--arrival", "constant", "--parallel", "800",
                               "--threads", "1", "-n", "800", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& open_loop = run.summary["open_loop"];
  EXPECT_EQ(open_loop["cap_reached_sends"], 0) << open_loop.dump();
  EXPECT_TRUE(open_loop["cap_note"].is_null());
  EXPECT_GT(open_loop["client_lag_ms"]["max"].get<double>(), 5.0) << open_loop.dump();
  EXPECT_TRUE(run.summary["client_bound"].get<bool>());
  EXPECT_NE(run.process.out.find("WARNING: client-bound: requests left"), std::string::npos)
      << run.process.out;
  EXPECT_EQ(run.process.out.find("in-flight cap of"), std::string::npos) << run.process.out;
}

TEST(IntegrationLoad, WarmupIsSentFirstAndExcluded) {
  MockServer mock({"--output-tokens", "3"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "2", "-n", "20", "--warmup-num", "5"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["total"], 20);
  EXPECT_EQ(run.summary["requests"]["warmup"], 5);
  EXPECT_EQ(run.summary["tokens"]["output_total"], 20 * 3);
  const std::vector<json> records = read_requests(run.run_dirs.front());
  ASSERT_EQ(records.size(), 25u);
  for (const json& r : records) EXPECT_EQ(r["warmup"].get<bool>(), r["id"].get<int>() < 5);
}

TEST(IntegrationLoad, DurationStopsDispatch) {
  // Each request takes about 50 ms; 100,000 would take far longer than the 1 s duration.
  MockServer mock({"--ttft-ms", "10", "--itl-ms", "10", "--output-tokens", "5"});
  const BenchRun run = run_llmperf(concat(
      base_args(mock), {"--parallel", "2", "-n", "100000", "--duration", "1", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const int total = run.summary["requests"]["total"];
  EXPECT_GT(total, 10);
  EXPECT_LT(total, 100);
  EXPECT_EQ(run.summary["requests"]["failed"], 0);
  EXPECT_LT(run.summary["window_s"].get<double>(), 1.5);
}

TEST(IntegrationLoad, SloViolationExitsThreeWithJUnitAndAllFiles) {
  MockServer mock({"--ttft-ms", "50", "--output-tokens", "3"});
  const std::string junit = make_temp_dir() + "/verdicts.xml";
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--parallel", "2", "-n", "6", "--slo", "ttft.p99<=10ms",
                                           "--slo", "error_rate<=1%", "--junit", junit}));
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u);
  for (const char* file :
       {"summary.json", "benchmark_summary.json", "benchmark_percentile.json", "requests.jsonl"}) {
    EXPECT_TRUE(fs::exists(run.run_dirs.front() / file)) << file;
  }
  const std::string xml = read_file(junit);
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u) << xml;
  EXPECT_NE(xml.find("<testsuites"), std::string::npos);
  EXPECT_NE(xml.find("ttft.p99&lt;=10ms"), std::string::npos) << xml;
  size_t failures = 0;
  for (size_t at = xml.find("<failure"); at != std::string::npos;
       at = xml.find("<failure", at + 1)) {
    ++failures;
  }
  EXPECT_EQ(failures, 1u) << xml;  // the TTFT SLO fails, the error-rate SLO passes
  EXPECT_NE(run.process.out.find("FAIL"), std::string::npos) << run.process.out;
  const json& slo = run.summary["slo"];  // the verdict is in summary.json for scripts too
  EXPECT_FALSE(slo["passed"].get<bool>());
  ASSERT_EQ(slo["results"].size(), 2u);
  EXPECT_EQ(slo["results"][0]["expression"], "ttft.p99<=10ms");
  EXPECT_FALSE(slo["results"][0]["passed"].get<bool>());
  EXPECT_TRUE(slo["results"][1]["passed"].get<bool>());
}

TEST(IntegrationLoad, BaselineRegressionIsCaught) {
  std::string baseline;
  {
    MockServer fast({"--ttft-ms", "10", "--itl-ms", "2", "--output-tokens", "5"});
    const BenchRun run = run_llmperf(concat(base_args(fast), {"--parallel", "2", "-n", "10"}));
    ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
    baseline = (run.run_dirs.front() / "summary.json").string();
  }
  MockServer slow({"--ttft-ms", "60", "--itl-ms", "2", "--output-tokens", "5"});
  const BenchRun run =
      run_llmperf(concat(base_args(slow), {"--parallel", "2", "-n", "10", "--baseline", baseline,
                                           "--tolerance", "20%"}));
  EXPECT_EQ(run.process.exit_code, 3) << diagnostics(run);
  EXPECT_NE(run.process.out.find("regression"), std::string::npos) << run.process.out;
  EXPECT_TRUE(fs::exists(run.run_dirs.front() / "summary.json"));
}

TEST(IntegrationLoad, SearchConvergesWhereLatencyCrossesTheSlo) {
  // TTFT = 20 ms + 60 ms per other active request: at concurrency c the median TTFT is about
  // 20 + 60 (c - 1) ms, i.e. 320 ms at c = 6 and 380 ms at c = 7, so 'ttft.p50<=350ms' holds up
  // to c = 6 with 30 ms to spare on either side.
  MockServer mock({"--ttft-ms", "20", "--ttft-per-active-ms", "60", "--output-tokens", "2"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--search", "parallel", "--search-range", "1", "16",
                                           "--slo", "ttft.p50<=350ms", "-n", "24", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);  // an answer was found
  EXPECT_NE(run.process.out.find("Highest parallel meeting every --slo: 6"), std::string::npos)
      << run.process.out;
  EXPECT_TRUE(fs::exists(run.sweep_dir / "search_summary.md"));
}

TEST(IntegrationLoad, RampUpMovesTheRateAcrossTheRunAndReportsEachSpan) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--output-tokens", "5"});
  const BenchRun run = run_llmperf(concat(
      base_args(mock), {"--ramp-up-strategy", "linear", "--ramp-up-start-rps", "20",
                        "--ramp-up-end-rps", "200", "--arrival", "constant", "-n", "200"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_EQ(run.run_dirs.size(), 1u);
  EXPECT_EQ(run.run_dirs.front().filename().string().rfind("ramp_linear_20_200_parallel_", 0), 0u)
      << run.run_dirs.front();
  const nlohmann::json& ramp = run.summary["open_loop"]["ramp_up"];
  ASSERT_TRUE(ramp.is_object()) << run.summary["open_loop"].dump(1);
  EXPECT_EQ(ramp["strategy"], "linear");
  const nlohmann::json& segments = ramp["segments"];
  ASSERT_EQ(segments.size(), 10u);
  int64_t requests = 0;
  for (const auto& seg : segments) requests += seg["requests"].get<int64_t>();
  EXPECT_EQ(requests, 200);
  // Constant arrivals at the ramp's rates: each span holds more requests than the one before it
  // (the planned times are exact), and the last span's rate is several times the first's.
  const double first = segments.front()["planned_rate"].get<double>();
  const double last = segments.back()["planned_rate"].get<double>();
  EXPECT_GT(last, 3 * first) << ramp.dump(1);
  EXPECT_TRUE(run.process.out.find("ramp-up linear from 20 to 200 req/s") != std::string::npos)
      << run.process.out;
  EXPECT_TRUE(run.process.out.find("Rate (req/s)") != std::string::npos) << run.process.out;
  const std::string html = read_file((run.run_dirs.front() / "report.html").string());
  EXPECT_NE(html.find("ramp-up linear 20 → 200 req/s"), std::string::npos);
  EXPECT_NE(html.find("Latency against the arrival rate (ramp-up)"), std::string::npos);
}

}  // namespace
}  // namespace llmperf::testing

// End-to-end tests of trace replay (issue 14): the real llmperf binary replays Mooncake traces and
// EvalScope's workload traces against llmperf-mock, whose tokenizer (linked here) counts usage and
// whose prefix cache reports cached_tokens: each request goes out at its timestamp, is as long as
// the trace says, and finds in the cache exactly the blocks an earlier request sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"
#include "tokenizer.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;

std::string write_trace(const std::vector<json>& lines, const std::string& extra = "") {
  const std::string path = make_temp_dir() + "/trace.jsonl";
  std::ofstream out(path);
  for (const json& line : lines) out << line.dump() << "\n";
  out << extra;
  return path;
}

std::vector<json> by_id(std::vector<json> records) {
  std::sort(records.begin(), records.end(),
            [](const json& a, const json& b) { return a["id"] < b["id"]; });
  return records;
}

TEST(IntegrationTrace, MooncakeRequestsGoOutOnTimeAtTheirLengthsAndHitWhereBlocksRepeat) {
  // Two families of prompts: even lines start with blocks 1 2 3, odd lines with 1 4; each ends in
  // a block of its own. Blocks are 64 tokens; the mock caches blocks of 16.
  std::vector<json> lines;
  std::vector<std::vector<int64_t>> ids;
  for (int i = 0; i < 12; ++i) {
    ids.push_back(i % 2 == 0 ? std::vector<int64_t>{1, 2, 3, 100 + i}
                             : std::vector<int64_t>{1, 4, 100 + i});
    const int64_t input = static_cast<int64_t>(ids.back().size()) * 64 - 20;
    lines.push_back({{"timestamp", 1000 + i * 40},
                     {"input_length", input},
                     {"output_length", 3 + i % 4},
                     {"hash_ids", ids.back()}});
  }
  const std::string path = write_trace(lines);
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1", "--honour-max-tokens",
                   "--prefix-cache-tokens", "1000000"});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "mooncake_trace",
                   "--dataset-path", path, "--trace-block-tokens", "64", "--trace-speedup", "2"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = by_id(read_requests(run.run_dirs.front()));
  ASSERT_EQ(records.size(), 12u);
  std::set<int64_t> seen;
  int64_t reusable = 0, prompt_tokens = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const json& r = records[i];
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["input_tokens"], lines[i]["input_length"]) << r.dump();
    EXPECT_EQ(r["output_tokens"], lines[i]["output_length"]) << r.dump();
    // Planned at the trace's offsets, 40 ms apart in the trace, 20 ms at x2.
    EXPECT_EQ(r["planned_ns"].get<int64_t>() - records[0]["planned_ns"].get<int64_t>(),
              static_cast<int64_t>(i) * 20'000'000)
        << r.dump();
    // The leading blocks an earlier request sent are in the cache (to the mock's 16-token
    // blocks, the chat template's first tokens shifting them); the others are not.
    int64_t leading = 0;
    while (leading < static_cast<int64_t>(ids[i].size()) &&
           seen.count(ids[i][static_cast<size_t>(leading)]) > 0) {
      ++leading;
    }
    seen.insert(ids[i].begin(), ids[i].end());
    const int64_t shared = std::min(leading * 64, lines[i]["input_length"].get<int64_t>());
    reusable += shared;
    prompt_tokens += lines[i]["input_length"].get<int64_t>();
    const int64_t cached = r["cached_tokens"].get<int64_t>();
    EXPECT_GE(cached, shared - 16) << r.dump();
    EXPECT_LE(cached, shared + 16) << r.dump();
  }
  const json& t = run.summary["trace"];
  ASSERT_TRUE(t.is_object()) << run.summary.dump(1).substr(0, 2000);
  EXPECT_EQ(t["requests"], 12);
  EXPECT_DOUBLE_EQ(t["span_s"].get<double>(), 0.44);
  EXPECT_EQ(t["reusable_tokens"], reusable);
  EXPECT_EQ(t["prompt_tokens"], prompt_tokens);
  EXPECT_EQ(t["distinct_blocks"], 4 + 12);
  EXPECT_EQ(run.summary["open_loop"]["arrival"], "trace");
  EXPECT_EQ(run.summary["exactness"]["input"]["matched"], 12) << run.summary["exactness"].dump();
  EXPECT_TRUE(contains(run.process.out, "Trace: 12 requests")) << run.process.out;
  const std::string html = read_file((run.run_dirs.front() / "report.html").string());
  EXPECT_TRUE(contains(html, "<h2>Trace replay</h2>"));
  EXPECT_TRUE(contains(html, "trace replay x2"));
}

TEST(IntegrationTrace, OutOfOrderAndMalformedLinesAreReportedAndNLimitsTheReplay) {
  const std::vector<json> lines = {
      {{"timestamp", 300}, {"input_length", 40}, {"output_length", 2}, {"hash_ids", {7}}},
      {{"timestamp", 100}, {"input_length", 40}, {"output_length", 2}, {"hash_ids", {8}}},
      {{"timestamp", 200}, {"input_length", 40}, {"output_length", 2}, {"hash_ids", {9}}},
      {{"timestamp", 400}, {"input_length", 40}, {"output_length", 2}, {"hash_ids", {10}}},
  };
  const std::string path = write_trace(lines, "{\"timestamp\": 50, \"input_length\": -3}\n");
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1", "--honour-max-tokens"});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "mooncake_trace",
                   "--dataset-path", path, "--trace-block-tokens", "64", "-n", "3"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  // The first three lines of the file, replayed in timestamp order (100, 200, 300 ms).
  const std::vector<json> records = by_id(read_requests(run.run_dirs.front()));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2]["planned_ns"].get<int64_t>() - records[0]["planned_ns"].get<int64_t>(),
            200'000'000);
  EXPECT_EQ(run.summary["trace"]["out_of_order"], 1);
  EXPECT_TRUE(contains(run.process.err, "earlier than the line before")) << run.process.err;
}

TEST(IntegrationTrace, WorkloadTraceBodiesAreSentAsRecordedAtTheirTimes) {
  // EvalScope's form: timestamps in seconds, whole bodies.
  std::vector<json> lines;
  for (int i = 0; i < 4; ++i) {
    lines.push_back(
        {{"timestamp", 10.0 + 0.05 * i},
         {"body",
          {{"messages", {{{"role", "user"}, {"content", "question " + std::to_string(i)}}}},
           {"max_tokens", 2 + i}}}});
  }
  const std::string path = write_trace(lines, "not json at all\n");
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1", "--honour-max-tokens"});
  const BenchRun run = run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset",
                                    "workload_trace", "--dataset-path", path});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = by_id(read_requests(run.run_dirs.front()));
  ASSERT_EQ(records.size(), 4u);
  for (size_t i = 0; i < records.size(); ++i) {
    const json& r = records[i];
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["input_tokens"], *mock::chat_prompt_tokens(lines[i]["body"]["messages"]));
    EXPECT_EQ(r["output_tokens"], 2 + static_cast<int64_t>(i));  // the body's own max_tokens
    EXPECT_EQ(r["planned_ns"].get<int64_t>() - records[0]["planned_ns"].get<int64_t>(),
              static_cast<int64_t>(i) * 50'000'000);
  }
  EXPECT_EQ(run.summary["dataset"]["malformed"], 1);
  EXPECT_TRUE(run.summary["trace"]["bodies"].get<bool>());
}

}  // namespace
}  // namespace llmperf::testing

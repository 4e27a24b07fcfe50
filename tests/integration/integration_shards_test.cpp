// Sharded runs end to end (issue 16): one benchmark run as one process and as 3 shards started
// together (--start-at) against the same llmperf-mock, then `llmperf merge`. The merged run must
// be the single run's benchmark: the same requests (ids, prompts, warm-up), the same totals, the
// open-loop arrivals of the whole schedule, and percentiles computed from the union of the records.
// Merge must refuse what is not every shard of one benchmark once.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kShards = 3;

std::vector<std::string> workload(const MockServer& mock, const std::string& number = "36") {
  return {"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "random",
          "--input-tokens", "30", "--output-tokens", "16", "--parallel", "6", "-n", number,
          "--warmup-num", "3", "--rate", "120", "--seed", "7", "--sleep-interval", "0",
          "--no-timestamp", "--no-server-metrics"};
}

int64_t unix_seconds_from_now(int seconds) {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() +
         seconds;
}

// Runs the shards concurrently, shard i with `env_for(i)` in its environment (through env(1)),
// and returns each shard's outputs directory.
std::vector<std::string> run_shards(const std::vector<std::string>& args,
                                    const std::vector<std::string>& extra_env = {}) {
  const std::string start = std::to_string(unix_seconds_from_now(3));
  std::vector<std::string> dirs;
  std::vector<std::unique_ptr<BackgroundProcess>> shards;
  for (int i = 0; i < kShards; ++i) {
    dirs.push_back(make_temp_dir());
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), extra_env.begin(), extra_env.end());
    argv.push_back("JOB_COMPLETION_INDEX=" + std::to_string(i));
    argv.push_back(LLMPERF_BIN);
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--shards", std::to_string(kShards), "--start-at", start,
                             "--outputs-dir", dirs.back()});
    shards.push_back(std::make_unique<BackgroundProcess>(argv));
  }
  for (int i = 0; i < kShards; ++i) {
    EXPECT_EQ(shards[static_cast<size_t>(i)]->wait(kTimeoutS), 0)
        << shards[static_cast<size_t>(i)]->stderr_text();
  }
  return dirs;
}

// The shard directory (<outputs>/mock-model_shard_I_of_N) of a shard's outputs.
std::string shard_dir(const std::string& outputs, int index) {
  return (fs::path(outputs) / ("mock-model_shard_" + std::to_string(index) + "_of_3")).string();
}

ProcessResult merge(const std::vector<std::string>& dirs, const std::string& out,
                    bool force = false) {
  std::vector<std::string> argv = {LLMPERF_BIN, "merge"};
  argv.insert(argv.end(), dirs.begin(), dirs.end());
  argv.insert(argv.end(), {"--outputs-dir", out});
  if (force) argv.push_back("--force");
  return run_process(argv, kTimeoutS);
}

// numpy's default percentile of `values` at p.
double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const auto low = static_cast<size_t>(std::floor(rank));
  const size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

TEST(IntegrationShards, ThreeShardsMergeIntoTheSingleProcessBenchmark) {
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "16"});
  const BenchRun single = run_llmperf(workload(mock));
  ASSERT_EQ(single.process.exit_code, 0) << diagnostics(single);
  ASSERT_EQ(single.run_dirs.size(), 1u);

  const std::vector<std::string> outputs = run_shards(workload(mock));
  std::vector<std::string> dirs;
  for (int i = 0; i < kShards; ++i) dirs.push_back(shard_dir(outputs[static_cast<size_t>(i)], i));
  // Each shard sent the ids ≡ its index (mod 3), with a third of the concurrency.
  for (int i = 0; i < kShards; ++i) {
    const fs::path run = fs::path(dirs[static_cast<size_t>(i)]) / single.run_dirs[0].filename();
    ASSERT_TRUE(fs::exists(run / "summary.json")) << run;
    const json summary = json::parse(read_file((run / "summary.json").string()));
    EXPECT_EQ(summary["shard"]["index"], i);
    EXPECT_EQ(summary["shard"]["count"], kShards);
    EXPECT_EQ(summary["run"]["parallel"], 2);
    for (const json& r : read_requests(run)) EXPECT_EQ(r["id"].get<int64_t>() % kShards, i);
  }

  const std::string out = make_temp_dir();
  const ProcessResult merged = merge(dirs, out);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_NE(merged.out.find("Merged 3 shards"), std::string::npos) << merged.out;
  const fs::path run = fs::path(out) / "mock-model" / single.run_dirs[0].filename();
  ASSERT_TRUE(fs::exists(run / "report.html")) << run;
  ASSERT_TRUE(fs::exists(run / "vllm_result.json")) << run;
  ASSERT_TRUE(fs::exists(run / "benchmark_data.db")) << run;
  const json m = json::parse(read_file((run / "summary.json").string()));
  const json& s = single.summary;

  EXPECT_EQ(m["requests"], s["requests"]);  // total, succeeded, failed, warm-up
  EXPECT_EQ(m["tokens"]["input_total"], s["tokens"]["input_total"]);
  EXPECT_EQ(m["tokens"]["output_total"], s["tokens"]["output_total"]);
  EXPECT_EQ(m["run"]["parallel"], 6);
  EXPECT_EQ(m["run"]["number"], 36);
  EXPECT_TRUE(m["shard"]["merged"].get<bool>());
  EXPECT_EQ(m["shard"]["count"], kShards);
  // --start-at: the shards' runs started within a few ms of each other.
  EXPECT_LT(m["shard"]["start_spread_ms"].get<double>(), 200.0);

  // The same requests: ids, prompts and warm-up marks as in the single process.
  const auto requests_of = [](const std::vector<json>& records) {
    std::set<std::tuple<int64_t, int64_t, bool, int64_t>> out_set;
    for (const json& r : records) {
      out_set.emplace(r["id"].get<int64_t>(), r["prompt_index"].get<int64_t>(),
                      r["warmup"].get<bool>(), r["input_tokens"].get<int64_t>());
    }
    return out_set;
  };
  const std::vector<json> union_records = read_requests(run);
  EXPECT_EQ(requests_of(union_records), requests_of(read_requests(single.run_dirs[0])));

  // The union keeps the open-loop arrivals: planned sends are the single run's schedule, shifted
  // by at most the start spread.
  std::vector<int64_t> planned_merged;
  std::vector<int64_t> planned_single;
  for (const json& r : union_records) planned_merged.push_back(r["planned_ns"].get<int64_t>());
  for (const json& r : read_requests(single.run_dirs[0])) {
    planned_single.push_back(r["planned_ns"].get<int64_t>());
  }
  std::sort(planned_merged.begin(), planned_merged.end());
  std::sort(planned_single.begin(), planned_single.end());
  ASSERT_EQ(planned_merged.size(), planned_single.size());
  for (size_t i = 1; i < planned_merged.size(); ++i) {
    const int64_t gap_merged = planned_merged[i] - planned_merged[0];
    const int64_t gap_single = planned_single[i] - planned_single[0];
    EXPECT_LE(std::llabs(gap_merged - gap_single), 200'000'000) << i;
  }

  // Percentiles from the union of the records, exactly.
  std::vector<double> ttft;
  std::vector<double> latency;
  for (const json& r : union_records) {
    if (r["warmup"].get<bool>() || !r["ok"].get<bool>()) continue;
    ttft.push_back(r["ttft_ms"].get<double>());
    latency.push_back(r["latency_s"].get<double>());
  }
  ASSERT_EQ(ttft.size(), 36u);
  EXPECT_NEAR(m["metrics"]["ttft_ms"]["percentiles"]["p50"].get<double>(), percentile(ttft, 50),
              1e-9);
  EXPECT_NEAR(m["metrics"]["ttft_ms"]["percentiles"]["p99"].get<double>(), percentile(ttft, 99),
              1e-9);
  EXPECT_NEAR(m["metrics"]["latency_s"]["percentiles"]["p90"].get<double>(),
              percentile(latency, 90), 1e-12);
  EXPECT_EQ(m["metrics"]["ttft_ms"]["count"], 36);
}

TEST(IntegrationShards, MergeRefusesWhatIsNotEveryShardOfOneBenchmarkOnce) {
  MockServer mock({"--output-tokens", "4"});
  const std::vector<std::string> outputs = run_shards(workload(mock, "12"));
  std::vector<std::string> dirs;
  for (int i = 0; i < kShards; ++i) dirs.push_back(shard_dir(outputs[static_cast<size_t>(i)], i));

  const ProcessResult missing = merge({dirs[0], dirs[2]}, make_temp_dir());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("shard(s) 1 of 3 missing"), std::string::npos) << missing.err;

  const ProcessResult twice = merge({dirs[0], dirs[1], dirs[1], dirs[2]}, make_temp_dir());
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("shard 1 is given 2 times"), std::string::npos) << twice.err;

  // A shard of another benchmark (another -n): another run id.
  const std::vector<std::string> other = run_shards(workload(mock, "15"));
  const ProcessResult mixed = merge({dirs[0], dirs[1], shard_dir(other[2], 2)}, make_temp_dir());
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("of benchmark"), std::string::npos) << mixed.err;
  EXPECT_NE(mixed.err.find("--force"), std::string::npos) << mixed.err;

  // A directory that is not a shard.
  const BenchRun plain = run_llmperf(workload(mock, "3"));
  ASSERT_EQ(plain.process.exit_code, 0) << diagnostics(plain);
  const ProcessResult not_shard = merge({plain.sweep_dir.string()}, make_temp_dir());
  EXPECT_EQ(not_shard.exit_code, 2);
  EXPECT_NE(not_shard.err.find("is not a shard"), std::string::npos) << not_shard.err;

  // --force merges the two shards it has, and says what it overlooked.
  const std::string out = make_temp_dir();
  const ProcessResult forced = merge({dirs[0], dirs[2]}, out, true);
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(forced.err.find("missing"), std::string::npos) << forced.err;
}

}  // namespace
}  // namespace llmperf::testing

// plan_benchmark: what the server and the workload settle goes into the plan, never into the
// Config. The model without --model names the benchmark's directory; a trace sets -n to its
// requests and the rate to their mean rate, one per cap, and the runs follow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/config.h"
#include "core/workload_info.h"
#include "plan/run_plan.h"
#include "plan/stage_options.h"

namespace llmperf {
namespace {

Config plan_test_config() {
  Config config;
  config.output.outputs_dir = "outputs";
  config.load.parallel = {2, 4};
  config.load.number = {10, 20};
  return config;
}

TEST(BenchmarkPlan, WithoutATraceTheRunsAreTheFlagsAndTheServedModelNamesTheDirectory) {
  const Config config = plan_test_config();  // no --model: the server's is passed in
  const BenchmarkPlan plan = plan_benchmark(config, "served-model", TraceInfo{}, "20261127_101500");
  EXPECT_EQ(plan.resolved.model, "served-model");
  EXPECT_EQ(plan.resolved.number, config.load.number);
  EXPECT_TRUE(plan.resolved.rate.empty());
  ASSERT_EQ(plan.runs.size(), 2u);
  EXPECT_EQ(plan.runs[0].parallel, 2);
  EXPECT_EQ(plan.runs[0].number, 10);
  EXPECT_EQ(plan.runs[1].parallel, 4);
  EXPECT_EQ(plan.runs[1].number, 20);
  EXPECT_EQ(plan.runs[1].rate, -1);
  EXPECT_EQ(plan.sweep_dir, "outputs/20261127_101500/served-model");
}

TEST(BenchmarkPlan, ATraceSetsTheNumberAndOneMeanRatePerCapWithoutChangingTheConfig) {
  Config config = plan_test_config();
  config.target.model = "m";
  config.output.name = "replay";
  config.output.no_timestamp = true;
  TraceInfo trace;
  trace.on = true;
  trace.entries = 101;  // 100 gaps over 50 s, replayed twice as fast: 4 requests/s
  trace.span_s = 50;
  trace.speedup = 2;
  const BenchmarkPlan plan = plan_benchmark(config, config.target.model, trace, "unused");
  EXPECT_EQ(plan.resolved.number, (std::vector<int64_t>{101}));
  EXPECT_EQ(plan.resolved.rate, (std::vector<double>{4.0, 4.0}));
  ASSERT_EQ(plan.runs.size(), 2u);
  for (const RunSpec& run : plan.runs) {
    EXPECT_EQ(run.number, 101);
    EXPECT_DOUBLE_EQ(run.rate, 4.0);
  }
  EXPECT_EQ(plan.runs[1].parallel, 4);  // the caps stay the user's
  EXPECT_EQ(plan.sweep_dir, "outputs/replay");
  // The Config still says what the user asked for.
  EXPECT_EQ(config.load.number, (std::vector<int64_t>{10, 20}));
  EXPECT_TRUE(config.load.rate.empty());
  EXPECT_EQ(run_specs(config).front().number, 10);
}

TEST(BenchmarkPlan, AOneRequestTraceHasNoSpanAndARateOfOne) {
  Config config = plan_test_config();
  config.load.parallel = {1};
  TraceInfo trace;
  trace.on = true;
  trace.entries = 1;
  const BenchmarkPlan plan = plan_benchmark(config, "m", trace, "t");
  EXPECT_EQ(plan.resolved.rate, (std::vector<double>{1.0}));
  ASSERT_EQ(plan.runs.size(), 1u);
  EXPECT_EQ(plan.runs[0].number, 1);
}

TEST(BenchmarkPlan, CarriesWhatTheStagesTakeWithTheResolvedFlags) {
  Config config = plan_test_config();
  const BenchmarkPlan plan = plan_benchmark(config, "served-model", TraceInfo{}, "t");
  EXPECT_EQ(plan.report.model, "served-model");  // the reports name the model that ran
  EXPECT_TRUE(plan.report.several_runs);
  EXPECT_EQ(plan.report.config_json, report_options(config, plan.resolved).config_json);
  EXPECT_EQ(plan.metrics.percentiles, config.output.percentiles);
  EXPECT_FALSE(plan.verdicts.stop_rules.any());
  EXPECT_TRUE(plan.shard.run_id.empty());  // only the shards of a benchmark share an id
  config.load.shards = 2;
  const BenchmarkPlan shard = plan_benchmark(config, "served-model", TraceInfo{}, "t");
  EXPECT_EQ(shard.shard.run_id, benchmark_run_id(config, shard.resolved));
  EXPECT_EQ(shard.shard.run_id.size(), 16u);
  EXPECT_EQ(shard.shard.count, 2);
}

TEST(BenchmarkPlan, EachRunIsPlannedFromThePlannersShareOfTheConfig) {
  Config config;
  config.load.parallel = {8};
  config.load.number = {100};
  config.load.rate = {2};
  config.load.shards = 2;
  config.load.shard = 1;
  const BenchmarkPlan plan = plan_benchmark(config, "m", TraceInfo{}, "t");
  const RunPlan run = plan_run(plan.planner, plan.runs.front(), {}, plan.sweep_dir);
  EXPECT_EQ(run.name, "rate_2_parallel_8_number_100");
  EXPECT_EQ(run.load.parallel, 4);  // the shard's share of the concurrency
  EXPECT_EQ(run.number, 50);        // and of the requests
  EXPECT_EQ(run.label, "rate 2/s (cap 8), shard 1 of 2: 50 of the");
}

}  // namespace
}  // namespace llmperf

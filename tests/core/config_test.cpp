// Tests for the run plan of a Config: --parallel/-n/--rate lists pair as documented, every run is
// repeated over the --input-tokens x --output-tokens grid, and --warmup-num is a count or a
// fraction of -n.
#include "core/config.h"

#include <gtest/gtest.h>

#include <tuple>
#include <utility>
#include <vector>

namespace llmperf {
namespace {

TEST(ConfigRuns, PairsListsAndBroadcastsSingleNumber) {
  Config c;
  c.load.parallel = {8, 16, 32};
  c.load.number = {100, 200, 400};
  EXPECT_EQ(runs(c), (std::vector<std::pair<int, int64_t>>{{8, 100}, {16, 200}, {32, 400}}));
  c.load.number = {7};
  EXPECT_EQ(runs(c), (std::vector<std::pair<int, int64_t>>{{8, 7}, {16, 7}, {32, 7}}));
  Config defaults;
  EXPECT_EQ(runs(defaults), (std::vector<std::pair<int, int64_t>>{{1, 1000}}));
}

TEST(ConfigRuns, RatesDriveTheSweepAndParallelCapsEachRun) {
  Config c;
  c.load.rate = {5, 10, 20};
  c.load.parallel = {64};
  c.load.number = {100};
  const std::vector<RunSpec> runs = run_specs(c);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].parallel, 64);
  EXPECT_EQ(runs[1].number, 100);
  EXPECT_DOUBLE_EQ(runs[2].rate, 20);
  const Config defaults;
  EXPECT_DOUBLE_EQ(run_specs(defaults).front().rate, -1);  // closed loop
}

TEST(ConfigRuns, GridRepeatsEachRunOverInputsOuterOutputsInner) {
  Config c;
  c.load.parallel = {1, 4};
  c.load.number = {10, 20};
  c.workload.input_tokens = {128, 1024};
  c.workload.output_tokens = {32, 256, 512};
  const std::vector<RunSpec> specs = run_specs(c);
  ASSERT_EQ(specs.size(), 2u * 2u * 3u);
  std::vector<std::tuple<int, int64_t, int64_t, int64_t>> got;
  for (const RunSpec& r : specs) {
    got.emplace_back(r.parallel, r.number, r.input_tokens, r.output_tokens);
    EXPECT_DOUBLE_EQ(r.rate, -1);
  }
  const std::vector<std::tuple<int, int64_t, int64_t, int64_t>> expected = {
      {1, 10, 128, 32},   {1, 10, 128, 256},  {1, 10, 128, 512},  {1, 10, 1024, 32},
      {1, 10, 1024, 256}, {1, 10, 1024, 512}, {4, 20, 128, 32},   {4, 20, 128, 256},
      {4, 20, 128, 512},  {4, 20, 1024, 32},  {4, 20, 1024, 256}, {4, 20, 1024, 512},
  };
  EXPECT_EQ(got, expected);
  // runs() follows run_specs(): one (parallel, number) per grid cell.
  EXPECT_EQ(runs(c).size(), specs.size());
  EXPECT_EQ(runs(c)[6], (std::pair<int, int64_t>{4, 20}));
}

TEST(ConfigRuns, GridWithOneListLeavesTheOtherLengthUnset) {
  Config c;
  c.load.rate = {2, 8};
  c.load.parallel = {16};
  c.load.number = {50};
  c.workload.output_tokens = {64, 128};
  const std::vector<RunSpec> runs = run_specs(c);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_DOUBLE_EQ(runs[0].rate, 2);
  EXPECT_DOUBLE_EQ(runs[1].rate, 2);
  EXPECT_DOUBLE_EQ(runs[2].rate, 8);
  for (const RunSpec& r : runs) {
    EXPECT_EQ(r.input_tokens, -1);
    EXPECT_EQ(r.parallel, 16);
  }
  EXPECT_EQ(runs[0].output_tokens, 64);
  EXPECT_EQ(runs[1].output_tokens, 128);
  EXPECT_EQ(runs[3].output_tokens, 128);
  // No lists: no grid.
  const Config defaults;
  EXPECT_EQ(run_specs(defaults).front().input_tokens, -1);
  EXPECT_EQ(run_specs(defaults).front().output_tokens, -1);
}

TEST(ConfigRuns, WarmupIsACountOrAFractionOfTheRun) {
  Config c;
  EXPECT_EQ(c.load.warmup_count(200), 0);
  c.load.warmup_num = 20;
  EXPECT_EQ(c.load.warmup_count(200), 20);
  c.load.warmup_num = 0.25;
  EXPECT_EQ(c.load.warmup_count(200), 50);
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST(TurnDelay, OffFixedUniformAndExponential) {
  EXPECT_EQ(TurnDelay{}.draw_ns(1, 2, 3), 0);
  const TurnDelay fixed{TurnDelay::Kind::kFixed, 1.5, 0};
  EXPECT_EQ(fixed.draw_ns(1, 2, 3), 1'500'000'000);

  const TurnDelay uniform{TurnDelay::Kind::kUniform, 1, 3};
  const TurnDelay exponential{TurnDelay::Kind::kExponential, 2, 0};
  double sum_uniform = 0, sum_exponential = 0;
  constexpr int kDraws = 20'000;
  for (int i = 0; i < kDraws; ++i) {
    const int64_t u = uniform.draw_ns(7, i, 1);
    ASSERT_GE(u, 1'000'000'000);
    ASSERT_LE(u, 3'000'000'000);
    sum_uniform += static_cast<double>(u) / 1e9;
    const int64_t e = exponential.draw_ns(7, i, 1);
    ASSERT_GE(e, 0);
    sum_exponential += static_cast<double>(e) / 1e9;
  }
  // Means within a few standard errors (uniform: 0.58/sqrt(n); exponential: 2/sqrt(n)).
  EXPECT_NEAR(sum_uniform / kDraws, 2.0, 0.02);
  EXPECT_NEAR(sum_exponential / kDraws, 2.0, 0.06);
}

TEST(TurnDelay, EachTurnOfEachConversationHasItsOwnReproducibleDraw) {
  const TurnDelay uniform{TurnDelay::Kind::kUniform, 0, 10};
  EXPECT_EQ(uniform.draw_ns(1, 5, 2), uniform.draw_ns(1, 5, 2));
  EXPECT_NE(uniform.draw_ns(1, 5, 2), uniform.draw_ns(1, 5, 3));
  EXPECT_NE(uniform.draw_ns(1, 5, 2), uniform.draw_ns(1, 6, 2));
  EXPECT_NE(uniform.draw_ns(1, 5, 2), uniform.draw_ns(2, 5, 2));
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST(CancelAfterFlag, SecondsTtftAndTokens) {
  EXPECT_EQ(parse_cancel_after("ttft")->chunks, 1);
  EXPECT_EQ(parse_cancel_after("20-tokens")->chunks, 20);
  EXPECT_EQ(parse_cancel_after("1-token")->chunks, 1);
  EXPECT_EQ(parse_cancel_after("2.5")->seconds, 2.5);
  EXPECT_EQ(parse_cancel_after("2.5")->chunks, -1);
  EXPECT_EQ(parse_cancel_after("0")->seconds, 0);
  EXPECT_EQ(parse_cancel_after("20-tokens")->text(), "20 tokens");
  EXPECT_EQ(parse_cancel_after("ttft")->text(), "ttft");
  EXPECT_EQ(parse_cancel_after("2.5")->text(), "2.5 s");
  for (const char* bad : {"", "soon", "0-tokens", "-1", "2.5s", "x-tokens", "inf"}) {
    EXPECT_FALSE(parse_cancel_after(bad)) << bad;
  }
}

}  // namespace
}  // namespace llmperf

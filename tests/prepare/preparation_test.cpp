// Tests for the prepare stage without a server: the helpers every prompt source shares (the seed
// of each run's prompts, the bookkeeping of what a run made, the counts and output ranges), a
// dataset of text through PromptSource, and synthetic prompts, shared prefixes and conversations
// made with an estimated length model (what a server without a tokenize API gets).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "plan/run_plan.h"
#include "plan/side_channels.h"
#include "prepare/conversations.h"
#include "prepare/length_counter.h"
#include "prepare/preparation.h"
#include "prepare/prompt_source.h"
#include "prepare/shared_prefix_prompts.h"
#include "prepare/synthetic_prompts.h"

namespace llmperf {
namespace {

TEST(PrepareSeed, EachRunOfASweepGetsItsOwnSeedFromTheUsersSeed) {
  EXPECT_EQ(run_seed(0, 0), 0u);
  EXPECT_EQ(run_seed(0, 2), 2u);
  EXPECT_EQ(run_seed(7, 3), 7u * 1'000'003u + 3u);
  EXPECT_NE(run_seed(42, 0), run_seed(42, 1));
  EXPECT_NE(run_seed(42, 0), run_seed(43, 0));
  // Unsigned: a large --seed wraps instead of overflowing.
  EXPECT_EQ(run_seed(UINT64_MAX, 1), UINT64_MAX * 1'000'003u + 1u);
}

TEST(PrepareCounts, RequestsCountWarmUpAndTextsPerRequestAndPromptsAreCapped) {
  Config config;
  config.load.number = {10, 40};
  config.load.parallel = {1, 2};
  config.load.warmup_num = 2;
  const std::vector<RunSpec> runs = run_specs(config);
  EXPECT_EQ(requests_of(prepare_sections(config), runs[0]), 12);
  EXPECT_EQ(most_requests_of(prepare_sections(config)), 42);
  config.target.api_kind = ApiKind::kEmbeddings;
  config.workload.batch_size = 3;
  EXPECT_EQ(requests_of(prepare_sections(config), runs[1]), 126);
  EXPECT_EQ(distinct_prompts(0), 1);
  EXPECT_EQ(distinct_prompts(500), 500);
  EXPECT_EQ(distinct_prompts(kMaxSyntheticPrompts + 1), kMaxSyntheticPrompts);
}

TEST(PrepareOutputRange, GridCellThenMaxTokensRangeThenMinTokensThenMaxTokens) {
  Config config;
  RunSpec run;
  EXPECT_EQ(output_range(prepare_sections(config), run).min, 2048);
  config.body.max_tokens = 100;
  config.body.min_tokens = 20;
  EXPECT_EQ(output_range(prepare_sections(config), run).min, 20);
  EXPECT_EQ(output_range(prepare_sections(config), run).max, 100);
  config.body.max_tokens_low = 5;
  EXPECT_EQ(output_range(prepare_sections(config), run).min, 5);
  run.output_tokens = 7;
  EXPECT_EQ(output_range(prepare_sections(config), run).min, 7);
  EXPECT_EQ(output_range(prepare_sections(config), run).max, 7);
}

TEST(PrepareBookkeeping, RecordMadeFillsTheRunsWorkloadAndTheNoteSaysHowItWasCounted) {
  WorkloadInfo workload;
  workload.tokenizer.source = "server /tokenize (vLLM/SGLang)";
  record_made(workload, {12, 2, 30, now_ns()});
  EXPECT_TRUE(workload.synthetic);
  EXPECT_TRUE(workload.counted);
  EXPECT_EQ(workload.prompts, 12);
  EXPECT_EQ(workload.fit_misses, 2);
  EXPECT_EQ(workload.fit_counts, 30);
  EXPECT_GE(workload.prepare_s, 0);
  EXPECT_LT(workload.prepare_s, 60);
  EXPECT_EQ(counting_note(workload, true), "server /tokenize (vLLM/SGLang); 2 missed their length");
  workload.tokenizer.source = "usage calibration";
  EXPECT_EQ(counting_note(workload, false), "usage calibration; approximate");
}

Config dataset_config() {
  Config config;
  config.workload.dataset = "openqa";
  config.workload.dataset_path = std::string(LLMPERF_DATASETS_DIR) + "/open_qa.jsonl";
  config.load.number = {5};
  return config;
}

TEST(PreparePromptSource, ADatasetIsReadOnceAndEveryRunGetsItsPrompts) {
  const Config config = dataset_config();
  PromptSource source(prepare_sections(config), config.target.model, side_channel_options(config.target));
  const std::vector<Prompt> first = source.prepare(run_specs(config).front(), 0);
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(source.prepare(run_specs(config).front(), 1).front().text, first.front().text);
  EXPECT_EQ(source.probe_prompts().front().text, first.front().text);
  EXPECT_EQ(source.dataset().accepted, 5);
  EXPECT_FALSE(source.longest_request().has_value());  // text is not counted
  EXPECT_EQ(source.sessions(), nullptr);
  EXPECT_EQ(source.trace_schedule(), nullptr);
}

TEST(PreparePromptSource, MaxTokensRangeIsDrawnPerPromptFromTheSeed) {
  Config config = dataset_config();
  config.body.max_tokens_low = 5;
  config.body.max_tokens = 40;
  config.load.seed = 9;
  PromptSource a(prepare_sections(config), config.target.model, side_channel_options(config.target));
  PromptSource b(prepare_sections(config), config.target.model, side_channel_options(config.target));
  const std::vector<Prompt>& pa = a.prepare(run_specs(config).front(), 0);
  const std::vector<Prompt>& pb = b.prepare(run_specs(config).front(), 0);
  ASSERT_EQ(pa.size(), pb.size());
  bool varied = false;
  for (size_t i = 0; i < pa.size(); ++i) {
    EXPECT_EQ(pa[i].target_output_tokens, pb[i].target_output_tokens);
    EXPECT_GE(pa[i].target_output_tokens, 5);
    EXPECT_LE(pa[i].target_output_tokens, 40);
    varied = varied || pa[i].target_output_tokens != pa[0].target_output_tokens;
  }
  EXPECT_TRUE(varied);
}

// A counter without a tokenizer, as a server without a tokenize API leaves it.
LengthCounter estimated_counter() {
  LengthCounter counter;
  counter.estimate = LengthModel{11, 1.3, 0};
  counter.info.source = "usage calibration";
  return counter;
}

Config synthetic_config(const std::string& dataset) {
  Config config;
  config.workload.dataset = dataset;
  config.workload.input_tokens = {40};
  config.body.max_tokens = 8;
  config.load.number = {6};
  config.load.seed = 3;
  return config;
}

TEST(PrepareSynthetic, PromptsAreTheSameForTheSameSeedAndRunAndFreshForTheNextRun) {
  const Config config = synthetic_config("random");
  const LengthCounter counter = estimated_counter();
  const RunSpec run = run_specs(config).front();
  WorkloadInfo workload;
  workload.tokenizer = counter.info;
  const std::vector<Prompt> again =
      make_random_prompts(prepare_sections(config), run, 0, counter, workload);
  const std::vector<Prompt> first =
      make_random_prompts(prepare_sections(config), run, 0, counter, workload);
  const std::vector<Prompt> second =
      make_random_prompts(prepare_sections(config), run, 1, counter, workload);
  ASSERT_EQ(first.size(), 6u);
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].text, again[i].text);
    EXPECT_EQ(first[i].target_output_tokens, 8);
  }
  EXPECT_NE(first.front().text, second.front().text);
  EXPECT_TRUE(workload.synthetic);
  EXPECT_EQ(workload.prompts, 6);
  EXPECT_EQ(longest_synthetic_request(prepare_sections(config)).total(), 48);
}

TEST(PrepareSharedPrefix, EveryRequestIsMarkedWithItsGroupAndTheGroupsFirstUse) {
  Config config = synthetic_config("shared_prefix");
  config.workload.prefix_groups = 2;
  config.workload.prefix_length = 30;
  config.load.number = {10};
  WorkloadInfo workload;
  const std::vector<Prompt> prompts = make_shared_prefix_prompts(
      prepare_sections(config), run_specs(config).front(), 0, estimated_counter(), workload);
  ASSERT_EQ(prompts.size(), 10u);
  std::vector<int> firsts(2, 0);
  for (const Prompt& prompt : prompts) {
    ASSERT_GE(prompt.prefix_group, 0);
    ASSERT_LT(prompt.prefix_group, 2);
    firsts[static_cast<size_t>(prompt.prefix_group)] += prompt.prefix_first_use;
  }
  for (const int first : firsts) EXPECT_LE(first, 1);
  EXPECT_EQ(workload.prefix_tokens, 30);
  EXPECT_EQ(workload.prompts, 10);
}

TEST(PrepareConversations, RandomConversationsHaveTheirDrawnTurnsAndCountEveryMessage) {
  Config config = synthetic_config("random_multi_turn");
  config.workload.multi_turn = true;
  config.workload.min_turns = 2;
  config.workload.max_turns = 3;
  config.load.number = {4};
  WorkloadInfo workload;
  const std::vector<SessionScript> sessions = make_random_conversations(
      prepare_sections(config), run_specs(config).front(), 0, estimated_counter(), workload);
  ASSERT_EQ(sessions.size(), 4u);
  int64_t messages = 0;
  for (const SessionScript& script : sessions) {
    EXPECT_GE(script.turns.size(), 2u);
    EXPECT_LE(script.turns.size(), 3u);
    messages += static_cast<int64_t>(script.turns.size());
  }
  EXPECT_EQ(workload.prompts, messages);
}

}  // namespace
}  // namespace llmperf

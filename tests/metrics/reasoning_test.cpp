// Reasoning-aware metrics against a hand-computed trace: TTFAT, the reasoning phase, reasoning and
// answer tokens, and ITL split at the first answer chunk; the goodput and SLO bounds on TTFAT.
#include <gtest/gtest.h>

#include <vector>

#include "metrics/goodput.h"
#include "metrics/metrics.h"
#include "test_units.h"

namespace llmperf {
namespace {

// A stream sent at 0 whose chunks arrive at `chunks_ms`; the first `reasoning` of them reasoned.
RequestRecord reasoning_record(std::vector<int64_t> chunks_ms, int32_t reasoning,
                               int64_t output_tokens, int64_t reasoning_tokens,
                               TokenSource source) {
  RequestRecord r;
  r.stream = true;
  r.sent_ns = 0;
  r.planned_ns = 0;
  r.first_byte_ns = kMs;
  for (const int64_t t : chunks_ms) r.chunk_ns.push_back(t * kMs);
  r.first_content_ns = r.chunk_ns.front();
  r.reasoning_chunks = reasoning;
  if (reasoning < static_cast<int32_t>(r.chunk_ns.size())) {
    r.first_answer_chunk = reasoning;
    r.first_answer_ns = r.chunk_ns[static_cast<size_t>(reasoning)];
  }
  r.end_ns = r.chunk_ns.back() + kMs;
  r.output_tokens = output_tokens;
  r.output_source = TokenSource::kUsage;
  r.reasoning_tokens = reasoning_tokens;
  r.reasoning_source = source;
  return r;
}

TEST(ReasoningMetrics, HandComputedTrace) {
  // A: reasoning at 10, 20, 30 ms, answer at 100, 110 ms. B: reasoning at 50, 70, answer at 200,
  // 230, 260. C: no reasoning, answer at 40, 45.
  std::vector<RequestRecord> records = {
      reasoning_record({10, 20, 30, 100, 110}, 3, 5, 3, TokenSource::kUsage),
      reasoning_record({50, 70, 200, 230, 260}, 2, 5, 2, TokenSource::kChunkCount),
      reasoning_record({40, 45}, 0, 2, -1, TokenSource::kNone),
  };
  MetricsOptions options;
  options.percentiles = {50};
  const RunSummary s = summarize(records, options);

  // TTFT counts reasoning: 10, 50, 40 ms. TTFAT: 100, 200, 40 ms.
  EXPECT_DOUBLE_EQ(s.ttft_ns.mean, (10 + 50 + 40) / 3.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttfat_ns.mean, (100 + 200 + 40) / 3.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttfat_ns.max, 200.0 * kMs);

  const ReasoningSummary& r = s.reasoning;
  ASSERT_TRUE(r.any());
  EXPECT_EQ(r.requests, 2);  // C did not reason
  EXPECT_EQ(r.reasoning_tokens, 5);
  EXPECT_EQ(r.answer_tokens, 2 + 3);
  EXPECT_EQ(r.tokens_from_usage, 1);
  EXPECT_EQ(r.tokens_estimated, 1);
  EXPECT_STREQ(r.source(), "mixed");
  // Reasoning time: 100 - 10 = 90 and 200 - 50 = 150 ms.
  EXPECT_DOUBLE_EQ(r.duration_ns.mean, 120.0 * kMs);
  EXPECT_DOUBLE_EQ(r.duration_ns.min, 90.0 * kMs);
  // ITL in reasoning: 10, 10 (A) and 20 (B); in the answer: 10 (A), 30, 30 (B). The gaps across
  // the switch (70 and 130 ms) belong to neither.
  EXPECT_EQ(r.itl_reasoning_ns.count, 3);
  EXPECT_DOUBLE_EQ(r.itl_reasoning_ns.mean, (10 + 10 + 20) / 3.0 * kMs);
  EXPECT_EQ(r.itl_answer_ns.count, 3);
  EXPECT_DOUBLE_EQ(r.itl_answer_ns.mean, (10 + 30 + 30) / 3.0 * kMs);
  EXPECT_DOUBLE_EQ(r.answer_tokens_per_request.mean, 2.5);
}

TEST(ReasoningMetrics, NoReasoningMeansNoReasoningSummary) {
  const RunSummary s = summarize({reasoning_record({40, 45}, 0, 2, -1, TokenSource::kNone)}, {});
  EXPECT_FALSE(s.reasoning.any());
  EXPECT_DOUBLE_EQ(s.ttfat_ns.mean, s.ttft_ns.mean);
}

TEST(ReasoningMetrics, GoodputBoundOnTtfat) {
  const GoodputSpec spec = parse_goodput({"ttfat:150"});
  ASSERT_TRUE(spec.enabled());
  EXPECT_TRUE(is_good_request(reasoning_record({10, 20, 30, 100, 110}, 3, 5, 3,
                                               TokenSource::kUsage),
                              spec));
  EXPECT_FALSE(is_good_request(reasoning_record({50, 70, 200}, 2, 3, 2, TokenSource::kUsage),
                               spec));
  // A stream that never answered cannot meet a TTFAT bound.
  EXPECT_FALSE(is_good_request(reasoning_record({50, 70}, 2, 2, 2, TokenSource::kUsage), spec));
}

TEST(ItemsThroughput, EmbeddingsInputsPerSecond) {
  std::vector<RequestRecord> records(2);
  for (size_t i = 0; i < records.size(); ++i) {
    RequestRecord& r = records[i];
    r.stream = false;
    r.sent_ns = static_cast<int64_t>(i) * 500 * kMs;
    r.first_byte_ns = r.sent_ns + 400 * kMs;
    r.end_ns = r.sent_ns + 500 * kMs;
    r.items = 8;
    r.input_tokens = 100;
    r.input_source = TokenSource::kUsage;
  }
  const RunSummary s = summarize(records, {});
  EXPECT_TRUE(s.pooling);
  EXPECT_EQ(s.total_items, 16);
  EXPECT_DOUBLE_EQ(s.items_throughput, 16.0);  // 16 inputs in a 1 s window
  EXPECT_DOUBLE_EQ(s.total_throughput, 200.0);
  EXPECT_TRUE(s.ttft_ns.empty());
}

}  // namespace
}  // namespace llmperf

// Tests for requested versus realized lengths: LengthExactness::add on its own, and through
// SummaryBuilder, which fills summary.input_exactness and output_exactness from the successful
// measured records that had targets (warm-up and failed records left out; only a usage count
// verifies a target) and the characters-per-second throughputs. Records are hand-made, with a
// window of exactly 2 s so that every expected number is obvious.
#include "metrics/exactness.h"

#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/metrics.h"

namespace llmperf {
namespace {

constexpr int64_t kS = 1'000'000'000;  // ns per s

TEST(LengthExactness, EmptyHasNothing) {
  const LengthExactness e;
  EXPECT_FALSE(e.any());
  EXPECT_EQ(e.requests, 0);
  EXPECT_EQ(e.mismatched(), 0);
  EXPECT_TRUE(e.differences.empty());
}

TEST(LengthExactness, CountsMatchesAndDifferences) {
  LengthExactness e;
  e.add(100, 100, true);
  e.add(100, 101, true);
  e.add(80, 79, true);
  e.add(120, 121, true);
  e.add(90, 90, true);

  EXPECT_TRUE(e.any());
  EXPECT_EQ(e.requests, 5);
  EXPECT_EQ(e.verified, 5);
  EXPECT_EQ(e.matched, 2);
  EXPECT_EQ(e.mismatched(), 3);
  EXPECT_EQ(e.differences, (std::map<int64_t, int64_t>{{-1, 1}, {+1, 2}}));
  EXPECT_EQ(e.min_target, 80);
  EXPECT_EQ(e.max_target, 120);
  EXPECT_EQ(e.target_sum, 100 + 100 + 80 + 120 + 90);
  EXPECT_EQ(e.realized_sum, 100 + 101 + 79 + 121 + 90);
}

TEST(LengthExactness, UnverifiedCountsOnlyTowardRequestsAndTargetRange) {
  LengthExactness e;
  e.add(50, 50, true);
  e.add(10, 999, false);  // an estimate: neither a match nor a difference
  e.add(70, 3, false);

  EXPECT_EQ(e.requests, 3);
  EXPECT_EQ(e.verified, 1);
  EXPECT_EQ(e.matched, 1);
  EXPECT_EQ(e.mismatched(), 0);
  EXPECT_TRUE(e.differences.empty());
  EXPECT_EQ(e.min_target, 10);
  EXPECT_EQ(e.max_target, 70);
  EXPECT_EQ(e.target_sum, 50);
  EXPECT_EQ(e.realized_sum, 50);
}

TEST(LengthExactness, FirstAddSetsTheRangeEvenWhenUnverified) {
  LengthExactness e;
  e.add(300, 0, false);
  EXPECT_EQ(e.min_target, 300);
  EXPECT_EQ(e.max_target, 300);
  e.add(400, 400, true);
  EXPECT_EQ(e.min_target, 300);
  EXPECT_EQ(e.max_target, 400);
}

// A successful non-stream record sent at `sent_s`, ended at `end_s`, with usage counts.
RequestRecord record(int64_t sent_s, int64_t end_s, int64_t input_tokens, int64_t output_tokens) {
  RequestRecord r;
  r.stream = false;
  r.planned_ns = sent_s * kS;
  r.sent_ns = sent_s * kS;
  r.first_byte_ns = end_s * kS;
  r.end_ns = end_s * kS;
  r.input_tokens = input_tokens;
  r.output_tokens = output_tokens;
  r.input_source = TokenSource::kUsage;
  r.output_source = TokenSource::kUsage;
  return r;
}

RequestRecord with_targets(RequestRecord r, int64_t input_target, int64_t output_target) {
  r.target_input_tokens = input_target;
  r.target_output_tokens = output_target;
  return r;
}

RunSummary summarize_all(const std::vector<RequestRecord>& records, bool output_forced = false) {
  MetricsOptions options;
  options.output_forced = output_forced;
  SummaryBuilder builder(options);
  for (const RequestRecord& r : records) builder.add(r);
  return builder.finish();
}

TEST(LengthMisses, ShareOfCheckedRequests) {
  LengthMisses m;
  EXPECT_FALSE(m.share().has_value());
  m.add(false, true, true);  // not checked: a miss cannot count
  EXPECT_FALSE(m.share().has_value());
  m.add(true, false, false);
  m.add(true, true, true);  // one request missing both is one miss
  m.add(true, false, true);
  m.add(true, false, false);
  EXPECT_EQ(m.checked, 4);
  EXPECT_EQ(m.missed, 2);
  EXPECT_EQ(m.input_missed, 1);
  EXPECT_EQ(m.output_missed, 2);
  EXPECT_DOUBLE_EQ(*m.share(), 0.5);
}

TEST(SummaryLengthMisses, InputAlwaysOutputOnlyWhenForced) {
  const std::vector<RequestRecord> records = {
      with_targets(record(0, 1, 600, 32), 600, 32),  // exact
      with_targets(record(0, 1, 344, 32), 600, 32),  // prompt cut by the server: a miss
      with_targets(record(0, 2, 600, 20), 600, 32),  // output stopped at EOS: a miss if forced
      with_targets(record(0, 2, 10, 10), -1, -1),    // no target: not checked
  };
  const RunSummary natural = summarize_all(records);
  EXPECT_EQ(natural.length_misses.checked, 3);
  EXPECT_EQ(natural.length_misses.missed, 1);
  EXPECT_EQ(natural.length_misses.input_missed, 1);
  EXPECT_EQ(natural.length_misses.output_missed, 0);
  const RunSummary forced = summarize_all(records, true);
  EXPECT_EQ(forced.length_misses.checked, 3);
  EXPECT_EQ(forced.length_misses.missed, 2);
  EXPECT_EQ(forced.length_misses.output_missed, 1);

  // Output targets alone are checked only when forced; estimates never are.
  RequestRecord output_only = with_targets(record(0, 1, 10, 5), -1, 32);
  EXPECT_EQ(summarize_all({output_only}).length_misses.checked, 0);
  EXPECT_EQ(summarize_all({output_only}, true).length_misses.missed, 1);
  RequestRecord estimated = with_targets(record(0, 1, 500, 5), 600, 32);
  estimated.input_source = TokenSource::kCharCount;
  estimated.output_source = TokenSource::kChunkCount;
  EXPECT_EQ(summarize_all({estimated}, true).length_misses.checked, 0);
}

TEST(SummaryExactness, SuccessfulRecordsWithTargetsFillBothSides) {
  std::vector<RequestRecord> records = {
      with_targets(record(0, 1, 1000, 256), 1000, 256),  // both exact
      with_targets(record(0, 2, 1001, 256), 1000, 256),  // input +1
      with_targets(record(1, 2, 999, 200), 1000, 256),   // input -1, output -56 (stopped early)
  };
  const RunSummary s = summarize_all(records);

  EXPECT_EQ(s.input_exactness.requests, 3);
  EXPECT_EQ(s.input_exactness.verified, 3);
  EXPECT_EQ(s.input_exactness.matched, 1);
  EXPECT_EQ(s.input_exactness.differences, (std::map<int64_t, int64_t>{{-1, 1}, {+1, 1}}));
  EXPECT_EQ(s.output_exactness.requests, 3);
  EXPECT_EQ(s.output_exactness.matched, 2);
  EXPECT_EQ(s.output_exactness.differences, (std::map<int64_t, int64_t>{{-56, 1}}));
  EXPECT_EQ(s.output_exactness.target_sum, 768);
  EXPECT_EQ(s.output_exactness.realized_sum, 712);
}

TEST(SummaryExactness, OnlyUsageCountsVerify) {
  RequestRecord estimated = with_targets(record(0, 2, 0, 40), 500, 64);
  estimated.input_source = TokenSource::kNone;
  estimated.output_source = TokenSource::kChunkCount;
  RequestRecord chars = with_targets(record(0, 2, 500, 50), 500, 64);
  chars.output_source = TokenSource::kCharCount;
  const RunSummary s = summarize_all({estimated, chars});

  EXPECT_EQ(s.input_exactness.requests, 2);
  EXPECT_EQ(s.input_exactness.verified, 1);  // chars' input came from usage
  EXPECT_EQ(s.input_exactness.matched, 1);
  EXPECT_EQ(s.output_exactness.requests, 2);
  EXPECT_EQ(s.output_exactness.verified, 0);
  EXPECT_EQ(s.output_exactness.matched, 0);
  EXPECT_TRUE(s.output_exactness.differences.empty());
}

TEST(SummaryExactness, WarmupFailedAndUntargetedRecordsAreLeftOut) {
  RequestRecord warm = with_targets(record(0, 1, 10, 10), 11, 11);
  warm.warmup = true;
  RequestRecord failed = with_targets(record(0, 2, 10, 3), 11, 11);
  failed.error = ErrorKind::kHttp;
  failed.http_status = 500;
  const RequestRecord untargeted = record(0, 2, 10, 10);  // a dataset of text: targets -1
  RequestRecord input_only = with_targets(record(0, 2, 12, 10), 12, -1);
  const RunSummary s = summarize_all({warm, failed, untargeted, input_only});

  EXPECT_EQ(s.warmup, 1);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.input_exactness.requests, 1);
  EXPECT_EQ(s.input_exactness.matched, 1);
  EXPECT_EQ(s.input_exactness.min_target, 12);
  EXPECT_FALSE(s.output_exactness.any());

  EXPECT_FALSE(summarize_all({warm, failed, untargeted}).input_exactness.any());
}

TEST(SummaryExactness, ZeroTargetIsATarget) {
  // Target 0 (an empty prompt asked for) is >= 0: it counts.
  const RunSummary s = summarize_all({with_targets(record(0, 1, 0, 0), 0, 0)});
  EXPECT_EQ(s.input_exactness.requests, 1);
  EXPECT_EQ(s.input_exactness.matched, 1);
  EXPECT_EQ(s.output_exactness.matched, 1);
}

TEST(SummaryChars, CharsPerSecondOverTheWindow) {
  // Window: first send 0 s to last end 2 s. Successful chars: in 300 + 500, out 1000 + 3000.
  RequestRecord a = record(0, 1, 10, 10);
  a.input_chars = 300;
  a.output_chars = 1000;
  RequestRecord b = record(1, 2, 10, 10);
  b.input_chars = 500;
  b.output_chars = 3000;
  RequestRecord failed = record(0, 2, 0, 0);
  failed.error = ErrorKind::kTimeoutRead;
  failed.input_chars = 7000;  // failed: its characters are not throughput
  failed.output_chars = 9000;
  RequestRecord warm = record(0, 9, 0, 0);  // warm-up: outside the window and the totals
  warm.warmup = true;
  warm.input_chars = 100000;
  const RunSummary s = summarize_all({a, b, failed, warm});

  EXPECT_EQ(s.window_ns, 2 * kS);
  EXPECT_EQ(s.total_input_chars, 800);
  EXPECT_EQ(s.total_output_chars, 4000);
  EXPECT_DOUBLE_EQ(s.input_chars_throughput, 400.0);    // 800 / 2 s
  EXPECT_DOUBLE_EQ(s.output_chars_throughput, 2000.0);  // 4000 / 2 s
}

TEST(SummaryChars, NoWindowNoThroughput) {
  RequestRecord r = record(1, 1, 10, 10);  // ends when sent: a zero window
  r.input_chars = 50;
  const RunSummary s = summarize_all({r});
  EXPECT_EQ(s.total_input_chars, 50);
  EXPECT_EQ(s.input_chars_throughput, 0.0);
}

}  // namespace
}  // namespace llmperf

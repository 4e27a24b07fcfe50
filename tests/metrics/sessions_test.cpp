// Conversation statistics from hand-made records: turns, failures that end a conversation,
// conversations cut short, durations and cached shares.
#include "metrics/sessions.h"
#include "test_units.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

// Turn `turn` of conversation `session` (of `planned` turns), sent at `sent_ms`, first token
// `ttft_ms` later, ended at `end_ms`.
RequestRecord turn(int64_t session, int32_t turn, int32_t planned, int64_t sent_ms, int64_t ttft_ms,
                   int64_t end_ms, int64_t input, int64_t cached = -1, bool ok = true) {
  RequestRecord r;
  r.session_id = session;
  r.turn = turn;
  r.session_turns = planned;
  r.sent_ns = sent_ms * kMs;
  r.first_content_ns = (sent_ms + ttft_ms) * kMs;
  r.end_ns = end_ms * kMs;
  r.input_tokens = input;
  r.input_source = TokenSource::kUsage;
  r.cached_tokens = cached;
  if (!ok) {
    r.error = ErrorKind::kHttp;
    r.http_status = 500;
  }
  return r;
}

TEST(SessionTally, CountsTurnsConversationsAndTheirOutcomes) {
  SessionTally tally;
  // Conversation 0: three turns, all fine. Records arrive in completion order, interleaved.
  tally.add(turn(0, 0, 3, 0, 100, 200, 100, 0));
  tally.add(turn(1, 0, 3, 10, 120, 210, 100));
  tally.add(turn(0, 1, 3, 300, 20, 400, 250, 200));
  tally.add(turn(1, 1, 3, 310, 30, 420, 250, 0, /*ok=*/false));  // ends conversation 1
  tally.add(turn(0, 2, 3, 500, 30, 700, 400, 300));
  // Conversation 2: one of two turns sent before the run stopped.
  tally.add(turn(2, 0, 2, 50, 80, 150, 100));
  const SessionSummary s = tally.finish({50, 99});

  EXPECT_EQ(s.conversations, 3);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.cut, 1);
  EXPECT_EQ(s.turns_planned, 8);
  EXPECT_DOUBLE_EQ(s.turns_done.mean, (3.0 + 1 + 1) / 3);
  ASSERT_EQ(s.duration_ns.count, 1u);  // completed conversations only
  EXPECT_DOUBLE_EQ(s.duration_ns.mean, 700.0 * kMs);

  ASSERT_EQ(s.turns.size(), 3u);
  EXPECT_EQ(s.turns[0].requests, 3);
  EXPECT_EQ(s.turns[0].failed, 0);
  EXPECT_DOUBLE_EQ(s.turns[0].ttft_ns.mean, (100.0 + 120 + 80) / 3 * kMs);
  EXPECT_EQ(s.turns[1].requests, 2);
  EXPECT_EQ(s.turns[1].failed, 1);
  EXPECT_EQ(s.turns[1].ttft_ns.count, 1u);  // successful turns only
  EXPECT_DOUBLE_EQ(s.turns[1].input_tokens.mean, 250);
  // Cached share over the turns that reported it: turn 0 only conversation 0 did (0 of 100).
  EXPECT_EQ(s.turns[0].cached_reported, 1);
  EXPECT_DOUBLE_EQ(s.turns[0].cached_share(), 0.0);
  EXPECT_DOUBLE_EQ(s.turns[1].cached_share(), 200.0 / 250);
  EXPECT_DOUBLE_EQ(s.turns[2].cached_share(), 300.0 / 400);
}

TEST(SessionTally, NoReportedCacheIsNotAZeroShare) {
  SessionTally tally;
  tally.add(turn(0, 0, 1, 0, 10, 20, 100));
  const SessionSummary s = tally.finish({50});
  ASSERT_EQ(s.turns.size(), 1u);
  EXPECT_EQ(s.turns[0].cached_reported, 0);
  EXPECT_LT(s.turns[0].cached_share(), 0);
}

TEST(SessionTally, IgnoresRecordsOutsideConversations) {
  SessionTally tally;
  tally.add(RequestRecord{});
  EXPECT_TRUE(tally.finish({50}).empty());
}

}  // namespace
}  // namespace llmperf

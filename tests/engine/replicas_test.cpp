// ReplicaChooser: round-robin by ordinal, least-inflight by the counts (ties in round-robin
// order), the in-flight counts kept by acquire/release; and the --cancel-rate choice.
#include <gtest/gtest.h>

#include "engine/cancellation.h"
#include "engine/replicas.h"

namespace llmperf {
namespace {

TEST(ReplicaChooser, RoundRobinFollowsTheOrdinal) {
  ReplicaChooser chooser({"http://a/v1/chat/completions", "http://b/v1/chat/completions",
                          "http://c/v1/chat/completions"},
                         false);
  for (uint64_t i = 0; i < 7; ++i) EXPECT_EQ(chooser.acquire(i), static_cast<int32_t>(i % 3));
  EXPECT_EQ(chooser.in_flight(0), 3);
  EXPECT_EQ(chooser.in_flight(1), 2);
  chooser.release(0);
  EXPECT_EQ(chooser.in_flight(0), 2);
  EXPECT_EQ(chooser.url(2), "http://c/v1/chat/completions");
}

TEST(ReplicaChooser, LeastInflightPicksTheLeastLoadedTiesInRoundRobinOrder) {
  ReplicaChooser chooser({"http://a/x", "http://b/x", "http://c/x"}, true);
  // All idle: ties, broken from ordinal mod 3.
  EXPECT_EQ(chooser.acquire(1), 1);
  EXPECT_EQ(chooser.acquire(1), 2);  // 1 is busy now: the next in order
  EXPECT_EQ(chooser.acquire(1), 0);
  // One each: ties again, from ordinal 2.
  EXPECT_EQ(chooser.acquire(2), 2);
  // c has 2, a and b 1: a (from ordinal 2, in order c, a, b).
  EXPECT_EQ(chooser.acquire(2), 0);
  // A replica that finishes its requests takes the next ones.
  chooser.release(1);
  EXPECT_EQ(chooser.in_flight(1), 0);
  EXPECT_EQ(chooser.acquire(0), 1);
  EXPECT_EQ(chooser.acquire(0), 1);
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

// --cancel-rate's choice: about the fraction asked for, the same for the same seed, another set
// for another seed; none at 0 and all at 1.
TEST(CancelChoice, ChoosesTheFractionReproduciblyFromTheSeed) {
  int chosen = 0;
  int same = 0;
  int other = 0;
  for (uint64_t id = 0; id < 10'000; ++id) {
    const bool a = chosen_for_cancel(7, id, 0.25);
    chosen += a ? 1 : 0;
    same += a == chosen_for_cancel(7, id, 0.25) ? 1 : 0;
    other += a != chosen_for_cancel(8, id, 0.25) ? 1 : 0;
    EXPECT_FALSE(chosen_for_cancel(7, id, 0));
    EXPECT_TRUE(chosen_for_cancel(7, id, 1));
  }
  EXPECT_NEAR(chosen, 2500, 150);
  EXPECT_EQ(same, 10'000);
  EXPECT_GT(other, 2000);  // another seed, other requests
}

}  // namespace
}  // namespace llmperf

// ReplicaChooser: round-robin by ordinal, least-inflight by the counts (ties in round-robin
// order), and the in-flight counts kept by acquire/release.
#include <gtest/gtest.h>

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

// Tests for the context check before a run (issue 23): the longest planned request against the
// server's context length, both numbers named in the message.
#include "workload/context_fit.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

const ContextLength kSlot{512, "/props n_ctx per slot"};

TEST(ContextOverflow, LongerThanTheContextNamesEveryNumber) {
  const PlannedLength longest{600, 32, "600 input tokens, max_tokens 32"};
  const std::optional<std::string> why = context_overflow(longest, kSlot);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why,
            "the longest request (600 input tokens, max_tokens 32) needs 600 input + 32 output = "
            "632 tokens, more than the server's context of 512 tokens (/props n_ctx per slot): "
            "the server would cut its prompt or reject it");
}

TEST(ContextOverflow, ExactlyTheContextFits) {
  EXPECT_FALSE(context_overflow({480, 32, "a"}, kSlot).has_value());
  EXPECT_TRUE(context_overflow({481, 32, "a"}, kSlot).has_value());
  EXPECT_TRUE(context_overflow({0, 513, "a"}, kSlot).has_value());  // output alone can overflow
}

TEST(ContextOverflow, UnknownContextChecksNothing) {
  EXPECT_FALSE(context_overflow({1'000'000, 1'000'000, "a"}, ContextLength{}).has_value());
}

TEST(Longer, ByTotalAndTheFirstOnATie) {
  const PlannedLength a{100, 20, "a"};
  const PlannedLength b{20, 100, "b"};
  const PlannedLength c{10, 200, "c"};
  EXPECT_EQ(longer(a, b).what, "a");
  EXPECT_EQ(longer(a, c).what, "c");
  EXPECT_EQ(longer(c, a).what, "c");
  EXPECT_EQ(longer(PlannedLength{}, a).what, "a");
}

}  // namespace
}  // namespace llmperf

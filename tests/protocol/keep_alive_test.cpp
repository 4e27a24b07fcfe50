// The Keep-Alive response header's timeout (protocol/keep_alive.cpp).
#include "protocol/keep_alive.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

TEST(KeepAliveTimeout, ReadsCppHttplibsHeader) {
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=5, max=100"), 5);
  EXPECT_EQ(parse_keep_alive_timeout_s(" timeout=5, max=100"), 5);  // as curl hands it over
  EXPECT_EQ(parse_keep_alive_timeout_s("max=100, timeout=5"), 5);
}

TEST(KeepAliveTimeout, ToleratesCaseBlanksAndQuotes) {
  EXPECT_EQ(parse_keep_alive_timeout_s("Timeout = 30 ,max=2"), 30);
  EXPECT_EQ(parse_keep_alive_timeout_s("TIMEOUT=\"7\""), 7);
  EXPECT_EQ(parse_keep_alive_timeout_s("\ttimeout=0"), 0);
}

TEST(KeepAliveTimeout, NoTimeoutOrABadOneIsNone) {
  EXPECT_EQ(parse_keep_alive_timeout_s(""), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("max=100"), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout"), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout="), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=-5"), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=5.5"), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=5s"), std::nullopt);
  EXPECT_EQ(parse_keep_alive_timeout_s("keep-timeout=5"), std::nullopt);
}

TEST(KeepAliveTimeout, HugeValuesAreClamped) {
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=99999999999999999999999"), kKeepAliveTimeoutMaxS);
  EXPECT_EQ(parse_keep_alive_timeout_s("timeout=86401"), kKeepAliveTimeoutMaxS);
}

}  // namespace
}  // namespace llmperf

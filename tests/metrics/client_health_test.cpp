// Client health: each threshold flags client_bound with a readable warning, and a healthy run
// is not flagged, nor a run whose sends waited for a free slot (the in-flight cap).
#include <gtest/gtest.h>

#include "metrics/client_health.h"

namespace llmperf {
namespace {

const std::vector<double> kPercentiles = {50, 99};

PooledSamples pool_of(const std::vector<int64_t>& values) {
  PooledSamples pool;
  for (int64_t v : values) pool.add(v);
  return pool;
}

TEST(ClientHealth, HealthyRunIsNotClientBound) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(std::vector<int64_t>(100, 20'000));  // 20 us per turn
  in.cpu_s = 1.0;
  in.wall_s = 4.0;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.measured);
  EXPECT_FALSE(h.client_bound);
  EXPECT_DOUBLE_EQ(h.cpu_utilization, 0.25);
  EXPECT_EQ(h.stamp_delay_ns.count, 100u);
}

TEST(ClientHealth, SlowStampingIsFlagged) {
  ClientHealthInput in;
  std::vector<int64_t> delays(100, 20'000);
  delays[99] = delays[98] = 5'000'000;  // p99 of 100 samples interpolates
  in.stamp_delay_ns = pool_of(delays);
  in.wall_s = 1;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.client_bound);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_NE(h.warnings[0].find("time-stamped"), std::string::npos);
}

TEST(ClientHealth, ClientLatenessAndCpuAreFlagged) {
  Distribution lag;
  lag.count = 10;
  lag.max = 3e6;
  lag.percentiles = {1e5, 2e6};  // p99 = 2 ms > 1 ms
  ClientHealthInput in;
  in.cpu_s = 1.9;
  in.wall_s = 1.0;
  in.threads = 2;  // 95% of two cores
  in.client_lag_ns = &lag;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.client_bound);
  EXPECT_EQ(h.warnings.size(), 2u);
  EXPECT_NEAR(h.cpu_utilization, 0.95, 1e-12);
  EXPECT_NE(h.warnings[0].find("with a slot free for them"), std::string::npos) << h.warnings[0];
}

// Sends that waited for a free slot are not the client's lateness: with none of its own, an open
// loop whose cap was reached is not client-bound (the summary reports the cap instead).
TEST(ClientHealth, WaitingForAFreeSlotIsNotClientBound) {
  Distribution own_lag;
  own_lag.count = 10;
  own_lag.max = 0.2e6;
  own_lag.percentiles = {0.05e6, 0.15e6};  // p99 0.15 ms: on time once a slot was free
  ClientHealthInput in;
  in.cpu_s = 0.03;
  in.wall_s = 1.0;
  in.client_lag_ns = &own_lag;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_FALSE(h.client_bound);
  EXPECT_TRUE(h.warnings.empty());
}

}  // namespace
}  // namespace llmperf

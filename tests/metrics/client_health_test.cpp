// Client health: a lateness is judged against what the run measured, and blamed on llmperf only
// when llmperf was busy (client_bound, with advice that helps); a material lateness while it used
// little CPU is the machine's (machine_busy, with the kernel's figures). A healthy run is not
// flagged, nor a run whose sends waited for a free slot (the in-flight cap).
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

// A distribution with the given p50 and p99 (ns).
Distribution spread(double p50, double p99) {
  Distribution d;
  d.count = 100;
  d.mean = p50;
  d.max = p99;
  d.percentiles = {p50, p99};
  return d;
}

// A machine whose other processes kept its two cores busy.
MachineLoad busy_machine() {
  MachineLoad m;
  m.measured = true;
  m.cores = 2;
  m.others_cpu_s = 7.2;  // over 4 s: 1.8 cores
  m.involuntary_switches = 2345;
  m.run_queue_wait_s = 0.41;
  return m;
}

TEST(ClientHealth, HealthyRunIsNotClientBound) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(std::vector<int64_t>(100, 20'000));  // 20 us per turn
  in.cpu_s = 1.0;
  in.wall_s = 4.0;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.measured);
  EXPECT_FALSE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  EXPECT_DOUBLE_EQ(h.cpu_utilization, 0.25);
  EXPECT_EQ(h.stamp_delay_ns.count, 100u);
  EXPECT_DOUBLE_EQ(h.stamp_delay.limit_ns, 1e6);  // nothing measured to weigh it against
}

std::vector<int64_t> slow_stamps() {
  std::vector<int64_t> delays(100, 20'000);
  delays[99] = delays[98] = 5'000'000;  // p99 of 100 samples interpolates
  return delays;
}

TEST(ClientHealth, SlowStampingByABusyClientIsClientBound) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(slow_stamps());
  in.cpu_s = 0.7;
  in.wall_s = 1;
  in.usable_cores = 4;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_NE(h.warnings[0].find("time-stamped (limit 1 ms), and llmperf used 70% of its 1 worker "
                               "core: the client fell behind; try --threads 2"),
            std::string::npos)
      << h.warnings[0];
}

// The case against llmperf-mock: 3.19 ms at p99 while llmperf used 11% of its core.
TEST(ClientHealth, SlowStampingWhileTheClientIdledIsTheMachines) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(slow_stamps());
  in.cpu_s = 0.44;
  in.wall_s = 4;
  in.machine = busy_machine();
  const Distribution itl = spread(10e6, 30e6);
  in.measured.itl_ns = &itl;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_FALSE(h.client_bound);
  EXPECT_TRUE(h.warnings.empty());
  EXPECT_TRUE(h.machine_busy);
  ASSERT_EQ(h.machine_warnings.size(), 1u);
  const std::string& w = h.machine_warnings[0];
  EXPECT_NE(w.find("ready events waited"), std::string::npos) << w;
  EXPECT_NE(w.find("while llmperf used 11% of its 1 worker core"), std::string::npos) << w;
  EXPECT_NE(w.find("other processes used 1.80 of the machine's 2 cores"), std::string::npos) << w;
  EXPECT_NE(w.find("the worker thread waited 0.41 s for a CPU, preempted 2345 times"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("--threads would not help"), std::string::npos) << w;
  EXPECT_EQ(h.machine.involuntary_switches, 2345);
}

// `tune --slots`: three other trials' benchmarks ran in this process meanwhile. The kernel counts
// their CPU as this process's; the judgement still reads this run's own worker threads (idle: the
// machine's doing) and names the other slots' load beside the other processes'.
TEST(ClientHealth, TheOtherSlotsBenchmarksAreNamedAsTheMachinesLoad) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(slow_stamps());
  in.cpu_s = 0.44;
  in.wall_s = 4;
  in.machine = busy_machine();
  in.machine.others_cpu_s = 2.0;         // 0.5 cores: the servers and the rest of the machine
  in.machine.side_by_side_runs = 3;
  in.machine.side_by_side_cpu_s = 5.2;   // 1.3 cores: the other slots' benchmarks
  const Distribution itl = spread(10e6, 30e6);
  in.measured.itl_ns = &itl;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_FALSE(h.client_bound);
  EXPECT_TRUE(h.machine_busy);
  ASSERT_EQ(h.machine_warnings.size(), 1u);
  const std::string& w = h.machine_warnings[0];
  EXPECT_NE(w.find("while llmperf used 11% of its 1 worker core"), std::string::npos) << w;
  EXPECT_NE(w.find("other processes used 0.50 and llmperf's 3 other benchmarks run side by side "
                   "(the study's other slots) 1.30 of the machine's 2 cores"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("or fewer --slots)"), std::string::npos) << w;

  // Alone in the process: as before, no word of slots.
  in.machine.side_by_side_runs = 0;
  in.machine.side_by_side_cpu_s = 0;
  const std::string alone = assess_client_health(in, kPercentiles).machine_warnings.at(0);
  EXPECT_NE(alone.find("other processes used 0.50 of the machine's 2 cores"), std::string::npos)
      << alone;
  EXPECT_EQ(alone.find("slots"), std::string::npos) << alone;
}

// The case against llama.cpp's server: 1.46 ms of the client's own lateness beside 50 ms
// between sends and a TTFT of seconds, at 3% of a core, on a busy machine: nothing to warn about.
TEST(ClientHealth, LatenessIsWeighedAgainstTheGapBetweenSendsAndTheTtft) {
  const Distribution lag = spread(0.2e6, 1.46e6);
  const Distribution ttft = spread(1.9e9, 4e9);
  ClientHealthInput in;
  in.cpu_s = 0.18;
  in.wall_s = 6;
  in.client_lag_ns = &lag;
  in.measured.arrival_gap_ns = 50e6;  // 20 req/s
  in.measured.ttft_ns = &ttft;
  in.machine = busy_machine();
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_FALSE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  EXPECT_TRUE(h.warnings.empty());
  EXPECT_TRUE(h.machine_warnings.empty());
  EXPECT_DOUBLE_EQ(h.client_lag.p99_ns, 1.46e6);
  EXPECT_DOUBLE_EQ(h.client_lag.limit_ns, 12.5e6);  // a quarter of the 50 ms gap
  EXPECT_EQ(h.client_lag.scale, "25% of the 50.0 ms between planned sends");

  // This machine's figure (7.45 ms) is not either; the same lateness is material beside a TTFT of
  // 5 ms: the machine's, at this CPU use.
  const Distribution busier_lag = spread(0.05e6, 7.45e6);
  in.client_lag_ns = &busier_lag;
  EXPECT_FALSE(assess_client_health(in, kPercentiles).machine_busy);
  in.client_lag_ns = &lag;
  const Distribution fast_ttft = spread(5e6, 8e6);
  in.measured.ttft_ns = &fast_ttft;
  const ClientHealth fast = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(fast.machine_busy);
  EXPECT_DOUBLE_EQ(fast.client_lag.limit_ns, 1e6);  // the floor: 10% of 5 ms is less
  ASSERT_EQ(fast.machine_warnings.size(), 1u);
  EXPECT_NE(fast.machine_warnings[0].find("requests left 1.46 ms (p99) after their planned send "
                                          "time with a slot free for them (limit 1 ms)"),
            std::string::npos)
      << fast.machine_warnings[0];
}

TEST(ClientHealth, StampDelayIsWeighedAgainstTheShortestStampedInterval) {
  ClientHealthInput in;
  in.stamp_delay_ns = pool_of(slow_stamps());  // p99 about 5 ms
  in.cpu_s = 0.8;
  in.wall_s = 1;
  const Distribution ttft = spread(200e6, 400e6);
  const Distribution itl = spread(60e6, 90e6);
  in.measured.ttft_ns = &ttft;
  in.measured.itl_ns = &itl;
  const ClientHealth slow_tokens = assess_client_health(in, kPercentiles);
  EXPECT_DOUBLE_EQ(slow_tokens.stamp_delay.limit_ns, 6e6);  // a tenth of the 60 ms ITL
  EXPECT_FALSE(slow_tokens.client_bound);
  const Distribution fast_itl = spread(20e6, 30e6);
  in.measured.itl_ns = &fast_itl;
  const ClientHealth fast_tokens = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(fast_tokens.client_bound);
  ASSERT_EQ(fast_tokens.warnings.size(), 1u);
  EXPECT_NE(fast_tokens.warnings[0].find("(limit 2.00 ms, 10% of the ITL p50 of 20.0 ms)"),
            std::string::npos)
      << fast_tokens.warnings[0];
  // Without streams, the latency is what stamps measure.
  const Distribution latency = spread(80e6, 90e6);
  in.measured = {};
  in.measured.latency_ns = &latency;
  EXPECT_DOUBLE_EQ(assess_client_health(in, kPercentiles).stamp_delay.limit_ns, 8e6);
}

// The earlier test's shape: sends planned 5 us apart that the client cannot make, by its own work.
TEST(ClientHealth, ClientLatenessAndCpuAreFlagged) {
  const Distribution lag = spread(1e5, 2e6);  // p99 = 2 ms > 1 ms
  const Distribution ttft = spread(3e6, 5e6);
  ClientHealthInput in;
  in.cpu_s = 1.9;
  in.wall_s = 1.0;
  in.threads = 2;  // 95% of two cores
  in.usable_cores = 2;
  in.client_lag_ns = &lag;
  in.measured.arrival_gap_ns = 5e3;  // 200000 req/s
  in.measured.ttft_ns = &ttft;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_TRUE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  EXPECT_EQ(h.warnings.size(), 2u);
  EXPECT_NEAR(h.cpu_utilization, 0.95, 1e-12);
  EXPECT_NE(h.warnings[0].find("with a slot free for them"), std::string::npos) << h.warnings[0];
  // Every usable core has a worker already: --threads would not help.
  EXPECT_NE(h.warnings[1].find("each of the 2 usable cores already has a worker: use a client "
                               "machine with more cores"),
            std::string::npos)
      << h.warnings[1];
  EXPECT_EQ(h.warnings[1].find("--threads"), std::string::npos) << h.warnings[1];
}

// The earlier test's shape on a busy machine: 800 sends planned within 4 ms on one worker thread,
// which got only 38% of a core but never slept. Its lateness is its own work: client-bound.
TEST(ClientHealth, AClientThatNeverSleptIsClientBoundOnABusyMachine) {
  const Distribution lag = spread(150e6, 356e6);
  ClientHealthInput in;
  in.cpu_s = 0.2;
  in.wall_s = 0.52;
  in.usable_cores = 2;
  in.client_lag_ns = &lag;
  in.measured.arrival_gap_ns = 5e3;
  in.machine = busy_machine();
  in.machine.others_cpu_s = 0.9;
  in.machine.involuntary_switches = 647;
  in.machine.run_queue_wait_s = 0.3;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_NEAR(h.cpu_utilization, 0.2 / 0.52, 1e-12);
  EXPECT_NEAR(h.busy_share, 0.2 / 0.22, 1e-12);
  EXPECT_TRUE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  ASSERT_EQ(h.warnings.size(), 1u);
  // The machine's load is named too: the worker waited for a CPU for over a tenth of the run.
  EXPECT_NE(h.warnings[0].find(
                "and llmperf used 38% of its 1 worker core (busy 91% of the time it "
                "was not waiting for a CPU) (the machine was busy too: other processes "
                "used 1.73 of the machine's 2 cores, and the worker thread waited 0.30 s "
                "for a CPU, preempted 647 times): the client fell behind; try --threads 2"),
            std::string::npos)
      << h.warnings[0];
}

// Sends that waited for a free slot are not the client's lateness: with none of its own, an open
// loop whose cap was reached is not client-bound (the summary reports the cap instead).
TEST(ClientHealth, WaitingForAFreeSlotIsNotClientBound) {
  const Distribution own_lag = spread(0.05e6, 0.15e6);  // p99 0.15 ms: on time once a slot was free
  ClientHealthInput in;
  in.cpu_s = 0.03;
  in.wall_s = 1.0;
  in.client_lag_ns = &own_lag;
  const ClientHealth h = assess_client_health(in, kPercentiles);
  EXPECT_FALSE(h.client_bound);
  EXPECT_FALSE(h.machine_busy);
  EXPECT_TRUE(h.warnings.empty());
}

}  // namespace
}  // namespace llmperf

// The kernel's CPU accounting: /proc/stat's text parsed, and the machine's load between two
// snapshots, which never goes negative for the coarse ticks of a short run.
#include "engine/cpu_readings.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

constexpr const char* kProcStat =
    "cpu  4904 21333 8947 19564 336 10 130 25 7 0\n"
    "cpu0 1796 10816 4034 10917 17 5 44 12 3 0\n"
    "cpu1 3108 10517 4913 8647 318 5 86 13 4 0\n"
    "intr 255287 0 0 0\n"
    "ctxt 1234\n";

TEST(CpuReadings, ProcStatGivesBusyStealAndCores) {
  const MachineCpuTime cpu = parse_proc_stat(kProcStat, 100);
  ASSERT_TRUE(cpu.read);
  EXPECT_EQ(cpu.cores, 2);
  // user + nice + system + irq + softirq, at 100 ticks a second; idle and iowait are not busy.
  EXPECT_DOUBLE_EQ(cpu.busy_s, (4904 + 21333 + 8947 + 10 + 130) / 100.0);
  EXPECT_DOUBLE_EQ(cpu.steal_s, 0.25);
}

TEST(CpuReadings, UnreadableProcStatIsUnknown) {
  EXPECT_FALSE(parse_proc_stat("", 100).read);
  EXPECT_FALSE(parse_proc_stat("cpu  1 2\ncpu0 1 2\n", 100).read);    // too few fields
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 3 4 5 6 7 8\n", 100).read);  // no cpuN line
}

TEST(CpuReadings, OthersAreTheMachineLessThisProcess) {
  CpuSnapshot start;
  start.machine = {true, 2, 100.0, 1.0};
  start.process_cpu_s = 5.0;
  CpuSnapshot end = start;
  end.machine.busy_s = 103.5;  // 3.5 s of CPU on the machine ...
  end.machine.steal_s = 1.2;
  end.process_cpu_s = 5.5;  // ... 0.5 s of it this process's
  const MachineLoad load = machine_load_between(start, end, {40, 300'000'000});
  EXPECT_TRUE(load.measured);
  EXPECT_EQ(load.cores, 2);
  EXPECT_DOUBLE_EQ(load.others_cpu_s, 3.0);
  EXPECT_NEAR(load.steal_s, 0.2, 1e-12);
  EXPECT_EQ(load.involuntary_switches, 40);
  EXPECT_DOUBLE_EQ(load.run_queue_wait_s, 0.3);

  // Ticks of 10 ms can make this process's CPU time look larger than the machine's.
  end.machine.busy_s = 100.01;
  EXPECT_EQ(machine_load_between(start, end, {}).others_cpu_s, 0.0);
  // Without /proc/stat only the threads' figures are known; an unknown wait stays unknown.
  start.machine.read = false;
  const MachineLoad unknown = machine_load_between(start, end, {3, -1});
  EXPECT_FALSE(unknown.measured);
  EXPECT_EQ(unknown.involuntary_switches, 3);
  EXPECT_LT(unknown.run_queue_wait_s, 0);
}

// tune --slots: other benchmarks ran in this process; what it used beyond this run's own threads
// is theirs, and other processes' time stays the machine's less the whole process's.
TEST(CpuReadings, RunsSideBySideInThisProcessAreCountedApart) {
  CpuSnapshot start;
  start.machine = {true, 2, 100.0, 0.0};
  start.process_cpu_s = 5.0;
  CpuSnapshot end = start;
  end.machine.busy_s = 107.0;  // 7 s of CPU on the machine ...
  end.process_cpu_s = 10.0;    // ... 5 s of it this process's, 1.5 s of which this run's
  const MachineLoad load = machine_load_between(start, end, {}, {3, 1.5});
  EXPECT_DOUBLE_EQ(load.others_cpu_s, 2.0);
  EXPECT_EQ(load.side_by_side_runs, 3);
  EXPECT_DOUBLE_EQ(load.side_by_side_cpu_s, 3.5);
  // Alone: the process's other threads are the run's own helpers, not load from elsewhere.
  const MachineLoad alone = machine_load_between(start, end, {}, {0, 1.5});
  EXPECT_EQ(alone.side_by_side_runs, 0);
  EXPECT_EQ(alone.side_by_side_cpu_s, 0.0);
}

TEST(CpuReadings, ThisThreadsScheduleIsReadAndDiffed) {
  const ThreadSchedule start = read_thread_schedule();
  const ThreadSchedule end = read_thread_schedule();
  const ThreadSchedule delta = schedule_between(start, end);
  EXPECT_GE(delta.involuntary_switches, 0);
  EXPECT_EQ(delta.run_queue_wait_ns < 0, start.run_queue_wait_ns < 0);
  EXPECT_EQ(schedule_between({1, -1}, {5, 70}).run_queue_wait_ns, -1);
  EXPECT_EQ(schedule_between({1, 30}, {5, 70}).run_queue_wait_ns, 40);
  EXPECT_TRUE(take_cpu_snapshot().machine.read);  // Linux: the tests run where llmperf does
}

}  // namespace
}  // namespace llmperf

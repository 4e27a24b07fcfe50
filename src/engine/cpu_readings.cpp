// The kernel's CPU accounting (see cpu_readings.h). /proc is read through streams: GCC 12 at -O3
// warns falsely (-Wnull-dereference) on some hand-rolled parsers of /proc/stat.
#include "engine/cpu_readings.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace llmperf {
namespace {

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

MachineCpuTime parse_proc_stat(const std::string& text, double ticks_per_s) {
  MachineCpuTime cpu;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name.rfind("cpu", 0) != 0) continue;
    if (name != "cpu") {
      ++cpu.cores;
      continue;
    }
    // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user, nice)
    int64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(fields >> user >> nice >> system >> idle >> iowait >> irq >> softirq)) return {};
    if (!(fields >> steal)) steal = 0;  // kernels before 2.6.11
    cpu.busy_s = static_cast<double>(user + nice + system + irq + softirq) / ticks_per_s;
    cpu.steal_s = static_cast<double>(steal) / ticks_per_s;
    cpu.read = true;
  }
  if (cpu.cores == 0) cpu.read = false;
  return cpu;
}

CpuSnapshot take_cpu_snapshot() {
  CpuSnapshot snapshot;
  const long ticks = sysconf(_SC_CLK_TCK);
  if (ticks > 0) {
    snapshot.machine = parse_proc_stat(read_text("/proc/stat"), static_cast<double>(ticks));
  }
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    snapshot.process_cpu_s = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  }
  return snapshot;
}

int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

ThreadSchedule read_thread_schedule() {
  ThreadSchedule schedule;
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) schedule.involuntary_switches = usage.ru_nivcsw;
  // schedstat: time on a CPU, time runnable waiting for one (both ns), time slices run.
  std::istringstream fields(read_text("/proc/thread-self/schedstat"));
  int64_t on_cpu_ns = 0;
  int64_t waiting_ns = 0;
  if (fields >> on_cpu_ns >> waiting_ns) schedule.run_queue_wait_ns = waiting_ns;
  return schedule;
}

ThreadSchedule schedule_between(const ThreadSchedule& start, const ThreadSchedule& end) {
  ThreadSchedule delta;
  delta.involuntary_switches = end.involuntary_switches - start.involuntary_switches;
  if (start.run_queue_wait_ns >= 0 && end.run_queue_wait_ns >= 0) {
    delta.run_queue_wait_ns = end.run_queue_wait_ns - start.run_queue_wait_ns;
  }
  return delta;
}

MachineLoad machine_load_between(const CpuSnapshot& start, const CpuSnapshot& end,
                                 const ThreadSchedule& workers, const SideBySideRuns& side) {
  MachineLoad load;
  load.involuntary_switches = workers.involuntary_switches;
  if (workers.run_queue_wait_ns >= 0) {
    load.run_queue_wait_s = static_cast<double>(workers.run_queue_wait_ns) / 1e9;
  }
  if (side.runs > 0) {
    load.side_by_side_runs = side.runs;
    load.side_by_side_cpu_s =
        std::max(0.0, (end.process_cpu_s - start.process_cpu_s) - side.own_cpu_s);
  }
  if (!start.machine.read || !end.machine.read) return load;
  load.measured = true;
  load.cores = end.machine.cores;
  // /proc/stat counts in ticks (10 ms at USER_HZ 100): over a short run this is rough, never < 0.
  load.others_cpu_s = std::max(
      0.0, (end.machine.busy_s - start.machine.busy_s) - (end.process_cpu_s - start.process_cpu_s));
  load.steal_s = std::max(0.0, end.machine.steal_s - start.machine.steal_s);
  return load;
}

}  // namespace llmperf

// The kernel's CPU accounting, read around a run to tell a busy machine from a busy client: the
// machine's CPU time (/proc/stat), this process's (getrusage), and each worker thread's
// preemptions (getrusage) and time spent runnable but waiting for a CPU (schedstat). Linux only;
// a reading that fails is marked unknown, never an error.
#pragma once

#include <cstdint>
#include <string>

#include "metrics/client_health.h"

namespace llmperf {

// /proc/stat's "cpu" line: every CPU's time since boot.
struct MachineCpuTime {
  bool read = false;   // false: missing or not understood
  int cores = 0;       // its cpuN lines
  double busy_s = 0;   // user + nice + system + irq + softirq (guest time is inside user)
  double steal_s = 0;  // time a hypervisor ran other guests instead
};

// Parses /proc/stat's text, whose times count `ticks_per_s` per second (USER_HZ).
MachineCpuTime parse_proc_stat(const std::string& text, double ticks_per_s);

// The machine's and this process's CPU time at one moment.
struct CpuSnapshot {
  MachineCpuTime machine;
  double process_cpu_s = 0;  // user + system time of every thread of this process
};
CpuSnapshot take_cpu_snapshot();

// The calling thread's scheduling so far.
struct ThreadSchedule {
  int64_t involuntary_switches = 0;  // preempted while runnable (getrusage's ru_nivcsw)
  int64_t run_queue_wait_ns = -1;    // runnable, waiting for a CPU (-1: no schedstat)
};
ThreadSchedule read_thread_schedule();

// The CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID), in ns.
int64_t thread_cpu_ns();
// `end` - `start`, for the time between them (an unknown wait stays unknown).
ThreadSchedule schedule_between(const ThreadSchedule& start, const ThreadSchedule& end);

// Runs of this process that overlapped one run (several benchmarks in one process: `tune
// --slots`), and that run's own threads' CPU time, to tell its CPU from theirs.
struct SideBySideRuns {
  int runs = 0;           // other runs that overlapped it, however briefly
  double own_cpu_s = 0;   // CPU time of the run's own threads (its workers and collector)
};

// What the rest of the machine did between two snapshots, with the worker threads' scheduling over
// that time (summed over the workers). With runs side by side, what this process used beyond the
// run's own threads is theirs (MachineLoad::side_by_side_cpu_s).
MachineLoad machine_load_between(const CpuSnapshot& start, const CpuSnapshot& end,
                                 const ThreadSchedule& workers, const SideBySideRuns& side = {});

}  // namespace llmperf

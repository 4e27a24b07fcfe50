// Client health assessment (see client_health.h).
#include "metrics/client_health.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

// The value at percentile `p` of `d`, or `fallback` when `p` was not requested.
double value_at(const Distribution& d, const std::vector<double>& percentiles, double p,
                double fallback) {
  for (size_t i = 0; i < percentiles.size() && i < d.percentiles.size(); ++i) {
    if (percentiles[i] == p) return d.percentiles[i];
  }
  return fallback;
}
double p99_or_max(const Distribution& d, const std::vector<double>& percentiles) {
  return value_at(d, percentiles, 99, d.max);
}

// A client-bound warning names the machine's load too when the workers waited, runnable, for a
// CPU for more than this share of their time.
constexpr double kWaitShareOfNote = 0.1;

// A measured interval a lateness is weighed against, and the share of it that matters.
struct Interval {
  double ns = 0;
  double share = kLatencyShare;
  std::string name;  // "the ITL p50 of 12.0 ms"
  double limit_ns() const { return share * ns; }
};

std::optional<Interval> median_of(const Distribution* d, std::string_view what,
                                  const std::vector<double>& percentiles) {
  if (d == nullptr || d->empty()) return std::nullopt;
  const double ns = value_at(*d, percentiles, 50, d->mean);
  return Interval{ns, kLatencyShare, fmt::format("the {} p50 of {:.1f} ms", what, ns / 1e6)};
}

// Holds `p99_ns` to the smallest share of `intervals` that matters, never below the floor.
LatenessJudgement judge(double p99_ns, const std::vector<std::optional<Interval>>& intervals) {
  LatenessJudgement j;
  j.p99_ns = p99_ns;
  j.limit_ns = static_cast<double>(kLatenessFloorNs);
  const Interval* binding = nullptr;
  for (const auto& interval : intervals) {
    if (interval && interval->ns > 0 &&
        (binding == nullptr || interval->limit_ns() < binding->limit_ns())) {
      binding = &*interval;
    }
  }
  if (binding != nullptr && binding->limit_ns() > j.limit_ns) {
    j.limit_ns = binding->limit_ns();
    j.scale = fmt::format("{:.0f}% of {}", binding->share * 100, binding->name);
  }
  return j;
}

std::string limit_text(const LatenessJudgement& j) {
  if (j.scale.empty()) return fmt::format("(limit {:.0f} ms)", j.limit_ns / 1e6);
  return fmt::format("(limit {:.2f} ms, {})", j.limit_ns / 1e6, j.scale);
}

// What would help a client that was itself too slow.
std::string threads_advice(const ClientHealthInput& input, int threads) {
  if (input.usable_cores > 0 && threads >= input.usable_cores) {
    return fmt::format(
        "each of the {} usable core{} already has a worker: use a client machine with more cores",
        input.usable_cores, input.usable_cores == 1 ? "" : "s");
  }
  const int more = input.usable_cores > 0 ? std::min(2 * threads, input.usable_cores) : 2 * threads;
  return fmt::format("try --threads {}", more);
}

// What the kernel says the rest of the machine did meanwhile, in a clause.
std::string machine_text(const MachineLoad& m, double wall_s, int threads) {
  if (!m.measured) return "this machine's load could not be read (no /proc/stat)";
  const char* workers = threads == 1 ? "the worker thread" : "the worker threads";
  const auto cores_of = [&](double cpu_s) { return wall_s > 0 ? cpu_s / wall_s : 0.0; };
  // Runs side by side in this process (tune --slots) are load on the machine too, that the
  // kernel counts as this process's: named apart, so that a trial's judgement says whose it was.
  const std::string side_by_side =
      m.side_by_side_runs > 0
          ? fmt::format(" and llmperf's {} other benchmark{} run side by side (the study's other "
                        "slots) {:.2f}",
                        m.side_by_side_runs, m.side_by_side_runs == 1 ? "" : "s",
                        cores_of(m.side_by_side_cpu_s))
          : "";
  std::string text =
      fmt::format("other processes used {:.2f}{} of the machine's {} core{}",
                  cores_of(m.others_cpu_s), side_by_side, m.cores, m.cores == 1 ? "" : "s");
  if (m.steal_s > 0 && wall_s > 0) {
    text += fmt::format(", the hypervisor gave {:.0f}% of its CPU time to other guests (steal)",
                        100 * m.steal_s / (wall_s * std::max(1, m.cores)));
  }
  if (m.run_queue_wait_s >= 0) {
    text += fmt::format(", and {} waited {:.2f} s for a CPU, preempted {} times", workers,
                        m.run_queue_wait_s, m.involuntary_switches);
  } else {
    text += fmt::format(", and {} {} preempted {} times", workers, threads == 1 ? "was" : "were",
                        m.involuntary_switches);
  }
  return text;
}

}  // namespace

ClientHealth assess_client_health(const ClientHealthInput& input,
                                  const std::vector<double>& percentiles) {
  ClientHealth health;
  health.measured = true;
  health.threads = std::max(1, input.threads);
  health.stamp_delay_ns = input.stamp_delay_ns.describe(percentiles);
  health.cpu_s = input.cpu_s;
  health.machine = input.machine;
  if (input.wall_s > 0) {
    const double thread_s = input.wall_s * health.threads;
    health.cpu_utilization = input.cpu_s / thread_s;
    const double waited_s = std::clamp(input.machine.run_queue_wait_s, 0.0, thread_s);
    health.busy_share =
        waited_s < thread_s ? std::min(1.0, input.cpu_s / (thread_s - waited_s)) : 1;
  }

  // A stamp delay shifts every stamped time: it matters beside the shortest stamped intervals
  // (TTFT and ITL of streams, else the latency). The client's own send lateness shifts the
  // arrivals and the latencies from the planned send: it matters beside the gap between planned
  // sends and the TTFT (or latency).
  const MeasuredIntervals& m = input.measured;
  const auto ttft = median_of(m.ttft_ns, metric_info(Metric::kTtft).label, percentiles);
  const auto itl = median_of(m.itl_ns, metric_info(Metric::kItl).label, percentiles);
  const auto latency = median_of(m.latency_ns, metric_info(Metric::kLatency).name, percentiles);
  const auto gap =
      m.arrival_gap_ns > 0
          ? std::optional<Interval>(Interval{
                m.arrival_gap_ns, kGapShare,
                fmt::format("the {:.1f} ms between planned sends", m.arrival_gap_ns / 1e6)})
          : std::nullopt;
  const auto response = ttft ? ttft : latency;  // how long a request takes to answer
  std::vector<std::string> latenesses;          // the material ones, as clauses
  if (!health.stamp_delay_ns.empty()) {
    health.stamp_delay = judge(p99_or_max(health.stamp_delay_ns, percentiles),
                               ttft || itl ? std::vector{ttft, itl} : std::vector{latency});
    if (health.stamp_delay.material()) {
      latenesses.push_back(
          fmt::format("ready events waited {:.2f} ms (p99) before being time-stamped {}",
                      health.stamp_delay.p99_ns / 1e6, limit_text(health.stamp_delay)));
    }
  }
  if (input.client_lag_ns != nullptr && !input.client_lag_ns->empty()) {
    health.client_lag = judge(p99_or_max(*input.client_lag_ns, percentiles), {gap, response});
    if (health.client_lag.material()) {
      latenesses.push_back(
          fmt::format("requests left {:.2f} ms (p99) after their planned send time with a slot "
                      "free for them {}",
                      health.client_lag.p99_ns / 1e6, limit_text(health.client_lag)));
    }
  }
  // Whose doing: worker threads that worked most of the time they could run were late by their
  // own work; idle ones were late because the machine did not give them a core when they woke.
  const std::string cpu_text =
      fmt::format("llmperf used {:.0f}% of its {} worker core{}", health.cpu_utilization * 100,
                  health.threads, health.threads == 1 ? "" : "s");
  const std::string busy_text =
      health.busy_share > health.cpu_utilization + 0.05
          ? fmt::format("{} (busy {:.0f}% of the time it was not waiting for a CPU)", cpu_text,
                        health.busy_share * 100)
          : cpu_text;
  // A client that fell behind by its own work on a busy machine: both are said.
  const double thread_s = input.wall_s * health.threads;
  const std::string also_busy =
      thread_s > 0 && input.machine.run_queue_wait_s > kWaitShareOfNote * thread_s
          ? fmt::format(" (the machine was busy too: {})",
                        machine_text(input.machine, input.wall_s, health.threads))
          : "";
  for (const std::string& lateness : latenesses) {
    if (health.busy_share >= kLowCpuShare) {
      health.warnings.push_back(fmt::format("{}, and {}{}: the client fell behind; {}", lateness,
                                            busy_text, also_busy,
                                            threads_advice(input, health.threads)));
    } else {
      health.machine_warnings.push_back(fmt::format(
          "{}, while {}: the machine did not give llmperf a core when it needed one: {}. "
          "--threads would not help; a core other processes leave free would (a quieter "
          "machine, or the server pinned to other cores{})",
          lateness, cpu_text, machine_text(input.machine, input.wall_s, health.threads),
          input.machine.side_by_side_runs > 0 ? ", or fewer --slots" : ""));
    }
  }
  if (health.cpu_utilization > kCpuLimit) {
    health.warnings.push_back(
        fmt::format("the client used {:.0f}% of its {} worker core(s) (limit {:.0f}%); {}",
                    health.cpu_utilization * 100, health.threads, kCpuLimit * 100,
                    threads_advice(input, health.threads)));
  }
  health.client_bound = !health.warnings.empty();
  health.machine_busy = !health.machine_warnings.empty();
  return health;
}

}  // namespace llmperf

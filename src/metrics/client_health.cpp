// Client health assessment (see client_health.h).
#include "metrics/client_health.h"

#include <fmt/format.h>

#include <algorithm>

namespace llmperf {
namespace {

// The value at percentile 99 of `d`, or its max when 99 was not requested.
double p99_or_max(const Distribution& d, const std::vector<double>& percentiles) {
  for (size_t i = 0; i < percentiles.size() && i < d.percentiles.size(); ++i) {
    if (percentiles[i] == 99) return d.percentiles[i];
  }
  return d.max;
}

}  // namespace

ClientHealth assess_client_health(const ClientHealthInput& input,
                                  const std::vector<double>& percentiles) {
  ClientHealth health;
  health.measured = true;
  health.threads = std::max(1, input.threads);
  health.stamp_delay_ns = input.stamp_delay_ns.describe(percentiles);
  health.cpu_s = input.cpu_s;
  if (input.wall_s > 0) health.cpu_utilization = input.cpu_s / (input.wall_s * health.threads);

  if (!health.stamp_delay_ns.empty()) {
    const double delay = p99_or_max(health.stamp_delay_ns, percentiles);
    if (delay > static_cast<double>(kStampDelayLimitNs)) {
      health.warnings.push_back(fmt::format(
          "ready events waited {:.2f} ms (p99) before being time-stamped (limit {:.0f} ms)",
          delay / 1e6, static_cast<double>(kStampDelayLimitNs) / 1e6));
    }
  }
  if (input.client_lag_ns != nullptr && !input.client_lag_ns->empty()) {
    const double lag = p99_or_max(*input.client_lag_ns, percentiles);
    if (lag > static_cast<double>(kScheduleLagLimitNs)) {
      health.warnings.push_back(fmt::format(
          "requests left {:.2f} ms (p99) after their planned send time with a slot free for "
          "them (limit {:.0f} ms): the client fell behind its schedule; try --threads",
          lag / 1e6, static_cast<double>(kScheduleLagLimitNs) / 1e6));
    }
  }
  if (health.cpu_utilization > kCpuLimit) {
    health.warnings.push_back(fmt::format(
        "the client used {:.0f}% of its {} worker core(s) (limit {:.0f}%); try --threads",
        health.cpu_utilization * 100, health.threads, kCpuLimit * 100));
  }
  health.client_bound = !health.warnings.empty();
  return health;
}

}  // namespace llmperf

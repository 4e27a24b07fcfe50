// Text for the load shape and the client's health, printed after a run's summary: requested vs
// achieved arrival rate and schedule lag (open loop), and a warning when llmperf itself was the
// bottleneck (DESIGN §3, issue 3).
#include <fmt/format.h>

#include "report/report.h"

namespace llmperf {
namespace {

// "p50 0.012 ms, p99 0.150 ms, max 0.300 ms" from the percentiles that exist.
std::string spread_ms(const Distribution& d, const std::vector<double>& percentiles) {
  std::string out;
  for (size_t i = 0; i < percentiles.size() && i < d.percentiles.size(); ++i) {
    if (percentiles[i] == 50 || percentiles[i] == 99) {
      out += fmt::format("p{:g} {:.3f} ms, ", percentiles[i], d.percentiles[i] / 1e6);
    }
  }
  return out + fmt::format("max {:.3f} ms", d.max / 1e6);
}

}  // namespace

std::string render_load_text(const RunInfo& info, const RunSummary& summary,
                             const std::string& arrival) {
  std::string out;
  if (info.rate > 0) {
    out += fmt::format("\nOpen loop: requested {:g} req/s ({} arrivals), achieved {:.2f} req/s\n",
                       info.rate, arrival, summary.achieved_rate);
    if (!summary.schedule_lag_ns.empty()) {
      out += fmt::format("Schedule lag (actual - planned send): {}\n",
                         spread_ms(summary.schedule_lag_ns, summary.percentiles));
    }
  }
  const ClientHealth& client = summary.client;
  if (client.measured) {
    out += fmt::format(
        "Client: {:.2f} s CPU ({:.0f}% of {} core{}), stamp delay {}\n", client.cpu_s,
        client.cpu_utilization * 100, client.threads, client.threads == 1 ? "" : "s",
        client.stamp_delay_ns.empty() ? std::string("-")
                                      : spread_ms(client.stamp_delay_ns, summary.percentiles));
    for (const std::string& warning : client.warnings) {
      out += fmt::format(
          "WARNING: client-bound: {}. These numbers describe llmperf, not the "
          "server.\n",
          warning);
    }
  }
  return out;
}

}  // namespace llmperf

// Text for the load shape and the client's health, printed after a run's summary: requested vs
// achieved arrival rate and schedule lag (open loop), how much of the lag was a wait for a free
// slot (the in-flight cap reached: the server fell behind, issue 23), and a warning when llmperf
// itself was the bottleneck (DESIGN §3, issue 3).
#include <fmt/format.h>

#include "report/internal.h"

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

namespace report_detail {

std::string cap_reached_text(const RunInfo& info, const RunSummary& summary) {
  const OpenLoopSummary& o = summary.open_loop;
  if (info.rate <= 0 || o.slot_waits == 0) return "";
  std::string rate = fmt::format("{:g} req/s", info.rate);
  if (info.workload.trace.on) rate = fmt::format("the trace (mean {:.4g} req/s)", info.rate);
  if (info.ramp.on()) rate = fmt::format("the ramp-up to {:g} req/s", info.ramp.end_rps);
  return fmt::format(
      "the in-flight cap of {} was reached for {:.1f}% of sends ({} of {}): the server did not "
      "keep up with {}; latencies from the planned send include the wait",
      info.parallel, 100.0 * o.cap_reached_share(), o.slot_waits, o.sends, rate);
}

}  // namespace report_detail

std::string render_load_text(const RunInfo& info, const RunSummary& summary,
                             const std::string& arrival) {
  std::string out;
  if (info.ramp.on()) {
    out += fmt::format(
        "\nOpen loop: ramp-up {} from {:g} to {:g} req/s ({} arrivals), achieved {:.2f} req/s on "
        "average (the report's \"Latency against the arrival rate\" chart shows each moment)\n",
        info.ramp.strategy, info.ramp.start_rps, info.ramp.end_rps, arrival,
        summary.achieved_rate);
  } else if (info.workload.trace.on) {
    out += fmt::format(
        "\nOpen loop: the trace's timestamps x{:g} (mean {:.4g} req/s), achieved {:.2f} req/s\n",
        info.workload.trace.speedup, info.rate, summary.achieved_rate);
  } else if (info.rate > 0) {
    out += fmt::format("\nOpen loop: requested {:g} req/s ({} arrivals), achieved {:.2f} req/s\n",
                       info.rate, arrival, summary.achieved_rate);
  }
  // What the server kept up with: its successful requests' ends, against the planned sends.
  if (summary.sustained_rate > 0 && summary.scheduled_rate > 0) {
    out += fmt::format(
        "The server sustained {:.2f} req/s of the {:.2f} req/s the schedule asked for ({:.0f}%; "
        "successful requests' ends against the planned sends)\n",
        summary.sustained_rate, summary.scheduled_rate,
        100 * summary.sustained_rate / summary.scheduled_rate);
  }
  if (info.ramp.on() && !summary.rate_segments.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const RateSegment& seg : summary.rate_segments) {
      const auto in = [](const std::optional<double>& ns, double unit) {
        return report_detail::format_number(ns ? std::optional<double>(*ns / unit) : std::nullopt);
      };
      rows.push_back({fmt::format("{:.1f}-{:.1f}", seg.start_s, seg.end_s),
                      report_detail::format_number(seg.planned_rate),
                      report_detail::format_number(seg.sent_rate), std::to_string(seg.requests),
                      std::to_string(seg.failed), in(seg.ttft_p50_ns, 1e6),
                      in(seg.latency_p50_ns, 1e9)});
    }
    out += report_detail::render_table({"Planned send (s)", "Rate (req/s)", "Sent (req/s)",
                                        "Requests", "Failed", "P50 TTFT (ms)", "P50 Latency (s)"},
                                       rows);
  }
  if (info.rate > 0) {
    if (!summary.schedule_lag_ns.empty()) {
      out += fmt::format("Schedule lag (actual - planned send): {}\n",
                         spread_ms(summary.schedule_lag_ns, summary.percentiles));
    }
    const OpenLoopSummary& o = summary.open_loop;
    if (o.slot_waits > 0) {
      out += fmt::format("  of it waiting for a free slot: {}; the client's own lateness: {}\n",
                         spread_ms(o.slot_wait_ns, summary.percentiles),
                         spread_ms(o.client_lag_ns, summary.percentiles));
      out +=
          fmt::format("WARNING: open loop: {}.\n", report_detail::cap_reached_text(info, summary));
    }
  }
  const ClientHealth& client = summary.client;
  // Not failures, and nothing the server did wrong beyond closing kept-alive connections.
  const std::string resent =
      summary.resent == 0
          ? std::string()
          : fmt::format(
                "{} request{} sent again on a new connection (the server had closed the "
                "kept-alive one before answering; latency counts from the first send)",
                summary.resent, summary.resent == 1 ? "" : "s");
  if (!client.measured && !resent.empty()) out += "Client: " + resent + "\n";
  if (client.measured) {
    out += fmt::format(
        "Client: {:.2f} s CPU ({:.0f}% of {} core{}{}), stamp delay {}{}\n", client.cpu_s,
        client.cpu_utilization * 100, client.threads, client.threads == 1 ? "" : "s",
        client.threads_reason.empty() ? "" : "; " + client.threads_reason,
        client.stamp_delay_ns.empty() ? std::string("-")
                                      : spread_ms(client.stamp_delay_ns, summary.percentiles),
        resent.empty() ? "" : "; " + resent);
    for (const std::string& warning : client.warnings) {
      out += fmt::format(
          "WARNING: client-bound: {}. These numbers describe llmperf, not the "
          "server.\n",
          warning);
    }
    for (const std::string& warning : client.machine_warnings) {
      out += fmt::format(
          "WARNING: machine busy: {}. These numbers include the waits of the client's machine, "
          "not only the server's.\n",
          warning);
    }
  }
  return out;
}

}  // namespace llmperf

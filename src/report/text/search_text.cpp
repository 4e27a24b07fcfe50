// --search's table in Markdown (search_summary.md, and the closing text): a row per probe with
// its value, the load it reached, for a rate the sends that waited for a --parallel slot, whether
// it met every --slo and why not; then the answer.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/report.h"

namespace llmperf {

std::string render_search_text(const SearchOutcome& outcome, bool by_rate,
                               const std::vector<SweepRow>& probes) {
  const char* axis = by_rate ? "rate (req/s)" : "parallel";
  std::string out = fmt::format("\nSearch over {} (bisection; each probe is a full run)\n\n", axis);
  out += by_rate ? fmt::format(
                       "| probe | {} | sustained (req/s) | sends that waited for a slot "
                       "| meets every --slo | why not |\n|---|---|---|---|---|---|\n",
                       axis)
                 : fmt::format(
                       "| probe | {} | qps (req/s) | meets every --slo | why not |\n"
                       "|---|---|---|---|---|\n",
                       axis);
  for (size_t i = 0; i < outcome.probes.size(); ++i) {
    const SearchProbe& probe = outcome.probes[i];
    std::string why;
    std::string load = "n/a";
    std::string waits = "n/a";
    if (i < probes.size()) {
      const RunInfo& info = probes[i].info;
      for (const RunInfo::SloOutcome& slo : info.slo) {
        if (!slo.passed) why += (why.empty() ? "" : "; ") + slo.detail;
      }
      if (info.stopped_early) why += (why.empty() ? "" : "; ") + std::string("stopped early");
      const RunSummary& s = probes[i].summary;
      load = fmt::format("{:.3g}", by_rate ? s.sustained_rate : s.qps);
      // A probe whose sends waited for one of its --parallel slots: the cap, not the rate,
      // paced it, and the latencies from the planned send count the wait.
      waits = s.open_loop.slot_waits == 0
                  ? fmt::format("none (cap {})", info.parallel)
                  : fmt::format("{:.0f}% (cap {} reached)", 100 * s.open_loop.cap_reached_share(),
                                info.parallel);
    }
    out += by_rate ? fmt::format("| {} | {:g} | {} | {} | {} | {} |\n", i + 1, probe.value, load,
                                 waits, probe.passed ? "yes" : "no", why)
                   : fmt::format("| {} | {:g} | {} | {} | {} |\n", i + 1, probe.value, load,
                                 probe.passed ? "yes" : "no", why);
  }
  out += outcome.best ? fmt::format("\nHighest {} meeting every --slo: {:g}\n", axis, *outcome.best)
                      : fmt::format("\nNo {} in the range meets every --slo.\n", axis);
  if (by_rate) {
    out +=
        "(latency SLOs judged from each request's planned send, as a user of the server sees "
        "them; a probe fails when the server sustained less than the rate asked by more than "
        "--rate-tolerance)\n";
  }
  if (outcome.interrupted) out += "(search interrupted: the answer is a lower bound)\n";
  return out;
}

}  // namespace llmperf

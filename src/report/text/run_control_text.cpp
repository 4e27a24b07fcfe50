// Text of how runs were controlled (see report/run_control.h).
#include <fmt/format.h>

#include "report/run_control.h"

namespace llmperf {

std::string render_stopped_early_text(const RunInfo& info) {
  if (!info.stopped_early) return "";
  const EarlyStopDecision& stop = *info.stopped_early;
  return fmt::format(
      "\nStopped early ({}) after {} measured requests: {}. Requests still in flight were "
      "given the grace period of an interrupt (3 s), then cancelled; the figures above cover what "
      "finished.\n",
      stop.reason, stop.after_requests, stop.detail);
}

}  // namespace llmperf

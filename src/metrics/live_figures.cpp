// See live_figures.h. The window's quantiles are exact (sorted samples, numpy's interpolation):
// a window holds only the requests of one push interval.
#include "metrics/live_figures.h"

#include <algorithm>
#include <limits>

#include "metrics/stats/stats.h"

namespace llmperf {

void LiveWindow::Samples::add(double ns) {
  window_ns.push_back(ns);
  sum_ns += ns;
  ++count;
}

LiveSummary LiveWindow::Samples::take() {
  LiveSummary out;
  out.sum_ns = sum_ns;
  out.count = count;
  out.window = static_cast<int64_t>(window_ns.size());
  std::sort(window_ns.begin(), window_ns.end());
  for (size_t q = 0; q < kLiveQuantiles.size(); ++q) {
    out.quantiles_ns[q] = window_ns.empty() ? std::numeric_limits<double>::quiet_NaN()
                                            : percentile_sorted(window_ns, kLiveQuantiles[q] * 100);
  }
  window_ns.clear();
  return out;
}

void LiveWindow::add(const RequestRecord& r) {
  if (r.warmup) return;
  if (r.error == ErrorKind::kCancelled) {
    ++totals_.cancelled;
    return;
  }
  if (!r.ok()) {
    ++totals_.failed;
    return;
  }
  ++totals_.succeeded;
  totals_.input_tokens += r.input_tokens;
  totals_.output_tokens += r.output_tokens;
  if (r.sent_ns >= 0 && r.end_ns >= r.sent_ns) {
    latency_.add(static_cast<double>(r.end_ns - r.sent_ns));
  }
  if (r.stream && r.sent_ns >= 0 && r.first_content_ns >= r.sent_ns) {
    ttft_.add(static_cast<double>(r.first_content_ns - r.sent_ns));
    for (size_t i = 1; i < r.chunk_ns.size(); ++i) {
      itl_.add(static_cast<double>(r.chunk_ns[i] - r.chunk_ns[i - 1]));
    }
  }
}

LiveFigures LiveWindow::take(int64_t in_flight, bool final) {
  LiveFigures out = totals_;
  out.in_flight = std::max<int64_t>(0, in_flight);
  out.final = final;
  out.ttft = ttft_.take();
  out.itl = itl_.take();
  out.latency = latency_.take();
  return out;
}

}  // namespace llmperf

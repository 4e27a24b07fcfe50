// A run's live figures for --push-gateway: requests by outcome, tokens, and TTFT, ITL and latency
// quantiles over the requests that ended since the figures were last taken. Fed one finished
// record at a time (on the collector thread, at the request's end: never per event). Part of the
// metrics stage: pure, no I/O, logging or threads (the caller locks).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/record.h"

namespace llmperf {

// The quantiles of each live summary, in this order.
inline constexpr std::array<double, 3> kLiveQuantiles = {0.5, 0.9, 0.99};

// One live summary: quantiles over a window, sum and count over the whole run (Prometheus'
// summary type), in nanoseconds.
struct LiveSummary {
  // kLiveQuantiles' values over the samples of the window (numpy's linear interpolation); NaN
  // when the window had none.
  std::array<double, kLiveQuantiles.size()> quantiles_ns{};
  double sum_ns = 0;   // every sample of the run so far
  int64_t count = 0;   // every sample of the run so far
  int64_t window = 0;  // samples in the window the quantiles come from
};

// What a push says: counts and totals since the run's start (warm-up requests left out, as in
// summary.json), requests in flight now, and the summaries.
struct LiveFigures {
  int64_t succeeded = 0;
  int64_t failed = 0;
  int64_t cancelled = 0;      // closed on purpose (--cancel-rate): not failures
  int64_t in_flight = 0;      // requests sent and not finished, warm-up included
  int64_t input_tokens = 0;   // of the successful requests, as summary.json's tokens.input_total
  int64_t output_tokens = 0;  // of the successful requests, as tokens.output_total
  LiveSummary ttft;           // successful streamed requests' TTFT
  LiveSummary itl;            // the gaps between output chunks of successful streamed requests
  LiveSummary latency;        // successful requests' end-to-end latency
  bool final = false;         // the run has ended: these are its final figures
};

// Gathers records and hands out LiveFigures, each take() starting a new window.
class LiveWindow {
 public:
  void add(const RequestRecord& record);
  // The figures so far; the quantiles are those of the samples added since the last take().
  LiveFigures take(int64_t in_flight, bool final);

 private:
  struct Samples {
    std::vector<double> window_ns;
    double sum_ns = 0;
    int64_t count = 0;
    void add(double ns);
    LiveSummary take();
  };
  LiveFigures totals_;
  Samples ttft_;
  Samples itl_;
  Samples latency_;
};

}  // namespace llmperf

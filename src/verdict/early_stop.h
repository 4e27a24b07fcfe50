// Early stops, pure: the rules that end a run before its last request because going on would
// waste the server's time or measure nothing useful. The app feeds them every finished record on
// the collector thread (never per event) and stops the run through the engine's StopControl, as
// an interrupt does (docs/flags.md, "Early stops").
//   --max-errors N       N failed measured requests in all.
//   --max-error-rate X   more than X of the last --error-window finished measured requests failed,
//                        judged only once that many have finished.
//   --stop-on-saturation (open loop) the server cannot keep up; SaturationTest below says how.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"

namespace llmperf {

// Why a run stopped early: summary.json's "stopped_early" and the log line.
struct EarlyStopDecision {
  std::string reason;          // "max_errors", "max_error_rate" or "saturation"
  int64_t after_requests = 0;  // measured requests finished when the rule fired
  std::string detail;          // what the rule saw, for a person
};

// The rules of one benchmark, from its flags (plan/verdict_plan.h's early_stop_rules).
struct EarlyStopRules {
  double max_error_rate = -1;  // failed share that stops the run (< 0: off)
  int64_t error_window = 100;  // last finished measured requests the share is taken over
  int64_t max_errors = 0;      // failed measured requests that stop the run (0: off)
  bool stop_on_saturation = false;
  int64_t saturation_window_ns = 2'000'000'000;  // SaturationTest's window

  bool any() const { return max_error_rate >= 0 || max_errors > 0 || stop_on_saturation; }
};

// --stop-on-saturation's test, over windows of W seconds counted from the run's start:
//  - at the end of each window, the requests outstanding: planned to be sent by then (the open
//    loop's schedule) less those finished, so requests waiting for a slot under the in-flight
//    cap count too; and the median TTFT, counted from the planned send time, of the successful
//    measured requests that finished in the window (windows without one have no TTFT point);
//  - over the last kWindows windows, each series is fitted by least squares against the window's
//    end time. A series grows steadily when its slope is positive and significant (its t
//    statistic above t(0.975, points - 2)), and the fitted rise across those windows is at least
//    kMinGrowth of the series' mean (and, for outstanding requests, at least kMinRiseRequests);
//  - the server is saturated when both series grow steadily, at least kWindows windows have
//    closed (the minimum duration, kWindows x W), and at least kMinTtftPoints of the last windows
//    have a TTFT.
// A server that keeps up holds both flat (noise gives no significant slope, or too small a rise);
// one that cannot keep up queues: outstanding requests grow linearly and so does every request's
// wait for its first token. GuideLLM's over-saturation rule tests the same two slopes.
class SaturationTest {
 public:
  static constexpr int kWindows = 6;
  static constexpr int kMinTtftPoints = 4;
  static constexpr double kMinGrowth = 0.25;
  static constexpr double kMinRiseRequests = 2;

  explicit SaturationTest(int64_t window_ns) : window_ns_(window_ns) {}

  // A finished successful measured request's TTFT from its planned send (ns), counted in the
  // window open at the next tick.
  void add_ttft(int64_t ttft_ns) { ttfts_ns_.push_back(ttft_ns); }

  // At `elapsed_ns` from the run's start, with `outstanding` requests: closes the window when it
  // has ended and tests again. Returns what it saw when the server is saturated.
  std::optional<std::string> tick(int64_t elapsed_ns, int64_t outstanding);

 private:
  struct Window {
    double end_s = 0;        // the window's end, seconds from the run's start
    double outstanding = 0;  // requests outstanding at its end
    double ttft_ms = -1;     // median TTFT of the requests finished in it (ms); < 0: none
  };
  std::optional<std::string> test() const;

  int64_t window_ns_;
  int64_t window_end_ns_ = -1;     // end of the open window (-1: none yet)
  std::vector<int64_t> ttfts_ns_;  // TTFTs of the open window
  std::vector<Window> windows_;    // closed windows, the last kWindows kept
};

// All the rules of one run, fed on the collector thread.
class EarlyStopMonitor {
 public:
  // `schedule_ns`: the open loop's planned send offsets (warm-up first; null or empty: closed
  // loop); `duration_ns`: --duration (0: none), after which nothing more is planned.
  EarlyStopMonitor(const EarlyStopRules& rules, const std::vector<int64_t>* schedule_ns,
                   int64_t duration_ns);

  bool active() const { return rules_.any(); }

  // Every finished record, warm-up included, in completion order.
  void add(const RequestRecord& record);

  // After a batch of records, `elapsed_ns` from the run's start: runs the saturation test. The
  // decision once a rule has fired (the first that fired; later calls return it again).
  const std::optional<EarlyStopDecision>& check(int64_t elapsed_ns);

  const std::optional<EarlyStopDecision>& decision() const { return decision_; }

 private:
  void decide(const char* reason, std::string detail);

  EarlyStopRules rules_;
  const std::vector<int64_t>* schedule_ns_;
  int64_t duration_ns_;
  int64_t finished_ = 0;      // records seen, warm-up included
  int64_t measured_ = 0;      // measured records seen
  int64_t failed_ = 0;        // failed measured records seen
  std::vector<char> recent_;  // --max-error-rate: ring of the last error_window outcomes (1 failed)
  size_t recent_next_ = 0;    // where the next outcome goes
  int64_t recent_failed_ = 0;  // failures in the ring
  SaturationTest saturation_;
  std::optional<EarlyStopDecision> decision_;
};

}  // namespace llmperf

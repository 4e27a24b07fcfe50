// Checks of an open-loop run that judge what llmperf controls, on any machine and in any build:
// the planned schedule, exactly, and an achieved rate off by no more than the sends' lateness
// explains, with that lateness reported when it matters. How closely a loaded machine lets the
// sends keep to the plan is the machine's; only a build without sanitizers, on a quiet core, holds
// llmperf to a strict rate (integration_rate_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "llmperf_run.h"

// Sanitizer builds run llmperf (and llmperf-mock) several times slower: a send's lateness is real
// there, and a rate is not held to 2 %. ThreadSanitizer's more so than the others'.
#if defined(__SANITIZE_THREAD__)
#define LLMPERF_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LLMPERF_TEST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LLMPERF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LLMPERF_TEST_ASAN 1
#endif
#endif

namespace llmperf::testing {

#ifdef LLMPERF_TEST_TSAN
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#if defined(LLMPERF_TEST_TSAN) || defined(LLMPERF_TEST_ASAN)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

// A constant-rate run's planned sends: request i planned i/rate after request 0, to the
// nanosecond (the schedule rounds each offset from its index, never accumulating).
inline void expect_constant_schedule(const std::vector<nlohmann::json>& records, double rate) {
  std::vector<int64_t> planned(records.size(), -1);
  for (const nlohmann::json& r : records) {
    const auto id = r["id"].get<size_t>();
    ASSERT_LT(id, planned.size());
    planned[id] = r["planned_ns"].get<int64_t>();
  }
  for (size_t i = 0; i < planned.size(); ++i) {
    const auto offset = std::llround(static_cast<double>(i) * (1.0 / rate) * 1e9);
    ASSERT_EQ(planned[i] - planned[0], offset) << "request " << i;
  }
}

// The achieved rate of an open-loop run of `sends` requests planned over `planned_span_s`: off the
// requested `rate` by no more than the sends' largest lateness (schedule_lag_ms.max) explains,
// and, when off by more than `tolerance` (a share), the run says why: its client was late by its
// own work (client_bound) or the machine's (client.machine_busy), or the in-flight cap was reached.
inline void expect_rate_held_or_explained(const nlohmann::json& summary, double rate,
                                          double planned_span_s, double tolerance) {
  const nlohmann::json& open_loop = summary["open_loop"];
  const double achieved = open_loop["achieved_rate"].get<double>();
  const auto sends = open_loop["sends"].get<double>();
  const double lag_s = summary["metrics"]["schedule_lag_ms"]["max"].get<double>() / 1e3;
  ASSERT_GT(planned_span_s, lag_s) << "the sends fell behind by more than the whole run";
  // The first send is at least on time and the last at most lag_s late, or the reverse.
  EXPECT_GE(achieved, (sends - 1) / (planned_span_s + lag_s) * (1 - 1e-9)) << open_loop.dump();
  EXPECT_LE(achieved, (sends - 1) / (planned_span_s - lag_s) * (1 + 1e-9)) << open_loop.dump();
  if (std::abs(achieved - rate) > tolerance * rate) {
    const bool said = summary["client_bound"].get<bool>() ||
                      summary["client"]["machine_busy"].get<bool>() ||
                      open_loop["cap_reached_sends"].get<int64_t>() > 0;
    EXPECT_TRUE(said) << "achieved " << achieved << " of " << rate
                      << " req/s, and the run did not say why: " << summary["client"].dump();
  }
}

}  // namespace llmperf::testing

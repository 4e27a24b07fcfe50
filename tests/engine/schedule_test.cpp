// Arrival schedules: exact spacing for constant arrivals, and the mean and variance of Poisson and
// gamma inter-arrival gaps within statistical bounds for a fixed seed.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "engine/schedule.h"

namespace llmperf {
namespace {

struct GapStats {
  double mean_s = 0;
  double variance_s2 = 0;
};

GapStats gap_stats(const std::vector<int64_t>& offsets) {
  std::vector<double> gaps;
  for (size_t i = 1; i < offsets.size(); ++i) {
    gaps.push_back(static_cast<double>(offsets[i] - offsets[i - 1]) / 1e9);
  }
  GapStats s;
  for (double g : gaps) s.mean_s += g;
  s.mean_s /= static_cast<double>(gaps.size());
  for (double g : gaps) s.variance_s2 += (g - s.mean_s) * (g - s.mean_s);
  s.variance_s2 /= static_cast<double>(gaps.size() - 1);
  return s;
}

TEST(Schedule, ConstantArrivalsAreEvenlySpacedWithoutDrift) {
  // 3 req/s: offsets are round(i / 3 s) exactly, so rounding never accumulates.
  const auto offsets = make_schedule({3.0, Arrival::kConstant, 1.0, 0, {}}, 3001);
  ASSERT_EQ(offsets.size(), 3001u);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 333'333'333);
  EXPECT_EQ(offsets[2], 666'666'667);
  EXPECT_EQ(offsets[3000], 1'000'000'000'000);
}

TEST(Schedule, PoissonGapsHaveMeanAndVarianceOfAnExponential) {
  // Exponential gaps at 100 req/s: mean 10 ms, variance 1e-4 s^2. With n = 200,000 the standard
  // error of the mean is 10 ms / sqrt(n) = 0.022 ms, so 1% (0.1 ms) is > 4 standard errors.
  const double rate = 100;
  const auto offsets = make_schedule({rate, Arrival::kPoisson, 1.0, 42, {}}, 200'001);
  const GapStats s = gap_stats(offsets);
  EXPECT_NEAR(s.mean_s, 1 / rate, 0.01 / rate);
  EXPECT_NEAR(s.variance_s2, 1 / (rate * rate), 0.03 / (rate * rate));
}

TEST(Schedule, GammaBurstinessSetsTheVariance) {
  // Gamma gaps with shape k: mean 1/rate, variance 1/(k rate^2) (vLLM's burstiness).
  const double rate = 50;
  for (const double k : {0.25, 4.0}) {
    const auto offsets = make_schedule({rate, Arrival::kGamma, k, 7, {}}, 200'001);
    const GapStats s = gap_stats(offsets);
    EXPECT_NEAR(s.mean_s, 1 / rate, 0.015 / rate) << "k=" << k;
    EXPECT_NEAR(s.variance_s2, 1 / (k * rate * rate), 0.06 / (k * rate * rate)) << "k=" << k;
  }
}

TEST(Schedule, SameSeedSameScheduleOtherSeedOtherSchedule) {
  const auto a = make_schedule({10, Arrival::kPoisson, 1, 1, {}}, 100);
  const auto b = make_schedule({10, Arrival::kPoisson, 1, 1, {}}, 100);
  const auto c = make_schedule({10, Arrival::kPoisson, 1, 2, {}}, 100);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (size_t i = 1; i < a.size(); ++i) EXPECT_GE(a[i], a[i - 1]);
}

// --search rate's probes: one seed draws the same gaps for every probe, scaled by its rate, so an
// unscaled draw that is slow makes every probe ask less than its rate. With exact_mean the last
// send is at (count - 1) / rate, and the gaps keep their shape (each scaled alike).
TEST(Schedule, ExactMeanAsksExactlyTheRate) {
  const ScheduleSpec drawn{50, Arrival::kPoisson, 1, 3, {}};
  ScheduleSpec exact = drawn;
  exact.exact_mean = true;
  const auto a = make_schedule(drawn, 60);
  const auto b = make_schedule(exact, 60);
  ASSERT_EQ(b.size(), 60u);
  EXPECT_EQ(b.front(), 0);
  EXPECT_EQ(b.back(), 59 * 20'000'000);  // 59 gaps of 20 ms on average
  EXPECT_NE(a.back(), b.back());         // the draw alone asks another rate
  const double scale = static_cast<double>(b.back()) / static_cast<double>(a.back());
  for (size_t i = 1; i < a.size(); ++i) {
    EXPECT_NEAR(static_cast<double>(b[i]), static_cast<double>(a[i]) * scale, 1.0) << i;
  }
}

TEST(Schedule, ArrivalNamesParse) {
  EXPECT_EQ(parse_arrival("constant"), Arrival::kConstant);
  EXPECT_EQ(parse_arrival("poisson"), Arrival::kPoisson);
  EXPECT_EQ(parse_arrival("gamma"), Arrival::kGamma);
  EXPECT_THROW(parse_arrival("uniform"), std::invalid_argument);
  EXPECT_TRUE(make_schedule({10, Arrival::kConstant, 1, 0, {}}, 0).empty());
}

TEST(RampUp, RatesFollowVllmsFormula) {
  // progress = index / (count - 1): the first request at the start rate, the last at the end.
  const RampUp linear{"linear", 2, 20};
  EXPECT_DOUBLE_EQ(linear.rate_at(0, 10), 2);
  EXPECT_DOUBLE_EQ(linear.rate_at(9, 10), 20);
  EXPECT_DOUBLE_EQ(linear.rate_at(3, 10), 2 + 18 * 3.0 / 9);
  const RampUp exponential{"exponential", 1, 16};
  EXPECT_DOUBLE_EQ(exponential.rate_at(0, 5), 1);
  EXPECT_DOUBLE_EQ(exponential.rate_at(2, 5), 4);  // 16^(2/4)
  EXPECT_DOUBLE_EQ(exponential.rate_at(4, 5), 16);
  EXPECT_DOUBLE_EQ(linear.rate_at(0, 1), 2);  // one request: no division by zero
}

TEST(RampUp, ConstantArrivalsStepAtEachRequestsRate) {
  ScheduleSpec spec{1, Arrival::kConstant, 1.0, 0, {}};
  spec.ramp = RampUp{"linear", 1, 4};
  // Rates of requests 1..3 of 4: 2, 3, 4 req/s; gaps 1/2, 1/3, 1/4 s after request 0 at 0.
  const auto offsets = make_schedule(spec, 4);
  ASSERT_EQ(offsets.size(), 4u);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 500'000'000);
  EXPECT_EQ(offsets[2], 833'333'333);
  EXPECT_EQ(offsets[3], 1'083'333'333);
}

TEST(RampUp, PoissonGapsShrinkAsTheRateRises) {
  ScheduleSpec spec{1, Arrival::kPoisson, 1.0, 42, {}};
  spec.ramp = RampUp{"linear", 10, 100};
  const int64_t count = 20'000;
  const auto offsets = make_schedule(spec, count);
  ASSERT_EQ(offsets.size(), static_cast<size_t>(count));
  // Mean gap over the first and the last tenth against 1/rate there (10-19 and 91-100 req/s):
  // each tenth holds 2,000 exponential gaps, so its mean is within ~7 % (3 sigma) of the
  // expected one.
  const auto mean_gap = [&](int64_t from, int64_t to) {
    return static_cast<double>(offsets[static_cast<size_t>(to)] -
                               offsets[static_cast<size_t>(from)]) /
           1e9 / static_cast<double>(to - from);
  };
  double expected_first = 0, expected_last = 0;
  for (int64_t i = 1; i <= count / 10; ++i) expected_first += 1 / spec.ramp.rate_at(i, count);
  for (int64_t i = count - count / 10; i < count; ++i) {
    expected_last += 1 / spec.ramp.rate_at(i, count);
  }
  expected_first /= count / 10;
  expected_last /= count / 10;
  EXPECT_NEAR(mean_gap(0, count / 10), expected_first, 0.07 * expected_first);
  EXPECT_NEAR(mean_gap(count - count / 10 - 1, count - 1), expected_last, 0.07 * expected_last);
  EXPECT_GT(mean_gap(0, count / 10), 5 * mean_gap(count - count / 10 - 1, count - 1));
}

}  // namespace
}  // namespace llmperf

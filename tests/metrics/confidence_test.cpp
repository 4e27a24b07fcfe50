// Small-sample inference: Student's t quantiles against the table (and the expansion beyond it),
// mean intervals and least-squares slopes against values computed by hand.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/stats/confidence.h"

namespace llmperf {
namespace {

TEST(StudentT, MatchesTheTable) {
  EXPECT_DOUBLE_EQ(student_t975(1), 12.706);
  EXPECT_DOUBLE_EQ(student_t975(2), 4.303);
  EXPECT_DOUBLE_EQ(student_t975(4), 2.776);
  EXPECT_DOUBLE_EQ(student_t975(10), 2.228);
  EXPECT_DOUBLE_EQ(student_t975(30), 2.042);
  EXPECT_TRUE(std::isnan(student_t975(0)));
}

TEST(StudentT, BeyondTheTableFollowsTheExpansionToTheNormal) {
  EXPECT_NEAR(student_t975(31), 2.0395, 0.0005);    // scipy: 2.03951
  EXPECT_NEAR(student_t975(60), 2.0003, 0.0005);    // 2.00030
  EXPECT_NEAR(student_t975(1000), 1.9623, 0.0005);  // 1.96234
  EXPECT_LT(student_t975(31), student_t975(30));
}

TEST(MeanInterval, FiveValuesByHand) {
  // mean 14, sample std sqrt(40 / 4) = 3.16228, half-width 2.776 x sqrt(10 / 5) = 3.925857
  const std::vector<double> v = {10, 12, 14, 16, 18};
  const MeanInterval m = mean_interval(v);
  EXPECT_EQ(m.n, 5u);
  EXPECT_DOUBLE_EQ(m.mean, 14);
  EXPECT_NEAR(m.stddev, 3.16228, 1e-5);
  EXPECT_NEAR(m.ci95_low, 10.074143, 1e-6);
  EXPECT_NEAR(m.ci95_high, 17.925857, 1e-6);
  EXPECT_NEAR(m.cv, 0.225877, 1e-6);
}

TEST(MeanInterval, ThreeValuesByHand) {
  // mean 100, std 2, half-width 4.303 x 2 / sqrt(3) = 4.96868
  const std::vector<double> v = {98, 100, 102};
  const MeanInterval m = mean_interval(v);
  EXPECT_NEAR(m.ci95_low, 95.03132, 1e-5);
  EXPECT_NEAR(m.ci95_high, 104.96868, 1e-5);
  EXPECT_NEAR(m.cv, 0.02, 1e-12);
}

TEST(MeanInterval, OneValueHasNoSpread) {
  const std::vector<double> v = {7.5};
  const MeanInterval m = mean_interval(v);
  EXPECT_EQ(m.n, 1u);
  EXPECT_EQ(m.ci95_low, 7.5);
  EXPECT_EQ(m.ci95_high, 7.5);
  EXPECT_EQ(m.cv, 0);
  EXPECT_EQ(mean_interval(std::vector<double>{}).n, 0u);
}

TEST(LeastSquares, ExactLineHasAnInfiniteTStatistic) {
  const std::vector<double> x = {0, 1, 2, 3};
  const std::vector<double> y = {1, 3, 5, 7};
  const SlopeFit fit = least_squares(x, y);
  EXPECT_DOUBLE_EQ(fit.slope, 2);
  EXPECT_DOUBLE_EQ(fit.mean_y, 4);
  EXPECT_TRUE(std::isinf(fit.t_stat));
}

TEST(LeastSquares, NoisyPointsByHand) {
  // sxx 5, sxy 1, syy 1: slope 0.2, residual 0.8, SE sqrt(0.8 / 2 / 5), t 0.70711
  const std::vector<double> x = {0, 1, 2, 3};
  const std::vector<double> y = {1, 2, 1, 2};
  const SlopeFit fit = least_squares(x, y);
  EXPECT_NEAR(fit.slope, 0.2, 1e-12);
  EXPECT_NEAR(fit.t_stat, 0.707107, 1e-6);
}

TEST(LeastSquares, TooFewPointsOrOneXGiveNoFit) {
  EXPECT_EQ(least_squares(std::vector<double>{0, 1}, std::vector<double>{0, 1}).n, 0u);
  EXPECT_EQ(least_squares(std::vector<double>{2, 2, 2}, std::vector<double>{0, 1, 2}).n, 0u);
  const SlopeFit flat = least_squares(std::vector<double>{0, 1, 2}, std::vector<double>{5, 5, 5});
  EXPECT_EQ(flat.slope, 0);
  EXPECT_EQ(flat.t_stat, 0);
}

}  // namespace
}  // namespace llmperf

// Small-sample inference, pure: Student's t quantile for a two-sided 95 % interval, the mean of a
// few repeated measurements with its 95 % confidence interval and coefficient of variation
// (--num-runs), and a least-squares slope with its t statistic (--stop-on-saturation's test).
#pragma once

#include <cstddef>
#include <span>

namespace llmperf {

// Student's t quantile t(0.975, df): the half-width factor of a two-sided 95 % interval.
// df 1..30 from the standard table (3 decimals, e.g. t(0.975, 4) = 2.776); beyond, the
// Cornish-Fisher expansion around the normal quantile 1.959964 (Abramowitz & Stegun 26.7.5), which
// meets the table at df 30 (2.042) and tends to 1.960. df < 1: NaN.
double student_t975(int df);

// The mean of n repeated measurements and how sure it is.
struct MeanInterval {
  size_t n = 0;       // measurements
  double mean = 0;    // their arithmetic mean
  double stddev = 0;  // sample standard deviation (n - 1 in the denominator); 0 when n < 2
  // Two-sided 95 % confidence interval of the mean, mean ± t(0.975, n-1) × stddev / sqrt(n);
  // [mean, mean] when n < 2 (one measurement says nothing of its spread).
  double ci95_low = 0;
  double ci95_high = 0;
  double cv = 0;  // coefficient of variation, stddev / |mean| (0 when the mean is 0)
};

// The interval of `values` (n >= 1; n = 0 gives an all-zero MeanInterval).
MeanInterval mean_interval(std::span<const double> values);

// Ordinary least-squares fit y = a + b x.
struct SlopeFit {
  size_t n = 0;       // points
  double slope = 0;   // b
  double mean_y = 0;  // mean of y
  double t_stat = 0;  // b / SE(b), SE from the residuals with n - 2 degrees of freedom;
                      // +inf for a perfect positive fit, 0 when b <= 0 with no residual
};

// The fit of the points (x[i], y[i]); x and y have the same size. Fewer than 3 points, or all x
// equal: an all-zero SlopeFit.
SlopeFit least_squares(std::span<const double> x, std::span<const double> y);

}  // namespace llmperf

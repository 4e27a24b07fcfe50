// Small-sample inference (see confidence.h).
#include "metrics/stats/confidence.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace llmperf {
namespace {

// t(0.975, df) for df = 1..30.
constexpr std::array<double, 30> kStudentT975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

}  // namespace

double student_t975(int df) {
  if (df < 1) return std::numeric_limits<double>::quiet_NaN();
  if (df <= static_cast<int>(kStudentT975.size())) {
    return kStudentT975[static_cast<size_t>(df - 1)];
  }
  // Abramowitz & Stegun 26.7.5: t = z + g1/df + g2/df^2, z the normal quantile.
  constexpr double z = 1.959963984540054;
  const double z3 = z * z * z;
  const double z5 = z3 * z * z;
  const double n = df;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

MeanInterval mean_interval(std::span<const double> values) {
  MeanInterval out;
  out.n = values.size();
  if (values.empty()) return out;
  const double n = static_cast<double>(values.size());
  out.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  out.ci95_low = out.ci95_high = out.mean;
  if (values.size() < 2) return out;
  double squares = 0;
  for (const double v : values) squares += (v - out.mean) * (v - out.mean);
  out.stddev = std::sqrt(squares / (n - 1));
  const double half = student_t975(static_cast<int>(values.size()) - 1) * out.stddev / std::sqrt(n);
  out.ci95_low = out.mean - half;
  out.ci95_high = out.mean + half;
  out.cv = out.mean != 0 ? out.stddev / std::fabs(out.mean) : 0;
  return out;
}

SlopeFit least_squares(std::span<const double> x, std::span<const double> y) {
  SlopeFit fit;
  if (x.size() != y.size() || x.size() < 3) return fit;
  const double n = static_cast<double>(x.size());
  const double mean_x = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double mean_y = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxx = 0;
  double sxy = 0;
  double syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
    syy += (y[i] - mean_y) * (y[i] - mean_y);
  }
  if (sxx <= 0) return fit;
  fit.n = x.size();
  fit.slope = sxy / sxx;
  fit.mean_y = mean_y;
  const double residual = std::max(0.0, syy - fit.slope * sxy);
  const double se = std::sqrt(residual / (n - 2) / sxx);
  // A residual this small against the spread of y is rounding: the fit is exact.
  if (se <= 1e-12 * std::max(1.0, std::fabs(fit.slope))) {
    fit.t_stat = fit.slope > 0 ? std::numeric_limits<double>::infinity() : 0;
  } else {
    fit.t_stat = fit.slope / se;
  }
  return fit;
}

}  // namespace llmperf

// Descriptive statistics: numpy.percentile's default "linear" method and a numerically stable
// population standard deviation (corrected two-pass algorithm).
#include "metrics/stats/stats.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace llmperf {

double percentile_sorted(const std::vector<double>& sorted, double p) {
  // numpy.percentile linear: rank = p/100 * (n-1), interpolated between floor and ceil ranks.
  const double clamped = std::clamp(p, 0.0, 100.0);
  const double rank = clamped / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Distribution describe(std::vector<double> samples, const std::vector<double>& percentiles) {
  Distribution d;
  if (samples.empty()) {
    d.percentiles.assign(percentiles.size(), 0.0);
    return d;
  }
  std::sort(samples.begin(), samples.end());
  const auto n = static_cast<double>(samples.size());
  d.count = samples.size();
  d.min = samples.front();
  d.max = samples.back();

  double sum = 0;
  for (double x : samples) sum += x;
  const double first_mean = sum / n;
  // Corrected two-pass variance (Chan, Golub & LeVeque): the second term cancels the rounding
  // error left in first_mean.
  double dev_sum = 0;
  double sq_sum = 0;
  for (double x : samples) {
    const double dev = x - first_mean;
    dev_sum += dev;
    sq_sum += dev * dev;
  }
  d.mean = std::clamp(first_mean + dev_sum / n, d.min, d.max);
  d.std = std::sqrt(std::max(0.0, (sq_sum - dev_sum * dev_sum / n) / n));

  d.percentiles.reserve(percentiles.size());
  for (double p : percentiles) d.percentiles.push_back(percentile_sorted(samples, p));
  return d;
}

}  // namespace llmperf

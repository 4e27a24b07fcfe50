// Descriptive statistics over samples: mean, std, min, max and percentiles with linear
// interpolation between closest ranks (numpy.percentile's default "linear" method).
#pragma once

#include <cstddef>
#include <vector>

namespace llmperf {

// Summary of one set of samples, in the samples' own unit. Empty when count == 0 (reported as
// null); an empty one still holds one 0 per requested percentile, so indexing it is safe.
struct Distribution {
  size_t count = 0;
  double mean = 0;
  double std = 0;  // population standard deviation (numpy.std default, ddof=0)
  double min = 0;
  double max = 0;
  std::vector<double> percentiles;  // values at the requested percentiles, same order
  // The percentiles come from PooledSamples' histogram: each within PooledSamples::kRelativeError
  // of the exact value (count, mean, std, min and max are still exact).
  bool percentiles_approximate = false;
  bool empty() const { return count == 0; }
};

// numpy-style percentile of already *sorted* samples; p in [0, 100] (clamped). Requires
// !sorted.empty().
double percentile_sorted(const std::vector<double>& sorted, double p);

// Sorts a copy-by-value of samples and summarises it at the given percentiles.
Distribution describe(std::vector<double> samples, const std::vector<double>& percentiles);

}  // namespace llmperf

// Pooled samples that can be too many to keep: the inter-token gaps of every chunk of a run (ITL)
// and the client's stamp delays, one per event-loop turn. Exact while the pool is small; past a
// limit it moves every sample into a log-bucketed histogram (HdrHistogram's layout) so that memory
// stays bounded however long the run (DESIGN §3 allows this for ITL on very long runs, with its
// error bound stated and tested).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/stats/stats.h"

namespace llmperf {

class PooledSamples {
 public:
  // Past the exact limit, each percentile is within this fraction of the exact one (values below
  // 16,384, e.g. gaps under 16 us in ns, stay exact). Count, mean, std, min and max stay exact.
  static constexpr double kRelativeError = 1.0 / 16384;
  // 2,000,000 samples: 16 MB of exact values, e.g. 1,000 requests of 2,000 tokens.
  static constexpr size_t kDefaultExactLimit = 2'000'000;

  explicit PooledSamples(size_t exact_limit = kDefaultExactLimit) : exact_limit_(exact_limit) {}

  // Adds one sample (non-negative integer, e.g. nanoseconds; negative values count as 0).
  void add(int64_t value);
  // Adds every sample of `other`.
  void merge(const PooledSamples& other);

  size_t size() const { return exact() ? exact_.size() : moments_.count; }
  // True while every sample is kept, i.e. describe() gives exact percentiles.
  bool exact() const { return buckets_.empty(); }

  // The samples summarised at the given percentiles (numpy's linear method), as describe() does;
  // Distribution::percentiles_approximate is set when the pool has become a histogram. When
  // `quantiles_at` is not empty, `quantiles` receives the value at each of those percentiles
  // (for charts).
  Distribution describe(const std::vector<double>& percentiles,
                        const std::vector<double>& quantiles_at = {},
                        std::vector<double>* quantiles = nullptr) const;

 private:
  // Count, sum, min, max and Welford's mean and sum of squared deviations: exact figures for a
  // histogram. Kept only once the pool is a histogram (computed then from the exact samples), so
  // an exact pool pays nothing per sample beyond storing it.
  struct Moments {
    size_t count = 0;
    long double sum = 0;  // exact for integer sums below 2^64
    double mean = 0;
    double m2 = 0;
    int64_t min = 0;
    int64_t max = 0;
    void add(int64_t value);
    void merge(const Moments& other);  // Chan et al.'s pairwise update
  };
  static Moments moments_of(const std::vector<int64_t>& values);

  void to_histogram();
  void count_in_histogram(int64_t value);

  size_t exact_limit_;
  std::vector<int64_t> exact_;     // every sample, while exact()
  std::vector<uint64_t> buckets_;  // sample counts per bucket, once not exact()
  Moments moments_;                // once not exact()
};

}  // namespace llmperf

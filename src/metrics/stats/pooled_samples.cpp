// PooledSamples (see pooled_samples.h). The histogram is HdrHistogram's log-linear layout: values
// below 2^14 each have a bucket of their own; above, every power of two [2^e, 2^(e+1)) is split
// into 2^13 equal buckets, so a bucket is at most 2^-13 of its lower edge wide and its midpoint is
// within 2^-14 of any value in it. A percentile interpolated between two such midpoints (numpy's
// linear method) is therefore within 2^-14 of the exact percentile.
#include "metrics/stats/pooled_samples.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace llmperf {
namespace {

constexpr int kSubBits = 13;
constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBits;         // 8,192 per power of two
constexpr uint64_t kLinearLimit = uint64_t{1} << (kSubBits + 1);  // 16,384: exact below
static_assert(PooledSamples::kRelativeError == 1.0 / static_cast<double>(kLinearLimit));

size_t bucket_of(uint64_t value) {
  if (value < kLinearLimit) return static_cast<size_t>(value);
  const int exponent = std::bit_width(value) - 1;  // >= kSubBits + 1
  const int shift = exponent - kSubBits;
  const uint64_t mantissa = value >> shift;  // in [kSubBuckets, 2 * kSubBuckets)
  return static_cast<size_t>(kLinearLimit +
                             static_cast<uint64_t>(exponent - kSubBits - 1) * kSubBuckets +
                             (mantissa - kSubBuckets));
}

// The value a bucket stands for: the value itself below kLinearLimit, else the bucket's midpoint.
double bucket_value(size_t bucket) {
  if (bucket < kLinearLimit) return static_cast<double>(bucket);
  const uint64_t k = bucket - kLinearLimit;
  const int shift = static_cast<int>(k / kSubBuckets) + 1;
  const uint64_t lower = (kSubBuckets + k % kSubBuckets) << shift;
  return static_cast<double>(lower) + static_cast<double>(uint64_t{1} << shift) / 2;
}

}  // namespace

void PooledSamples::Moments::add(int64_t value) {
  if (count == 0) {
    min = max = value;
  } else {
    min = std::min(min, value);
    max = std::max(max, value);
  }
  ++count;
  sum += static_cast<long double>(value);
  const double delta = static_cast<double>(value) - mean;
  mean += delta / static_cast<double>(count);
  m2 += delta * (static_cast<double>(value) - mean);
}

void PooledSamples::Moments::merge(const Moments& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  const auto n_a = static_cast<double>(count);
  const auto n_b = static_cast<double>(other.count);
  const double delta = other.mean - mean;
  m2 += other.m2 + delta * delta * n_a * n_b / (n_a + n_b);
  mean += delta * n_b / (n_a + n_b);
  sum += other.sum;
  count += other.count;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
}

PooledSamples::Moments PooledSamples::moments_of(const std::vector<int64_t>& values) {
  Moments m;
  for (int64_t v : values) m.add(v);
  return m;
}

void PooledSamples::add(int64_t value) {
  value = std::max<int64_t>(value, 0);
  if (exact()) {
    exact_.push_back(value);
    if (exact_.size() > exact_limit_) to_histogram();
  } else {
    moments_.add(value);
    count_in_histogram(value);
  }
}

void PooledSamples::merge(const PooledSamples& other) {
  if (other.size() == 0) return;
  if (exact() && other.exact() && exact_.size() + other.exact_.size() <= exact_limit_) {
    exact_.insert(exact_.end(), other.exact_.begin(), other.exact_.end());
    return;
  }
  if (exact()) to_histogram();
  if (other.exact()) {
    moments_.merge(moments_of(other.exact_));
    for (int64_t v : other.exact_) count_in_histogram(v);
  } else {
    moments_.merge(other.moments_);
    if (buckets_.size() < other.buckets_.size()) buckets_.resize(other.buckets_.size(), 0);
    for (size_t i = 0; i < other.buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  }
}

void PooledSamples::to_histogram() {
  std::vector<int64_t> samples;
  samples.swap(exact_);
  moments_ = moments_of(samples);
  buckets_.assign(kLinearLimit, 0);  // never empty again: exact() is false from here on
  for (int64_t v : samples) count_in_histogram(v);
}

void PooledSamples::count_in_histogram(int64_t value) {
  const size_t bucket = bucket_of(static_cast<uint64_t>(value));
  if (bucket >= buckets_.size()) buckets_.resize(bucket + 1, 0);
  ++buckets_[bucket];
}

Distribution PooledSamples::describe(const std::vector<double>& percentiles,
                                     const std::vector<double>& quantiles_at,
                                     std::vector<double>* quantiles) const {
  if (exact()) {
    std::vector<double> values(exact_.begin(), exact_.end());
    std::sort(values.begin(), values.end());
    if (quantiles != nullptr) {
      quantiles->clear();
      if (!values.empty()) {
        for (double p : quantiles_at) quantiles->push_back(percentile_sorted(values, p));
      }
    }
    return llmperf::describe(std::move(values), percentiles);
  }
  // Histogram: numpy.percentile's linear method, as percentile_sorted(), over the bucket values,
  // finding the bucket of each rank in the cumulative counts. The extreme ranks are min and max.
  const Moments& m = moments_;
  const size_t count = m.count;
  std::vector<uint64_t> cumulative(buckets_.size());
  uint64_t running = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) cumulative[i] = running += buckets_[i];
  auto value_at_rank = [&](size_t rank) {
    if (rank == 0) return static_cast<double>(m.min);
    if (rank + 1 >= count) return static_cast<double>(m.max);
    const auto bucket = static_cast<size_t>(
        std::upper_bound(cumulative.begin(), cumulative.end(), rank) - cumulative.begin());
    return std::clamp(bucket_value(bucket), static_cast<double>(m.min), static_cast<double>(m.max));
  };
  auto percentile = [&](double p) {
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(count - 1);
    const auto lo = static_cast<size_t>(std::floor(rank));
    const double low = value_at_rank(lo);
    return low + (value_at_rank(std::min(lo + 1, count - 1)) - low) * (rank - std::floor(rank));
  };

  Distribution d;
  d.count = count;
  d.min = static_cast<double>(m.min);
  d.max = static_cast<double>(m.max);
  d.mean = std::clamp(static_cast<double>(m.sum / static_cast<long double>(count)), d.min, d.max);
  d.std = std::sqrt(std::max(0.0, m.m2 / static_cast<double>(count)));
  d.percentiles_approximate = true;
  for (double p : percentiles) d.percentiles.push_back(percentile(p));
  if (quantiles != nullptr) {
    quantiles->clear();
    for (double p : quantiles_at) quantiles->push_back(percentile(p));
  }
  return d;
}

}  // namespace llmperf

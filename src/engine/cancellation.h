// --cancel-rate: which measured requests are closed on purpose. A pure function of the seed and
// the request's id, so the same requests are chosen on every run with that --seed, whatever the
// threads, and every shard of a sharded benchmark agrees with the single-process run.
#pragma once

#include <cstdint>

namespace llmperf {

// True when request `id` is one of the fraction `rate` (0-1) that --cancel-rate closes:
// splitmix64(seed, id) mapped to [0, 1) is below rate.
inline bool chosen_for_cancel(uint64_t seed, uint64_t id, double rate) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (id + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53 < rate;
}

}  // namespace llmperf

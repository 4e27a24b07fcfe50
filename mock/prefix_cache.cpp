// The prefix cache's hash chain and LRU (see prefix_cache.h). Keys are 64-bit hashes; a collision
// would count as a hit, which at this width is not worth guarding against.
#include "prefix_cache.h"

#include <algorithm>

namespace llmperf::mock {
namespace {

// The parent key of a prompt's first block.
constexpr std::uint64_t kPrefixCacheRootKey = 0x6c6c6d706572662dULL;

// splitmix64's finaliser: a bijective 64-bit mix.
std::uint64_t prefix_cache_mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Key of a block: a hash of its parent's key and its token ids, in order.
std::uint64_t prefix_cache_block_key(std::uint64_t parent, std::span<const std::int64_t> block) {
  std::uint64_t h = prefix_cache_mix(parent);
  for (const std::int64_t id : block) {
    h = prefix_cache_mix(h ^ (static_cast<std::uint64_t>(id) + 0x9e3779b97f4a7c15ULL));
  }
  return h;
}

}  // namespace

PrefixCache::PrefixCache(std::int64_t capacity_tokens, std::int64_t block_tokens)
    : block_tokens_(std::max<std::int64_t>(block_tokens, 1)),
      capacity_blocks_(
          static_cast<std::size_t>(std::max<std::int64_t>(capacity_tokens, 0) / block_tokens_)) {}

std::int64_t PrefixCache::lookup_and_insert(std::span<const std::int64_t> ids) {
  if (capacity_blocks_ == 0 || ids.empty()) return 0;
  const auto block = static_cast<std::size_t>(block_tokens_);
  const std::size_t full_blocks = ids.size() / block;
  keys_.clear();
  std::uint64_t parent = kPrefixCacheRootKey;
  for (std::size_t i = 0; i < full_blocks; ++i) {
    parent = prefix_cache_block_key(parent, ids.subspan(i * block, block));
    keys_.push_back(parent);
  }
  std::size_t hit_blocks = 0;
  while (hit_blocks < full_blocks && index_.contains(keys_[hit_blocks])) ++hit_blocks;
  // The last prompt token is always computed: at most (prompt_tokens - 1) / B blocks count.
  const std::size_t cacheable_blocks = (ids.size() - 1) / block;
  for (std::size_t i = full_blocks; i-- > 0;) touch(keys_[i]);
  return static_cast<std::int64_t>(std::min(hit_blocks, cacheable_blocks)) * block_tokens_;
}

void PrefixCache::touch(std::uint64_t key) {
  if (const auto found = index_.find(key); found != index_.end()) {
    lru_.splice(lru_.begin(), lru_, found->second);
    return;
  }
  lru_.push_front(key);
  index_.emplace(key, lru_.begin());
  if (lru_.size() > capacity_blocks_) {
    index_.erase(lru_.back());
    lru_.pop_back();
  }
}

}  // namespace llmperf::mock

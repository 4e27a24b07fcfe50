// llmperf-mock's automatic prefix cache, modelled on vLLM's: a prompt's token ids are cut into
// full blocks of B tokens, and block i is known by a hash of (the key of block i-1, its B ids), a
// hash chain, so a block only matches when everything before it matches too. The cache holds keys
// only (the mock computes nothing), at most capacity / B of them, least recently used evicted
// first. It is what --prefix-cache-tokens, --cache-block-tokens and --prefill-us-per-token drive.
#pragma once

#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

namespace llmperf::mock {

// An LRU set of prompt-block keys; used by the io thread only, so not locked.
class PrefixCache {
 public:
  // Holds floor(`capacity_tokens` / `block_tokens`) blocks of `block_tokens` (>= 1) tokens;
  // a capacity below one block (0 included) caches nothing and never hits.
  PrefixCache(std::int64_t capacity_tokens, std::int64_t block_tokens);

  // A request's prompt `ids` start: returns its cached tokens, B x the number of its leading full
  // blocks found in the cache, capped at prompt_tokens - 1 rounded down to a multiple of B (as in
  // vLLM, the last prompt token is always computed). Then every full block of `ids` is inserted or
  // touched, the earlier blocks most recent, so eviction takes a prompt's tail before its head
  // (vLLM frees a request's blocks in reverse order for the same reason).
  std::int64_t lookup_and_insert(std::span<const std::int64_t> ids);

  std::int64_t block_tokens() const { return block_tokens_; }
  // Blocks the cache may hold.
  std::size_t capacity_blocks() const { return capacity_blocks_; }
  // Blocks it holds now.
  std::size_t size_blocks() const { return lru_.size(); }

 private:
  // Makes `key` the most recently used block, inserting it (and evicting beyond capacity).
  void touch(std::uint64_t key);

  std::int64_t block_tokens_;     // B, tokens per block
  std::size_t capacity_blocks_;   // most blocks held
  std::list<std::uint64_t> lru_;  // block keys, most recently used first
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> index_;  // key -> lru_
  std::vector<std::uint64_t> keys_;  // scratch: block keys of the prompt being looked up
};

}  // namespace llmperf::mock

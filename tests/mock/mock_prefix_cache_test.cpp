// llmperf-mock's prefix cache without sockets: the hash chain (a shared prefix hits, a changed
// early token misses everything after it), whole blocks only, the last-token cap, LRU eviction
// (least recent prompt first, a prompt's tail before its head) and a zero capacity; then the
// prompt ids behind it, which must be exactly the tokens usage.prompt_tokens counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include "openai_request.h"
#include "prefix_cache.h"
#include "tokenizer.h"

namespace llmperf::mock {
namespace {

using Ids = std::vector<std::int64_t>;

// `count` distinct ids starting at `first`.
Ids run(std::int64_t first, std::size_t count) {
  Ids ids(count);
  std::iota(ids.begin(), ids.end(), first);
  return ids;
}

Ids concat(Ids a, const Ids& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(MockPrefixCache, ASharedPrefixHitsItsWholeBlocks) {
  PrefixCache cache(1024, 4);
  const Ids system = run(1, 10);  // two full blocks and two tokens
  EXPECT_EQ(cache.lookup_and_insert(concat(system, run(100, 7))), 0);  // 17 tokens: 4 blocks
  EXPECT_EQ(cache.size_blocks(), 4u);
  // Same 10-token prefix, another question: blocks 0 and 1 match; block 2 mixes old and new.
  EXPECT_EQ(cache.lookup_and_insert(concat(system, run(200, 7))), 8);
  // The first prompt again: all 4 blocks hit (17 - 1 = 16 allows all of them).
  EXPECT_EQ(cache.lookup_and_insert(concat(system, run(100, 7))), 16);
}

TEST(MockPrefixCache, AChangedEarlyTokenMissesEverythingAfterIt) {
  PrefixCache cache(1024, 4);
  const Ids prompt = run(1, 21);
  EXPECT_EQ(cache.lookup_and_insert(prompt), 0);
  Ids changed = prompt;
  changed[5] = 999;  // in block 1: block 0 still matches, blocks 1..4 do not (the chain)
  EXPECT_EQ(cache.lookup_and_insert(changed), 4);
  changed = prompt;
  changed[0] = 999;  // in block 0: nothing matches, although blocks 1..4 hold the same ids
  EXPECT_EQ(cache.lookup_and_insert(changed), 0);
  EXPECT_EQ(cache.lookup_and_insert(prompt), 20);
}

TEST(MockPrefixCache, OnlyFullBlocksAreCachedAndTheLastTokenIsAlwaysComputed) {
  PrefixCache cache(1024, 4);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 3)), 0);  // no full block: nothing inserted
  EXPECT_EQ(cache.size_blocks(), 0u);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 3)), 0);

  EXPECT_EQ(cache.lookup_and_insert(run(1, 11)), 0);  // blocks [1..4] [5..8]; 9..11 left over
  EXPECT_EQ(cache.size_blocks(), 2u);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 11)), 8);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 9)), 8);  // 9 - 1 = 8 allows both blocks
  // 8 tokens: both blocks are cached, but 8 - 1 = 7 rounds down to one block.
  EXPECT_EQ(cache.lookup_and_insert(run(1, 8)), 4);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 5)), 4);
  EXPECT_EQ(cache.lookup_and_insert(run(1, 4)), 0);  // one block, but 4 - 1 = 3 allows none
  EXPECT_EQ(cache.lookup_and_insert(Ids{}), 0);
}

TEST(MockPrefixCache, CapacityIsWholeBlocks) {
  EXPECT_EQ(PrefixCache(1024, 16).capacity_blocks(), 64u);
  EXPECT_EQ(PrefixCache(1023, 16).capacity_blocks(), 63u);
  EXPECT_EQ(PrefixCache(15, 16).capacity_blocks(), 0u);
  EXPECT_EQ(PrefixCache(0, 16).capacity_blocks(), 0u);
}

TEST(MockPrefixCache, TheLeastRecentlyUsedPromptIsEvictedFirst) {
  PrefixCache cache(16, 4);   // 4 blocks
  const Ids a = run(100, 9);  // 2 full blocks each
  const Ids b = run(200, 9);
  const Ids c = run(300, 9);
  EXPECT_EQ(cache.lookup_and_insert(a), 0);
  EXPECT_EQ(cache.lookup_and_insert(b), 0);
  EXPECT_EQ(cache.size_blocks(), 4u);
  EXPECT_EQ(cache.lookup_and_insert(a), 8);  // a is now more recent than b
  EXPECT_EQ(cache.lookup_and_insert(c), 0);  // evicts b's two blocks
  EXPECT_EQ(cache.size_blocks(), 4u);
  EXPECT_EQ(cache.lookup_and_insert(a), 8);
  EXPECT_EQ(cache.lookup_and_insert(c), 8);
  EXPECT_EQ(cache.lookup_and_insert(b), 0);  // gone (and now back in, evicting a)
  EXPECT_EQ(cache.lookup_and_insert(a), 0);
}

TEST(MockPrefixCache, EvictionTakesAPromptsTailBeforeItsHead) {
  PrefixCache cache(12, 4);  // 3 blocks
  const Ids a = run(100, 9);
  EXPECT_EQ(cache.lookup_and_insert(a), 0);            // a0 a1
  EXPECT_EQ(cache.lookup_and_insert(run(200, 9)), 0);  // b0 b1 a0: a's tail block went first
  EXPECT_EQ(cache.lookup_and_insert(a), 4);            // a0 still hits; a1 does not
  // A prompt longer than the cache keeps its head: the first 3 of its 5 blocks.
  const Ids longer = run(500, 21);
  EXPECT_EQ(cache.lookup_and_insert(longer), 0);
  EXPECT_EQ(cache.size_blocks(), 3u);
  EXPECT_EQ(cache.lookup_and_insert(longer), 12);
}

TEST(MockPrefixCache, ZeroCapacityNeverHits) {
  PrefixCache cache(0, 16);
  const Ids prompt = run(1, 100);
  EXPECT_EQ(cache.lookup_and_insert(prompt), 0);
  EXPECT_EQ(cache.lookup_and_insert(prompt), 0);
  EXPECT_EQ(cache.size_blocks(), 0u);
}

// The prompt ids the cache is fed are the tokens usage.prompt_tokens counts.
CompletionRequest parsed(Endpoint endpoint, const nlohmann::json& body) {
  CompletionParse result = parse_completion_request(endpoint, body.dump(), PromptIds::kKeep);
  EXPECT_TRUE(std::holds_alternative<CompletionRequest>(result)) << body.dump();
  return std::holds_alternative<CompletionRequest>(result) ? std::get<CompletionRequest>(result)
                                                           : CompletionRequest{};
}

TEST(MockPrefixCache, ChatPromptIdsAreBosAndTheChatMlTextAsCounted) {
  const nlohmann::json messages = nlohmann::json::array(
      {{{"role", "system"}, {"content", "You are terse."}}, {{"role", "user"}, {"content", "Hi"}}});
  const CompletionRequest request = parsed(Endpoint::kChat, {{"messages", messages}});
  EXPECT_EQ(request.prompt_tokens, chat_prompt_tokens(messages).value());
  EXPECT_EQ(request.prompt_ids, tokenize(apply_chat_template(messages, true).value(), true));
  // Counting alone keeps no ids.
  const CompletionParse counted =
      parse_completion_request(Endpoint::kChat, nlohmann::json{{"messages", messages}}.dump());
  EXPECT_TRUE(std::get<CompletionRequest>(counted).prompt_ids.empty());
  EXPECT_EQ(std::get<CompletionRequest>(counted).prompt_tokens, request.prompt_tokens);
}

TEST(MockPrefixCache, CompletionPromptIdsAreBosAndTheTextOrTheIdsSent) {
  const CompletionRequest text = parsed(Endpoint::kCompletions, {{"prompt", "hello world"}});
  EXPECT_EQ(text.prompt_ids, tokenize("hello world", true));  // BOS "hell" "o" " wor" "ld"
  EXPECT_EQ(text.prompt_tokens, 5);
  const CompletionRequest ids = parsed(Endpoint::kCompletions, {{"prompt", {7, 8, 9}}});
  EXPECT_EQ(ids.prompt_ids, (Ids{7, 8, 9}));
  EXPECT_EQ(ids.prompt_tokens, 3);
  const CompletionRequest nested =
      parsed(Endpoint::kCompletions, {{"prompt", nlohmann::json::array({{7, 8}, {9}})}});
  EXPECT_EQ(nested.prompt_ids, (Ids{7, 8, 9}));
  EXPECT_EQ(nested.prompt_tokens, 3);
}

}  // namespace
}  // namespace llmperf::mock

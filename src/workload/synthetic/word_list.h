// Random text for synthetic prompts: words drawn from a bundled list of English and Chinese words
// (word_list.cpp), so that prompts look like language to a tokenizer and no two share a prefix
// by construction.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>

namespace llmperf {

std::span<const std::string_view> english_words();
std::span<const std::string_view> chinese_words();

// Appends `words` random words to `out`, each after one space, with a full stop ending every
// sentence of 8 to 15 words. Until `mixed_words` words are written, about one word in five is
// Chinese; after that only English words are drawn, so that a cut near the end of the text (where
// length fitting cuts) falls between ASCII characters.
void append_random_words(std::mt19937_64& rng, int64_t words, int64_t mixed_words,
                         std::string& out);

}  // namespace llmperf

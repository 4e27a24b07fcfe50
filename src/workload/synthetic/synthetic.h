// Synthetic prompts defined in tokens (--dataset random, and the speed_benchmark preset): input
// and output lengths drawn per request, random words from the bundled word list, an optional
// prefix shared by every prompt of the run, and each prompt cut to its exact length with the
// server's tokenizer (prompt_fitting.h). Without a tokenize API the lengths come from a
// LengthModel instead and are labelled approximate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "workload/dataset.h"
#include "workload/tokenizer.h"

namespace llmperf {

// An inclusive range of lengths, drawn uniformly per request; min == max is a fixed length.
struct LengthRange {
  int64_t min = 0;
  int64_t max = 0;
};

// One run's synthetic workload.
struct SyntheticSpec {
  int64_t count = 0;          // prompts to make
  LengthRange input;          // tokens of each request as the server counts them (usage.prompt_
                              // tokens: chat template and special tokens included), prefix excluded
  LengthRange output;         // the output length asked of each request (its max_tokens)
  int64_t prefix_tokens = 0;  // a prefix shared by every prompt, on top of the input length
  uint64_t seed = 0;          // lengths and text (the caller mixes in the run number)
  bool token_ids = false;     // --tokenize-prompt: prompts are token ids
};

// How token counts are estimated when the server has no tokenize API:
// tokens = overhead + per_word x words + per_code_point x code points.
struct LengthModel {
  double overhead = 0;        // tokens every request carries (chat template, special tokens)
  double per_word = 0;        // tokens per word of synthetic text
  double per_code_point = 0;  // tokens per Unicode code point (0.25: ceil(code points / 4))
};

struct SyntheticPrompts {
  std::vector<Prompt> prompts;
  int64_t misses = 0;      // prompts whose fitted count differs from their target
  int64_t raised = 0;      // prompts whose drawn length was below the template's, raised to it
  int64_t fit_counts = 0;  // count() calls the fitting made, over all prompts
  std::string prefix;      // the shared prefix text ("" without --prefix-length)
};

using FitProgress = std::function<void(size_t done, size_t total)>;

// Prompts cut to their exact lengths with `tokenizer`. Throws TokenizerError when the tokenizer
// fails, std::invalid_argument when a length is below what the template alone counts.
SyntheticPrompts make_exact_prompts(Tokenizer& tokenizer, const SyntheticSpec& spec,
                                    const FitProgress& progress = {});

// Prompts whose lengths `model` estimates (approximate).
SyntheticPrompts make_estimated_prompts(const LengthModel& model, const SyntheticSpec& spec);

// The prefix group of each of `count` requests (--dataset shared_prefix), drawn from `seed`:
// uniformly among `groups` when zipf is 0, else group g (0-based) with probability proportional to
// 1 / (g + 1)^zipf, so group 0 is the most popular.
std::vector<int32_t> draw_prefix_groups(int64_t groups, double zipf, int64_t count, uint64_t seed);

// Text of about `words` random words (for calibration probes), from `seed`.
std::string random_text(uint64_t seed, int64_t words);

}  // namespace llmperf

// Length fitting: cuts candidate texts so that each prompt counts exactly its target number of
// tokens, as the server under test counts them (Tokenizer::count: chat template and special
// tokens included). For a batch of prompts:
//   1. encode each candidate body once (plain tokens);
//   2. cut it to n tokens (decode the first n ids, or cut at the offset of token n), put the shared
//      prefix before it and count the whole prompt; n starts at target - count(prefix alone);
//   3. where the count misses, move n by the difference and try again, at most max_tries counts
//      per body; a cut that would repeat an earlier one ends the search (the tokenizer merges
//      across the cut so that the target cannot be met by cutting there);
//   4. a prompt that missed gets a new body (FitOptions::redraw) and a new search, twice at most.
// A prompt that still misses keeps its closest attempt and reports its count (a recorded miss).
// A cut inside a multi-byte character drops the broken character (utf8_whole_prefix).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "workload/tokenizer.h"

namespace llmperf {

struct FitItem {
  std::string body;    // candidate text, with more tokens than needed; cut from its end
  int64_t target = 0;  // tokens the whole prompt must count (prefix included)
};

struct FitOptions {
  std::string prefix;  // shared text before every body (already cut to its length); may be empty
  // --tokenize-prompt: the prompts are sent as token ids, so the result is the prefix's ids plus
  // the body's first ids, exactly target of them, and nothing is counted.
  bool token_ids = false;
  std::vector<int64_t> prefix_ids;  // the prefix's ids, with token_ids
  int max_tries = 8;                // counts per body before it is given up
  // New candidate body for item `index` whose every cut missed (the tokenizer merges tokens
  // across the cut, e.g. ". har" counting differently from ". harbor"), `attempt` = 1, 2, ...;
  // at most max_redraws times. Unset: no redraws.
  std::function<std::string(size_t index, int attempt)> redraw;
  int max_redraws = 2;
  // Targets below what the prefix alone counts (with the template): raise them to that instead
  // of failing (lengths drawn from a range that starts below the template's size).
  bool raise_short_targets = false;
  // Called after every round with the prompts finished so far.
  std::function<void(size_t done, size_t total)> progress;
};

struct FitResult {
  std::string text;          // prefix + cut body
  std::vector<int64_t> ids;  // with token_ids: the ids to send
  int64_t target = 0;        // what was asked (raised to the smallest possible, if allowed)
  bool raised = false;       // the target was raised (raise_short_targets)
  int64_t realized = 0;      // what the tokenizer counts for `text` (or ids.size())
  int tries = 0;             // counts it took
  bool exact() const { return realized == target; }
};

// Fits every item (see above). Throws TokenizerError when the tokenizer fails, and
// std::invalid_argument when a target is below what the prefix alone (with the chat template)
// counts, unless raise_short_targets.
std::vector<FitResult> fit_prompts(Tokenizer& tokenizer, const std::vector<FitItem>& items,
                                   const FitOptions& options);

}  // namespace llmperf

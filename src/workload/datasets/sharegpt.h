// ShareGPT conversations (--dataset sharegpt): the streaming reader and vLLM's sampling rules.
//
// The file is a JSON list of {"id", "conversations": [{"from": "human" | "gpt", "value"}, ...]}
// (turns as {"role", "content"} are read too, and the list may be called "messages", as in
// OpenAI's chat format), or JSON lines of such objects. It is read item by
// item (JsonListScanner finds where each ends; nlohmann's SAX interface reads only the turns
// wanted), so memory is bounded by the conversations kept, not by the file (the public file is
// about 650 MB). A malformed item is skipped and counted with its number, like the other datasets.
//
// Sampling follows vLLM's benchmark: conversations with fewer than two turns are skipped; the first
// turn is the prompt and the second the reference answer; the order is shuffled with --seed; the
// prompt and the answer are each measured on their own as vLLM does (len(tokenizer(text).
// input_ids): the tokenizer's default special tokens, no chat template: Tokenizer::count_text); a
// pair is dropped when the prompt or the answer has fewer than 4 tokens (the answer check is
// skipped with a fixed output length), when the prompt has more than 1,024, or prompt + answer
// more than 2,048 (ShareGptLimits, sharegpt_fit); the rest are taken in order until enough. A
// kept prompt's target_input_tokens is its templated count (Tokenizer::count: what the server
// reports as usage.prompt_tokens); max_tokens is the answer's length, or --sharegpt-output-len.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "core/workload_info.h"
#include "workload/dataset.h"
#include "workload/synthetic/synthetic.h"
#include "workload/tokenizer.h"

namespace llmperf {

struct ShareGptTurn {
  std::string role;  // "from" ("human", "gpt", ...) or "role"
  std::string text;  // "value" or "content"
};

struct Conversation {
  int64_t number = 0;  // 1-based position in the file
  std::vector<ShareGptTurn> turns;
};

// Reads every conversation of `in` (ShareGPT JSON list or JSON lines), keeping at most
// `max_turns` turns of each, and hands each with at least `min_turns` turns to `on_conversation`.
// Counts in `stats`: records_read (items), malformed (with numbers and the first reason),
// skipped_turns (fewer than min_turns), accepted (handed over). Never throws for bad content.
void read_sharegpt(std::istream& in, size_t max_turns, size_t min_turns,
                   const std::function<void(Conversation&&)>& on_conversation, DatasetStats& stats);

// vLLM's length limits, in tokens (flags change them).
struct ShareGptLimits {
  int64_t min_tokens = 4;            // --sharegpt-min-len: shortest prompt and answer
  int64_t max_prompt_tokens = 1024;  // --sharegpt-max-input-len
  int64_t max_total_tokens = 2048;   // --sharegpt-max-total-len: prompt + answer
  int64_t output_len = -1;           // --sharegpt-output-len: fixed max_tokens; -1: the answer's
};

// Whether one pair passes `limits`.
enum class ShareGptFit { kKept, kTooShort, kTooLong };

// vLLM's is_valid_sequence: `prompt_tokens` and `answer_tokens` are the texts' own counts;
// with limits.output_len > 0 that is the output and the answer's own length is not checked.
ShareGptFit sharegpt_fit(const ShareGptLimits& limits, int64_t prompt_tokens,
                         int64_t answer_tokens);

struct ShareGptSpec {
  std::string path;   // the ShareGPT file
  int64_t count = 0;  // prompts wanted
  uint64_t seed = 0;  // --seed: which conversations, in which order
  ShareGptLimits limits;
};

// What sampling did, for the log and summary.json.
struct ShareGptSampling {
  int64_t candidates = 0;  // conversations drawn from the file (a seeded random subset)
  int64_t measured = 0;    // of those, measured with the tokenizer
  int64_t too_short = 0;   // dropped: prompt or answer under min_tokens
  int64_t too_long = 0;    // dropped: prompt over max_prompt_tokens or total over max_total
};

using LengthProgress = std::function<void(size_t done, size_t total)>;

// Samples `spec.count` prompts (fewer when the file has fewer that pass; the engine cycles them).
// Lengths come from `tokenizer` when given, else from `estimate` (approximate: the filter then
// uses a text's estimate without the per-request overhead). Each prompt's target_input_tokens is
// its templated count and target_output_tokens its max_tokens. Throws
// DatasetError when the file cannot be read or nothing usable remains, TokenizerError when the
// tokenizer fails.
std::vector<Prompt> sample_sharegpt(const ShareGptSpec& spec, Tokenizer* tokenizer,
                                    const LengthModel* estimate, DatasetStats& stats,
                                    ShareGptSampling& sampling,
                                    const LengthProgress& progress = {});

// The tokens `model` estimates for `text` (LengthModel without a tokenizer).
int64_t estimate_tokens(const LengthModel& model, std::string_view text);

}  // namespace llmperf

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
// turn is the prompt and the second the reference answer; the order is shuffled with --seed; each
// prompt is measured as the server counts it (chat template included, through the Tokenizer) and
// each answer as plain text; a pair is dropped when the prompt or the answer has fewer than 4
// tokens (the answer check is skipped with a fixed output length), when the prompt has more than
// 1,024, or prompt + answer more than 2,048 (ShareGptLimits); the rest are taken in order until
// enough. max_tokens is the answer's length, or the fixed --sharegpt-output-len.
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
// Lengths come from `tokenizer` when given, else from `estimate` (approximate). Each prompt's
// target_input_tokens is its measured length and target_output_tokens its max_tokens. Throws
// DatasetError when the file cannot be read or nothing usable remains, TokenizerError when the
// tokenizer fails.
std::vector<Prompt> sample_sharegpt(const ShareGptSpec& spec, Tokenizer* tokenizer,
                                    const LengthModel* estimate, DatasetStats& stats,
                                    ShareGptSampling& sampling,
                                    const LengthProgress& progress = {});

// The tokens `model` estimates for `text` (LengthModel without a tokenizer).
int64_t estimate_tokens(const LengthModel& model, std::string_view text);

}  // namespace llmperf

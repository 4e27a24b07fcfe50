// Trace replay, workload stage (--dataset mooncake_trace): reading a trace of timed requests and
// turning its entries into prompts. A trace file is JSON lines in one of two forms, decided per
// file by the first JSON-object line that has a "body" key (workload trace) or an "input_length"
// or "hash_ids" key (Mooncake); a line of the other form later in the file is malformed.
//
// - Mooncake (github.com/kvcache-ai/Mooncake, the FAST'25 traces):
//     {"timestamp": <ms>, "input_length": N, "output_length": M, "hash_ids": [h, ...]}
//   timestamp in milliseconds (a JSON number, integer or not); 1 <= N, M <= kMaxTraceLength;
//   hash_ids optional (missing or [] = no shared blocks), integers (compared as 64-bit patterns),
//   at most N of them. Hash id k names prompt tokens [k * block, (k + 1) * block); equal ids in
//   different lines are identical token blocks: the trace's prefix-cache reuse.
// - EvalScope's workload trace (evalscope/perf/plugin/datasets/workload_trace.py):
//     {"timestamp": <s>, "body": {...}, "headers": {...}, "request_id": "...",
//      "completion_tokens": K}
//   timestamp in seconds (EvalScope subtracts the first and sleeps that many seconds): a number, a
//   numeric string or an ISO-8601 date-time (no zone = UTC); body an object, or a string holding
//   one, sent as given, without EvalScope's reserved "__evalscope_*" keys; headers (string
//   values), request_id and completion_tokens (> 0) optional, null = absent.
// Keys neither form knows are ignored (EvalScope rejects the whole file instead). Malformed lines
// are skipped and counted with their numbers, blank lines skipped; nothing usable is an error.
//
// Time: entries are kept in file order up to the limit, then stable-sorted by timestamp; a line
// whose timestamp is earlier than the line before it counts in out_of_order (the caller warns).
// Offsets are rebased so the earliest timestamp is 0 and kept in integer nanoseconds; timestamps
// beyond +-kMaxTraceTimestampNs (about year 2096 as Unix time) are malformed.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/workload_info.h"
#include "workload/dataset.h"
#include "workload/synthetic/synthetic.h"
#include "workload/tokenizer.h"

namespace llmperf {

// Longest input or output a Mooncake line may ask for, in tokens (longer lines are malformed):
// keeps a hostile file from making the prompt builder allocate without bound.
inline constexpr int64_t kMaxTraceLength = 10'000'000;
// Largest |timestamp| accepted, in ns, so that differences of two timestamps fit in int64.
inline constexpr int64_t kMaxTraceTimestampNs = 4'000'000'000'000'000'000;

// One timed request of a trace.
struct TraceEntry {
  int64_t offset_ns = 0;       // planned send offset from the earliest timestamp (before speedup)
  int64_t input_length = -1;   // Mooncake: prompt tokens as the server counts them; -1: body form
  int64_t output_length = -1;  // Mooncake: max_tokens (sent with ignore_eos); body form:
                               // completion_tokens, -1 when absent
  std::vector<int64_t> hash_ids;  // Mooncake: the id of each block of the prompt, in order
  std::string body_json;          // body form: the request body (compact JSON object text)
  std::vector<std::pair<std::string, std::string>> headers;  // body form: per-request headers
  std::string request_id;                                    // body form: "" when absent
  int64_t line = 0;                                          // 1-based line number in the file
};

struct TraceFile {
  std::vector<TraceEntry> entries;  // sorted by offset_ns (stable: file order among equals)
  DatasetStats stats;        // records_read = lines read, skipped_empty = blank lines, malformed
  int64_t out_of_order = 0;  // lines whose timestamp is earlier than the previous entry's
  bool bodies = false;       // the workload-trace form (entries carry body_json)
};

// Reads up to `limit` (>= 1) entries, line by line: memory is bounded by the entries kept. Throws
// DatasetError naming the file when it cannot be read or no entry is usable (with the counts and
// the first malformed lines), std::invalid_argument for limit < 1.
TraceFile read_trace(const std::string& path, int64_t limit);
// The same on a stream; `name` names it in errors.
TraceFile parse_trace(std::istream& in, std::string_view name, int64_t limit);

// The planned send offsets (ns) of `entries` at `speedup` (> 0; 2 replays twice as fast):
// offset_ns / speedup, rounded. Throws std::invalid_argument for a speedup that is not a positive
// finite number or that pushes an offset past kMaxTraceTimestampNs.
std::vector<int64_t> trace_schedule(const std::vector<TraceEntry>& entries, double speedup);

struct TraceBuildOptions {
  int64_t block_tokens = 512;  // tokens per hash id (Mooncake's block size); >= 1
  uint64_t seed = 0;           // text of every block and unique tail (the caller mixes in the run)
  bool token_ids = false;      // --tokenize-prompt: prompts are ids, exactly input_length of them
  // Body form: send completion_tokens as max_tokens (EvalScope's match_output_length).
  bool match_output_length = false;
};

struct TracePrompts {
  std::vector<Prompt> prompts;  // one per entry, in the entries' order
  int64_t misses = 0;           // prompts whose count differs from input_length (counted only)
  int64_t fit_counts = 0;       // prompts the tokenizer counted, over all rounds
  int64_t distinct_blocks = 0;  // hash ids that contribute tokens to some prompt
  int64_t reused_blocks = 0;    // block uses beyond the first use of each hash id
};

// Mooncake entries -> prompts (text, or ids with token_ids). The block of a hash id is the same
// text (the same tokens) in every prompt that names it: random English words from the bundled
// list seeded by (seed, hash id), each block starting with a space so that tokens do not merge
// across block boundaries, cut to block_tokens tokens with the tokenizer (each distinct block
// encoded once; the first block_tokens ids decoded, or the text cut at Encoding::ends). Blocks are
// laid over the prompt text, whose tokens are input_length minus what the chat template and
// special tokens add (count("") measured once); so the last block is partial, hash ids past the
// end add nothing, and tokens beyond the last block (or all of them, without hash ids) are words
// unique to the line. Every prompt is then counted in batches; a miss moves the cut of the
// prompt's last partial block or unique tail by the difference (up to 4 counts), never a full
// shared block, and a prompt that still misses counts in misses. With token_ids the ids are the
// blocks' ids, exactly input_length of them, nothing is counted and the prompt has no text
// (length 0). A block is held from its first use to its last. Without a tokenizer,
// `estimate` measures the words (approximate, never counted). target_input_tokens = input_length,
// target_output_tokens = output_length. Tokenizer calls carry at most 256 texts each.
// Throws TokenizerError when the tokenizer fails, std::invalid_argument for body entries, a
// block_tokens below 1, or neither tokenizer nor estimate (token_ids needs a tokenizer).
TracePrompts make_trace_prompts(Tokenizer* tokenizer, const LengthModel* estimate,
                                const std::vector<TraceEntry>& entries,
                                const TraceBuildOptions& options, const FitProgress& progress = {});

// Body-form entries -> prompts with body_json set (length: code points of the body's messages or
// prompt text, 0 when it has neither), target_output_tokens -1. With match_output_length, an
// entry with completion_tokens gets "max_tokens": completion_tokens and "ignore_eos": true in its
// body (ignore_eos left out under constrained decoding: response_format json_object/json_schema,
// or tools with a forced tool_choice, as EvalScope does) and target_output_tokens set to it.
// Throws std::invalid_argument for Mooncake entries.
std::vector<Prompt> make_trace_body_prompts(const std::vector<TraceEntry>& entries,
                                            const TraceBuildOptions& options);

}  // namespace llmperf

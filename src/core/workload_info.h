// What a run's workload was: what reading the dataset found, and how synthetic prompts were made
// and their lengths counted. The workload stage fills these, the reports print them; shared types
// so that reports need not depend on the workload stage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llmperf {

// What reading the dataset found; reported to the user.
struct DatasetStats {
  int64_t records_read = 0;              // lines (or list items) examined
  int64_t accepted = 0;                  // prompts kept
  int64_t skipped_length = 0;            // outside the length filter
  int64_t skipped_empty = 0;             // blank lines / empty prompts
  int64_t skipped_turns = 0;             // conversations with too few turns (ShareGPT)
  int64_t malformed = 0;                 // unparseable lines or items
  std::vector<int64_t> malformed_lines;  // first few 1-based line (or item) numbers, at most 10
  std::string first_malformed_reason;    // why the first malformed record was rejected
};

// Where token counts came from, as every output states it.
struct TokenizerInfo {
  std::string source;  // "server /tokenize (vLLM/SGLang)", "usage calibration", "estimate: ..."
  std::string detail;  // how the chat template is counted, or why the lengths are approximate
  bool exact = false;  // the server's own tokenizer counted every prompt, template included
};

// Trace replay (--dataset mooncake_trace, workload_trace): what the trace held and how much of
// its prompts an ideal prefix cache could reuse.
struct TraceInfo {
  bool on = false;
  bool bodies = false;         // EvalScope's workload-trace form: request bodies sent as given
  int64_t entries = 0;         // requests replayed (the first -n, by timestamp)
  double span_s = 0;           // from the first timestamp to the last, before --trace-speedup
  double speedup = 1;          // --trace-speedup
  int64_t out_of_order = 0;    // lines whose timestamp was earlier than the line before (sorted)
  int64_t block_tokens = 0;    // --trace-block-tokens (Mooncake)
  int64_t distinct_blocks = 0;
  int64_t reused_blocks = 0;   // block uses beyond the first use of each hash id
  int64_t prompt_tokens = 0;   // sum of input_length
  // Prompt tokens in each request's leading blocks that an earlier request already sent: what a
  // prefix cache large enough to keep everything would find (the trace's upper bound on hits).
  int64_t reusable_tokens = 0;
};

// How a run's prompts were made and measured (synthetic workloads, ShareGPT; empty for datasets
// of text).
struct WorkloadInfo {
  bool synthetic = false;   // prompts were made to token lengths (--dataset random, ...)
  bool counted = false;     // prompt lengths were counted with a tokenizer (synthetic, ShareGPT)
  TokenizerInfo tokenizer;  // where their lengths were counted
  // ShareGPT: conversations drawn from the file, measured, and dropped by the length limits.
  int64_t candidates = 0;
  int64_t measured = 0;
  int64_t dropped_short = 0;
  int64_t dropped_long = 0;
  int64_t prompts = 0;        // distinct prompts made for the run
  int64_t fit_misses = 0;     // of those, prompts whose count missed their target while fitting
  int64_t fit_counts = 0;     // token counts the fitting asked of the tokenizer
  int64_t prefix_tokens = 0;  // --prefix-length
  double prepare_s = 0;       // seconds spent making the prompts
  TraceInfo trace;            // trace replay
};

}  // namespace llmperf

// Datasets: streaming readers that turn a file (or --prompt) into prompts, reading only as much
// of the file as needed. Formats: openqa (JSON lines, `question`), line_by_line (text line =
// prompt; JSON array line = messages; JSON object line = whole request body), longalpaca (a JSON
// list of objects, `instruction`). Prompts outside [min_length, max_length] code points are
// skipped; malformed lines are skipped and counted with their line numbers.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/workload_info.h"

namespace llmperf {

// One prompt, in the form the request builder needs. Exactly one of text, messages_json,
// body_json and token_ids is set.
struct Prompt {
  std::string text;           // plain prompt text
  std::string messages_json;  // a JSON array of chat messages, as validated JSON text
  std::string body_json;      // a whole request body (JSON object text); CLI fills missing keys
  std::vector<int64_t> token_ids;  // --tokenize-prompt: sent as "prompt": [ids] (completions)
  int64_t length = 0;              // Unicode code points of the prompt text (all message contents)
  // The tokens this prompt was built to count, as the server reports usage.prompt_tokens (template
  // and special tokens included); -1 when the workload sets no target (datasets of text).
  int64_t target_input_tokens = -1;
  // The output length asked of this prompt: sent as its max_tokens; -1: the config's max_tokens.
  int64_t target_output_tokens = -1;
  // --dataset shared_prefix: the prompt's prefix group (-1: none) and whether it is the group's
  // first prompt in dispatch order.
  int32_t prefix_group = -1;
  bool prefix_first_use = false;
  // Embeddings with --batch-size > 1: every input of the request (text is empty); rerank: the
  // documents (text is the query). Empty for one-text requests.
  std::vector<std::string> texts;
  // --image-num: synthetic PNG images the request attaches to its prompt, drawn from this seed
  // when the body is built (so that no two requests send the same pixels).
  int32_t synthetic_images = 0;
  uint64_t image_seed = 0;
};

struct DatasetOptions {
  std::string kind = "openqa";     // openqa | line_by_line | longalpaca
  std::string path;                // file to read ("" with fixed_prompt)
  std::string fixed_prompt;        // --prompt text: the only prompt when non-empty
  int64_t min_length = 0;          // inclusive, code points
  int64_t max_length = INT64_MAX;  // inclusive, code points
  int64_t limit = INT64_MAX;       // stop reading after this many accepted prompts
};

// Thrown when the dataset cannot be used (unreadable file, unknown kind, nothing usable).
class DatasetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A streaming source of prompts.
class PromptReader {
 public:
  virtual ~PromptReader() = default;
  // Produces the next accepted prompt; false at end of input.
  virtual bool next(Prompt& out) = 0;
  virtual const DatasetStats& stats() const = 0;
};

// The names --dataset accepts, in the order --help lists them.
std::vector<std::string_view> dataset_kinds();

// True for the kinds whose prompts are made, not read (random, speed_benchmark: synthetic.h).
bool is_synthetic_dataset(std::string_view kind);
// True for ShareGPT files (sharegpt, and EvalScope's share_gpt_en/zh: sharegpt.h), whose prompts
// are sampled and measured with the server's tokenizer.
bool is_sharegpt_dataset(std::string_view kind);
// True for files of whole conversations (conversations: session_script.h), sent turn by turn.
bool is_conversation_dataset(std::string_view kind);
// True for traces replayed at their timestamps (mooncake_trace: trace.h).
bool is_trace_dataset(std::string_view kind);

// Opens the reader for options.kind. Throws DatasetError for unknown kinds or unreadable files.
std::unique_ptr<PromptReader> open_dataset(const DatasetOptions& options);

// Reads up to options.limit accepted prompts. Throws DatasetError (naming the file, the counts
// and the first bad line numbers) when no prompt is usable.
std::vector<Prompt> load_prompts(const DatasetOptions& options, DatasetStats& stats);

// Number of Unicode code points in UTF-8 text (invalid bytes count as one each).
int64_t utf8_length(std::string_view text);

}  // namespace llmperf

// The workload: what the prompts are (a dataset, a fixed prompt, synthetic lengths and grids,
// images, conversations, a trace) and how they are cut to the server's context.
// A section of core/config.h's Config (Config::workload); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/run_types.h"

namespace llmperf {

struct WorkloadConfig {
  // --- dataset ---
  std::string dataset = "openqa";  // --dataset: a kind of dataset file, or random
  std::string dataset_path;        // --dataset-path
  std::string prompt;              // --prompt: fixed prompt text ("@file" already resolved)
  int64_t min_prompt_length = 0;   // --min-prompt-length, Unicode code points, inclusive (tokens,
                                   // the input length range, for random)
  int64_t max_prompt_length = std::numeric_limits<int64_t>::max();  // --max-prompt-length
  bool allow_truncation = false;  // --allow-truncation: run though requests exceed the context

  // --- synthetic workloads: --dataset random (speed_benchmark is a preset of it) ---
  std::vector<int64_t> input_tokens;   // --input-tokens: fixed input lengths; a list makes a grid
  std::vector<int64_t> output_tokens;  // --output-tokens: fixed output lengths; a list makes a grid
  int64_t prefix_length = 0;           // --prefix-length: shared prefix tokens, on top of the input
  // --dataset shared_prefix (SGLang's generated-shared-prefix): --prefix-groups system prompts of
  // --prefix-length tokens, each request one group's prefix + a question of --input-tokens.
  int64_t prefix_groups = 8;      // --prefix-groups G
  int64_t prompts_per_group = 0;  // --prompts-per-group P: questions per group, cycled (0: a new
                                  // question for every request)
  double prefix_zipf = 0;         // --prefix-zipf s: group popularity ~ 1/rank^s (0: uniform)
  bool tokenize_prompt = false;   // --tokenize-prompt: send token ids to /v1/completions
  std::string tokenize_url;       // --tokenize-url: base URL of /tokenize (default: --url's)
  std::string tokenizer_path;     // --tokenizer-path: accepted (EvalScope), not needed

  // --- embeddings, rerank and images ---
  int64_t batch_size = 1;  // --batch-size: inputs per embeddings request
  int64_t documents = 4;   // --documents: documents per rerank request (after one query)
  int64_t image_num = 0;   // --image-num: synthetic PNG images attached to each chat prompt
  int image_width = 512;   // --image-width, pixels
  int image_height = 512;  // --image-height, pixels

  // --- conversations (--multi-turn; --dataset random_multi_turn, sharegpt, conversations) ---
  bool multi_turn = false;  // --multi-turn: -n counts conversations, sent turn by turn
  int64_t min_turns = 2;    // --min-turns: fewest turns (random draws; datasets: skip fewer)
  std::optional<int64_t> max_turns;  // --max-turns: most turns (random: 5 when absent; datasets:
                                     // later turns are cut)
  bool history_recorded = false;     // --history recorded: earlier answers from the dataset, not
                                     // the ones received (--history live, the default)
  TurnDelay turn_delay;              // --turn-delay: think time before each later turn

  // --- trace replay (--dataset mooncake_trace) ---
  int64_t trace_block_tokens = 512;  // --trace-block-tokens: tokens per hash id block
  double trace_speedup = 1;          // --trace-speedup X: timestamps divided by X
  bool trace_all = false;            // -n not given with a trace: replay every entry

  // --- ShareGPT (--dataset sharegpt): vLLM's sampling limits, in tokens ---
  int64_t sharegpt_output_len = -1;       // --sharegpt-output-len: fixed max_tokens (-1: answers')
  int64_t sharegpt_min_len = 4;           // --sharegpt-min-len: shortest prompt and answer
  int64_t sharegpt_max_input_len = 1024;  // --sharegpt-max-input-len: longest prompt
  int64_t sharegpt_max_total_len = 2048;  // --sharegpt-max-total-len: prompt + answer
};

}  // namespace llmperf

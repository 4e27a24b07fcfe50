// The request body: the sampling parameters and options every request sends.
// A section of core/config.h's Config (Config::body); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llmperf {

struct RequestBodyConfig {
  bool stream = true;                        // --stream / --no-stream
  std::optional<int64_t> max_tokens = 2048;  // --max-tokens (the upper end with two values)
  int64_t max_tokens_low = -1;        // --max-tokens MIN MAX: max_tokens drawn per request from
                                      // [MIN, MAX] (EvalScope's two-value form); -1: one value
  std::optional<int64_t> min_tokens;  // --min-tokens
  std::optional<bool> ignore_eos;     // --ignore-eos/--no-ignore-eos; validation resolves the
                                      // default: on for synthetic workloads, off otherwise
  std::optional<double> temperature = 0.0;   // --temperature
  std::optional<double> top_p;               // --top-p
  std::vector<std::string> stop;             // --stop
  std::vector<int64_t> stop_token_ids;       // --stop-token-ids
  std::optional<int64_t> top_k;              // --top-k
  std::optional<double> frequency_penalty;   // --frequency-penalty
  std::optional<double> repetition_penalty;  // --repetition-penalty
  bool logprobs = false;                     // --logprobs: "logprobs": true
  std::optional<int64_t> n_choices;          // --n-choices: "n"
  bool seed_in_body = false;                 // --seed was given: also sent as "seed" (EvalScope)
  std::string extra_args;                    // --extra-args: JSON object merged into the body last
};

}  // namespace llmperf

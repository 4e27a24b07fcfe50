// Synthetic prompts of token lengths (--dataset random, random_vl, speed_benchmark and the
// --input-tokens x --output-tokens grid): made for each run with fresh text, reproducible from
// --seed, cut to their exact lengths with the server's tokenizer or estimated without one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "prepare/length_counter.h"
#include "workload/context_fit.h"
#include "workload/dataset.h"
#include "workload/synthetic/synthetic.h"

namespace llmperf {

// `count` prompts of run `index`'s input and output lengths (also the user messages of
// random_multi_turn): its grid cell, or --min/--max-prompt-length and the output range.
SyntheticSpec synthetic_spec(const PrepareSections& config, const RunSpec& run, size_t index,
                             int64_t count);

// The prompts of run `index`, shaped for the API; records them in `workload` and logs them.
// Throws TokenizerError, and std::invalid_argument when a fixed --input-tokens is too short for
// the chat template.
std::vector<Prompt> make_random_prompts(const PrepareSections& config, const RunSpec& run,
                                        size_t index, const LengthCounter& counter,
                                        WorkloadInfo& workload);

// The longest request of the sweep's synthetic runs (random, shared_prefix, random_multi_turn with
// its history), from their specs: input (and prefix) plus max_tokens.
PlannedLength longest_synthetic_request(const PrepareSections& config);

}  // namespace llmperf

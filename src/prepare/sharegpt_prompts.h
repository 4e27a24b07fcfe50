// ShareGPT (--dataset sharegpt), as vLLM samples it: conversations drawn with --seed, each
// prompt and reference answer measured with the server's tokenizer and kept within the length
// limits; sampled and measured once, shared by every run like a dataset of text.
#pragma once

#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "prepare/length_counter.h"
#include "workload/context_fit.h"
#include "workload/dataset.h"

namespace llmperf {

// The sampled prompts (as many as the longest run sends, at most kMaxSyntheticPrompts), shaped
// for the API. Fills `dataset` and the sampling counts of `workload`; logs what it found. Throws
// DatasetError, TokenizerError.
std::vector<Prompt> sample_sharegpt_prompts(const PrepareSections& config,
                                            const LengthCounter& counter, DatasetStats& dataset,
                                            WorkloadInfo& workload);

// The longest of the sampled requests: its measured prompt plus its max_tokens.
PlannedLength longest_sharegpt_request(const std::vector<Prompt>& prompts);

}  // namespace llmperf

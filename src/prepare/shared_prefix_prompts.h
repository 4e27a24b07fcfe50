// --dataset shared_prefix (SGLang's generated-shared-prefix workload): --prefix-groups prefixes of
// --prefix-length tokens; each request takes a group (uniform or Zipf) and that group's next
// question of --input-tokens tokens. Made for each run with fresh text, reproducible from --seed.
#pragma once

#include <cstddef>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "prepare/length_counter.h"
#include "workload/dataset.h"

namespace llmperf {

// The prompts of run `index`, in send order, each marked with its group and whether it is the
// group's first use. Every group's prompts are fitted together, so they share the group's prefix
// exactly. Records them in `workload` and logs them. Throws TokenizerError.
std::vector<Prompt> make_shared_prefix_prompts(const PrepareSections& config, const RunSpec& run,
                                               size_t index, const LengthCounter& counter,
                                               WorkloadInfo& workload);

}  // namespace llmperf

// Datasets of text (openqa, line_by_line, longalpaca, --prompt): the file read once, as many
// prompts as the longest run of the sweep sends, shared by every run.
#pragma once

#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "workload/dataset.h"

namespace llmperf {

// The dataset's prompts, filtered by length, with EvalScope's --max-tokens MIN MAX drawn per
// prompt (from --seed), image files inlined, and shaped for the API (embeddings batches, rerank
// queries, synthetic images). Fills `dataset`; logs what it read. Throws DatasetError.
std::vector<Prompt> load_dataset_prompts(const PrepareSections& config, DatasetStats& dataset);

}  // namespace llmperf

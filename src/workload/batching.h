// Requests that carry several texts of a dataset: embeddings with --batch-size B (B inputs per
// request) and rerank with --documents D (a query and D documents). Any dataset or synthetic
// workload supplies the texts, in turn, so the prompts of a run are regrouped here, once per run.
#pragma once

#include <cstdint>
#include <vector>

#include "core/run_types.h"
#include "workload/dataset.h"

namespace llmperf {

// The prompts of one request each: for embeddings, `texts` holds B consecutive prompts' texts;
// for rerank, `text` is one prompt's (the query) and `texts` the next D. Prompts are taken in
// order and cycled, so that there are at least ceil(size / per request) requests' worth and never
// none. Lengths and target input tokens add up over the texts (a rerank prompt has no target: a
// server counts query and document pairs its own way). For the APIs that send one text per
// request, the prompts unchanged. `texts_per_request` is core/config/run_grid.h's texts_per_request(api, workload).
std::vector<Prompt> group_texts(const std::vector<Prompt>& prompts, ApiKind api,
                                int64_t texts_per_request);

}  // namespace llmperf

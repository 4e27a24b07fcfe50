// The runs a sweep's load and workload sections describe, and the dataset texts one request
// carries: pure functions of the sections they read, so that a stage holding only those sections
// (prepare, report) computes them without the whole Config.
#pragma once

#include <cstdint>
#include <vector>

#include "core/config/load.h"
#include "core/config/workload.h"
#include "core/run_types.h"

namespace llmperf {

// The runs of the sweep the flags describe, with `resolved`'s -n and --rate in place of the
// load section's own: (--parallel, -n, --rate) by position (a list of one value applies to every
// run), each crossed with the --input-tokens x --output-tokens grid, inputs outer.
std::vector<RunSpec> run_specs(const LoadConfig& load, const WorkloadConfig& workload,
                               const ResolvedFlags& resolved);

// Dataset texts one request carries: --batch-size inputs (embeddings), a query and
// --documents documents (rerank), one prompt otherwise.
int64_t texts_per_request(ApiKind api, const WorkloadConfig& workload);

}  // namespace llmperf

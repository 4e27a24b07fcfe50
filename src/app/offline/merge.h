// `llmperf merge DIR...`: the shards of a sharded benchmark as one run (or sweep) directory, its
// files rebuilt as `llmperf report` rebuilds them (app/offline/rebuild.h).
#pragma once

#include <string>

#include "report/tools.h"

namespace llmperf {

// `llmperf merge`: writes one run (or sweep) directory under options.outputs_dir, named as the
// shards' without their _shard_I_of_N suffix, from the union of the shards' records (times
// aligned on their wall-clock anchors), with every file a run has, and returns the text summaries.
// Throws std::runtime_error when the directories are not every shard of one benchmark once
// (unless force), or cannot be read. `merged_dir` (when given) receives the directory written.
std::string merge_shards(const MergeOptions& options, std::string* merged_dir = nullptr);

}  // namespace llmperf

// Reports from existing output directories, without running anything: `llmperf compare` (side by
// side tables and overlaid charts of several deployments), and what `llmperf report` and `llmperf
// merge` are asked (cli parses them; their pipelines are app/offline/rebuild.h and merge.h).
#pragma once

#include <string>
#include <vector>

namespace llmperf {

struct CompareOptions {
  std::vector<std::string> dirs;    // sweep directories (sweep_summary.json) or run directories
  std::vector<std::string>
      labels;  // one per dir; default: the run name (or model) from summary.json
  std::string outputs_dir;          // where compare.md and compare.html are written
};

struct CompareOutcome {
  std::string markdown;               // compare.md's text
  std::vector<std::string> warnings;  // deployments whose columns cannot be told apart
};

// Loads every directory, writes compare.md and compare.html into options.outputs_dir (created if
// needed) and returns the Markdown. Columns whose labels collide are told apart by what differs
// (report/tools/compare_labels.cpp). Throws std::runtime_error naming the directory that cannot be read
// or the label count that does not match.
CompareOutcome compare_outputs(const CompareOptions& options);

// What `llmperf report DIR` is asked (app/offline/rebuild.h runs it).
struct RebuildOptions {
  std::string dir;                  // a run directory (requests.jsonl), a sweep directory or a
                                    // study directory (study.json and study.jsonl)
  std::vector<double> percentiles;  // empty: the percentiles recorded in each summary.json
  std::string summary_format;       // empty: "default"; or "evalscope-legacy"
};

// `llmperf report --storage URL --study-name NAME --outputs-dir DIR`: the combined study of the
// `llmperf tune` workers that shared NAME in Optuna's storage URL, first written into the
// RebuildOptions' dir (study.json and study.jsonl, from the storage alone), then rebuilt as any
// study directory. Empty: a directory as it is.
struct SharedStudySource {
  std::string storage;
  std::string study_name;
};

// What `llmperf merge DIR...` is asked (app/offline/merge.h runs it).
struct MergeOptions {
  std::vector<std::string> dirs;  // the shards' directories (sweep or run directories)
  std::string outputs_dir = "outputs";
  bool force = false;  // merge shards of different benchmarks, or not all of them
};

}  // namespace llmperf

// Reports from existing output directories, without running anything: `llmperf compare` (side by
// side tables and overlaid charts of several deployments) and `llmperf report` (rebuild every
// summary and chart of a run or sweep directory from its requests.jsonl).
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

struct RebuildOptions {
  std::string dir;                  // a run directory (requests.jsonl), a sweep directory or a
                                    // study directory (study.json and study.jsonl)
  std::vector<double> percentiles;  // empty: the percentiles recorded in each summary.json
  std::string summary_format;       // empty: "default"; or "evalscope-legacy"
};

// Re-reads each run's summary.json ("run" and "config") and requests.jsonl, recomputes the
// summary and rewrites every run file (and the sweep files for a sweep directory). Returns the
// text summaries that a run would have printed. A study's directory (study.json and study.jsonl)
// gets its study files (study_summary.json, .csv, .md, study.html) rewritten from those two
// instead, and the study's closing text back, after a warning per bad ledger line. Throws
// std::runtime_error on unreadable input.
std::string rebuild_reports(const RebuildOptions& options);

struct MergeOptions {
  std::vector<std::string> dirs;  // the shards' directories (sweep or run directories)
  std::string outputs_dir = "outputs";
  bool force = false;  // merge shards of different benchmarks, or not all of them
};

// `llmperf merge`: writes one run (or sweep) directory under options.outputs_dir, named as the
// shards' without their _shard_I_of_N suffix, from the union of the shards' records (times
// aligned on their wall-clock anchors), with every file a run has, and returns the text summaries.
// Throws std::runtime_error when the directories are not every shard of one benchmark once
// (unless force), or cannot be read. `merged_dir` (when given) receives the directory written.
std::string merge_shards(const MergeOptions& options, std::string* merged_dir = nullptr);

}  // namespace llmperf

// The flags of the subcommands that work on existing output directories: `llmperf compare DIR...
// [--label NAME...] [--outputs-dir DIR]`, `llmperf report DIR [--percentiles P...]` and `llmperf
// merge DIR... [--outputs-dir DIR]` (CLI11), parsed here so the benchmark's flags stay untouched;
// app/offline_commands.h runs them.
#pragma once

#include "core/command_outcome.h"
#include "report/tools.h"
#include "store/history_import.h"

namespace llmperf {

struct CompareCli {
  bool proceed = false;    // true: run the comparison
  CommandOutcome outcome;  // when !proceed: help (exit 0) or a usage error (exit 2)
  CompareOptions options;  // outputs_dir defaults to outputs/compare_<YYYYmmdd_HHMMSS>
};

struct ReportCli {
  bool proceed = false;        // true: rebuild the directory
  CommandOutcome outcome;      // when !proceed: help (exit 0) or a usage error (exit 2)
  RebuildOptions options;      // the directory and how to summarise it
  ResultsDbTarget results_db;  // --results-db: where the rebuilt runs are stored, if anywhere
  SharedStudySource shared;    // --storage, --study-name: a shared study, built into the directory
};

struct MergeCli {
  bool proceed = false;        // true: merge the shards
  CommandOutcome outcome;      // when !proceed: help (exit 0) or a usage error (exit 2)
  MergeOptions options;        // the shards and where the merged directory goes
  ResultsDbTarget results_db;  // --results-db: where the merged runs are stored, if anywhere
};

// Parse `llmperf compare ...`, `llmperf report ...` and `llmperf merge ...` (argv[1] names the
// subcommand).
CompareCli parse_compare(int argc, const char* const* argv);
ReportCli parse_report(int argc, const char* const* argv);
MergeCli parse_merge(int argc, const char* const* argv);

}  // namespace llmperf

// The commands over existing output directories, which send no request: `llmperf compare`
// (report/tools.h's compare_outputs), `llmperf report` (rebuild_reports), `llmperf merge`
// (merge_shards), each storing what it wrote in --results-db when asked, and `llmperf history
// import` (store/history_import.h, each run read by app/history_run.h). Their flags are parsed in
// cli/subcommands.h and cli/history_import.h; each returns its exit code and its whole output for
// main to print.
#pragma once

#include "core/command_outcome.h"
#include "report/tools.h"
#include "store/history_import.h"

namespace llmperf {

// Writes compare.md and compare.html and prints the Markdown. Exit 0; 2 when the --label count
// does not match the directories; 1 when a directory cannot be read or the files written.
CommandOutcome compare_command(const CompareOptions& options);

// Rebuilds options.dir's files and prints the runs' text summaries. Exit 0; 1 when the directory
// cannot be read or rewritten, or a run could not be stored in `results_db`.
// With `shared` (--storage, --study-name), the shared study's combined directory is built first.
CommandOutcome report_command(const RebuildOptions& options, const ResultsDbTarget& results_db,
                              const SharedStudySource& shared = {});

// Merges the shards and prints the merged runs' text summaries. Exit 0; 2 when the directories
// are not every shard of one benchmark once (without --force); 1 when they cannot be read or a
// run could not be stored in `results_db`.
CommandOutcome merge_command(const MergeOptions& options, const ResultsDbTarget& results_db);

// Imports options.dirs: one line per run on stdout, an error per directory on stderr without
// stopping the others. Exit 0 when every run was imported or already there, 1 when a directory
// or run could not be stored.
CommandOutcome history_import_command(const HistoryStoreOptions& options);

}  // namespace llmperf

// `llmperf history import --results-db FILE [--results-db-requests] DIR...`: its flags (CLI11). The
// import itself, existing run directories into the history database, runs in
// app/offline_commands.h. main dispatches this subcommand before the other `llmperf history`
// commands.
#pragma once

#include "core/command_outcome.h"
#include "store/history_import.h"

namespace llmperf {

struct HistoryImportCli {
  bool proceed = false;         // true: import options.dirs
  CommandOutcome outcome;       // when !proceed: help (exit 0) or a usage error (exit 2)
  HistoryStoreOptions options;  // the database and directories; source "import", existing runs
                                // skipped
};

// Parses `llmperf history import ...` (argv[1] "history", argv[2] "import").
HistoryImportCli parse_history_import(int argc, const char* const* argv);

}  // namespace llmperf

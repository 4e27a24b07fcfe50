// `llmperf history import --results-db FILE [--results-db-requests] DIR...`: existing run
// directories into the history database (report/tools/history_store.h), one line per run on
// stdout, an error per directory on stderr without stopping the others. Only this subcommand of
// `llmperf history` is parsed here; main dispatches it before the other `llmperf history`
// commands.
#pragma once

#include "cli/subcommands.h"

namespace llmperf {

// Runs `llmperf history import ...` (argv[1] "history", argv[2] "import"). Exit code 0 when every
// run was imported or already there, 1 when a directory or run could not be stored, 2 on bad
// flags.
SubcommandOutcome history_import_command(int argc, const char* const* argv);

// --results-db for `llmperf merge` and `llmperf report`: stores the runs under `dir` (source
// "merge" or "report", replacing a stored run of the same id). Appends one line per run to `err`
// and returns false when one could not be stored.
bool store_in_results_db(const std::string& db, const std::string& dir, const std::string& source,
                         bool requests, std::string& err);

}  // namespace llmperf

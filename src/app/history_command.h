// Running `llmperf history` (flags in cli/history_cli.h): reads the matching runs of the history
// database, prints the trend table to stdout and writes history.html.
#pragma once

#include "report/history/history_page.h"

namespace llmperf {

// Returns the exit code: 0, 2 when the database is missing or not a history database (the
// message names it), 1 when history.html cannot be written.
int history_command(const HistoryCommandOptions& options);

}  // namespace llmperf

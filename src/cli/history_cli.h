// `llmperf history --results-db FILE [--name N] [--tag k=v ...] [--metric M ...] [--last 50]
// [--outputs-dir DIR | --html FILE] [--baseline-runs N] [--noise-k K]`: its argv parsing (CLI11).
// The command runs in app/history_command.h; `llmperf history import` is dispatched before it.
#pragma once

#include "core/command_outcome.h"
#include "report/history/history_page.h"

namespace llmperf {

struct HistoryCli {
  bool proceed = false;           // false: print `outcome` and exit with its code
  CommandOutcome outcome;         // help (exit 0) or a usage error (exit 2)
  HistoryCommandOptions options;  // what to show, when proceeding
};

// Parses argv[2..] (argv[1] is "history"). A --tag that is not key=value, a --metric the --slo
// grammar does not know, --last or --baseline-runs below 1, --noise-k <= 0 and --outputs-dir with
// --html are usage errors naming the flag.
HistoryCli parse_history_cli(int argc, const char* const* argv);

}  // namespace llmperf

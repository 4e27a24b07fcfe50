// See history_import.h.
#include "cli/history_import.h"

#include <string>

#include <CLI/CLI.hpp>

#include "cli/shared_flags.h"
#include "cli/subcommand_parse.h"

namespace llmperf {

HistoryImportCli parse_history_import(int argc, const char* const* argv) {
  CLI::App app(
      "Load existing llmperf run directories into a history database (--results-db's file). "
      "Each DIR is a run directory or a directory holding runs at any depth (a benchmark's, an "
      "outputs directory). A run already in the database is skipped, so importing again changes "
      "nothing.",
      "history import");
  HistoryImportCli cli;
  HistoryStoreOptions& options = cli.options;
  options.source = "import";
  options.existing = ExistingRun::kSkip;
  app.add_option(kResultsDbFlag, options.db, "The history database (created if missing)")
      ->required();
  app.add_flag(std::string(kResultsDbRequestsFlag) + ",--requests", options.requests,
               "Store each run's requests.jsonl lines too (table requests)");
  app.add_option("dirs", options.dirs, "Run directories, or directories holding runs")->required();
  // parse_subcommand reads argv[2..]: here that is what follows "history import".
  if (auto done = parse_subcommand(app, argc - 1, argv + 1)) {
    cli.outcome = *done;
    return cli;
  }
  cli.proceed = true;
  return cli;
}

}  // namespace llmperf

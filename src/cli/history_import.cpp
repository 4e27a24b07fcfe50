// See history_import.h.
#include "cli/history_import.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/shared_flags.h"
#include "core/exit_codes.h"
#include "report/tools/history_store.h"

namespace llmperf {

SubcommandOutcome history_import_command(int argc, const char* const* argv) {
  CLI::App app(
      "Load existing llmperf run directories into a history database (--results-db's file). "
      "Each DIR is a run directory or a directory holding runs at any depth (a benchmark's, an "
      "outputs directory). A run already in the database is skipped, so importing again changes "
      "nothing.",
      "history import");
  HistoryStoreOptions options;
  options.source = "import";
  options.existing = ExistingRun::kSkip;
  app.add_option(kResultsDbFlag, options.db, "The history database (created if missing)")
      ->required();
  app.add_flag(std::string(kResultsDbRequestsFlag) + ",--requests", options.requests,
               "Store each run's requests.jsonl lines too (table requests)");
  app.add_option("dirs", options.dirs, "Run directories, or directories holding runs")->required();
  // parse_subcommand reads argv[2..]: here that is what follows "history import".
  if (auto done = parse_subcommand(app, argc - 1, argv + 1)) return *done;
  const HistoryStoreOutcome outcome = store_run_dirs(options);
  SubcommandOutcome result;
  for (const std::string& line : outcome.lines) result.out += line + "\n";
  for (const std::string& error : outcome.errors) {
    result.err += fmt::format("llmperf history import: {}\n", error);
  }
  result.err += fmt::format(
      "llmperf history import: {} run(s) imported, {} already in {}{}\n", outcome.stored,
      outcome.skipped, options.db,
      outcome.errors.empty() ? "" : fmt::format(", {} error(s)", outcome.errors.size()));
  result.exit_code = outcome.errors.empty() ? kExitOk : kExitCannotProceed;
  return result;
}

bool store_in_results_db(const std::string& db, const std::string& dir, const std::string& source,
                         bool requests, std::string& err) {
  HistoryStoreOptions options;
  options.db = db;
  options.dirs = {dir};
  options.source = source;
  options.requests = requests;
  options.existing = ExistingRun::kReplace;
  const HistoryStoreOutcome outcome = store_run_dirs(options);
  for (const std::string& line : outcome.lines)
    err += fmt::format("llmperf {}: {}\n", source, line);
  for (const std::string& error : outcome.errors) {
    err += fmt::format("llmperf {}: cannot store in --results-db {}: {}\n", source, db, error);
  }
  return outcome.errors.empty();
}

}  // namespace llmperf

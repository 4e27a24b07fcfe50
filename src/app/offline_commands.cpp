// `llmperf compare`, `report`, `merge` and `history import` run (offline_commands.h): the report
// tools' results and errors as exit codes and text.
#include "app/offline_commands.h"

#include <exception>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "app/history_run.h"
#include "app/offline/merge.h"
#include "app/offline/rebuild.h"
#include "app/offline/shared_report.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

// --results-db for `llmperf merge` and `llmperf report`: stores the runs under `dir` (source
// "merge" or "report", replacing a stored run of the same id). Appends one line per run to `err`
// and returns false when one could not be stored.
bool store_in_results_db(const ResultsDbTarget& target, const std::string& dir,
                         const std::string& source, std::string& err) {
  HistoryStoreOptions options;
  options.db = target.db;
  options.dirs = {dir};
  options.source = source;
  options.requests = target.requests;
  options.existing = ExistingRun::kReplace;
  const HistoryStoreOutcome outcome = store_run_dirs(options, read_history_run_dir);
  for (const std::string& line : outcome.lines)
    err += fmt::format("llmperf {}: {}\n", source, line);
  for (const std::string& error : outcome.errors) {
    err +=
        fmt::format("llmperf {}: cannot store in --results-db {}: {}\n", source, target.db, error);
  }
  return outcome.errors.empty();
}

}  // namespace

CommandOutcome compare_command(const CompareOptions& options) {
  try {
    const CompareOutcome outcome = compare_outputs(options);
    std::string err;
    for (const std::string& w : outcome.warnings) err += "llmperf compare: WARNING: " + w + "\n";
    err +=
        fmt::format("llmperf compare: wrote {}/compare.md and compare.html\n", options.outputs_dir);
    return {kExitOk, outcome.markdown, err};
  } catch (const std::exception& e) {
    const bool usage = std::string_view(e.what()).find("--label") != std::string_view::npos;
    return {usage ? kExitUsage : kExitCannotProceed, "",
            fmt::format("llmperf compare: {}\n", e.what())};
  }
}

CommandOutcome report_command(const RebuildOptions& options, const ResultsDbTarget& results_db,
                              const SharedStudySource& shared) {
  try {
    std::string err;
    if (!shared.storage.empty()) {
      // A shared study: its combined study directory first, from the storage alone.
      for (const std::string& problem :
           export_shared_study(shared.storage, shared.study_name, options.dir)) {
        err += fmt::format("llmperf report: WARNING: {}\n", problem);
      }
    }
    std::string text = rebuild_reports(options);
    err += fmt::format("llmperf report: rebuilt {}\n", options.dir);
    if (!results_db.db.empty() && !store_in_results_db(results_db, options.dir, "report", err)) {
      return {kExitCannotProceed, text, err};
    }
    return {kExitOk, text, err};
  } catch (const std::exception& e) {
    return {kExitCannotProceed, "", fmt::format("llmperf report: {}\n", e.what())};
  }
}

CommandOutcome merge_command(const MergeOptions& options, const ResultsDbTarget& results_db) {
  try {
    std::string merged_dir;
    std::string text = merge_shards(options, &merged_dir);
    std::string err;
    if (!results_db.db.empty() && !store_in_results_db(results_db, merged_dir, "merge", err)) {
      return {kExitCannotProceed, text, err};
    }
    return {kExitOk, text, err};
  } catch (const std::exception& e) {
    const bool refused = std::string_view(e.what()).rfind("cannot merge", 0) == 0;
    return {refused ? kExitUsage : kExitCannotProceed, "",
            fmt::format("llmperf merge: {}\n", e.what())};
  }
}

CommandOutcome history_import_command(const HistoryStoreOptions& options) {
  const HistoryStoreOutcome outcome = store_run_dirs(options, read_history_run_dir);
  CommandOutcome result;
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

}  // namespace llmperf

// `llmperf compare` and `llmperf report`: argv parsing (CLI11) and exit codes for the report tools
// in report/tools/ (compare.cpp, rebuild.cpp, merge.cpp). Nothing here sends a request.
#include "cli/subcommands.h"

#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/history_import.h"
#include "cli/shared_flags.h"
#include "cli/unknown_flags.h"
#include "core/exit_codes.h"
#include "report/report.h"
#include "report/tools.h"

namespace llmperf {
namespace {

// --results-db FILE and --results-db-requests of `llmperf merge` and `llmperf report`.
void add_results_db_options(CLI::App& app, std::string& db, bool& requests, const char* what) {
  app.add_option(kResultsDbFlag, db,
                 fmt::format("Store the {} run(s) in this history database (replacing a stored "
                             "run of the same id); exit 1 if that fails",
                             what));
  app.add_flag(kResultsDbRequestsFlag, requests,
               "With --results-db: store each run's requests.jsonl lines too")
      ->needs("--results-db");
}

SubcommandOutcome compare(int argc, const char* const* argv) {
  CLI::App app(
      "Side-by-side tables and overlaid charts of existing llmperf output directories "
      "(sweep directories or run directories). Writes compare.md and compare.html and "
      "prints the Markdown.",
      "compare");
  CompareOptions options;
  app.add_option("dirs", options.dirs, "Sweep or run directories written by llmperf")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option("--label", options.labels,
                 "A name per directory, in order (default: the run's --name, else its model). "
                 "Columns of the same name get what tells them apart: --name, the server "
                 "(e.g. llama.cpp b4719), the config values that differ (e.g. in 300 out 64), "
                 "else the directory");
  app.add_option(kOutputsDirFlag, options.outputs_dir,
                 "Where to write compare.md and compare.html (default: "
                 "outputs/compare_<YYYYmmdd_HHMMSS>)");
  if (auto done = parse_subcommand(app, argc, argv)) return *done;
  if (options.outputs_dir.empty()) {
    options.outputs_dir =
        (std::filesystem::path("outputs") / ("compare_" + output_timestamp())).string();
  }
  try {
    const CompareOutcome outcome = compare_outputs(options);
    std::string err;
    for (const std::string& w : outcome.warnings) err += "llmperf compare: WARNING: " + w + "\n";
    err +=
        fmt::format("llmperf compare: wrote {}/compare.md and compare.html\n", options.outputs_dir);
    return {kExitOk, outcome.markdown, err};
  } catch (const std::exception& e) {
    const bool usage = std::string_view(e.what()).find("--label") != std::string_view::npos;
    return {usage ? kExitUsage : kExitCannotProceed, "", fmt::format("llmperf compare: {}\n", e.what())};
  }
}

SubcommandOutcome report(int argc, const char* const* argv) {
  CLI::App app(
      "Rebuild every summary and chart of a run or sweep directory from its "
      "requests.jsonl, without sending any request.",
      "report");
  RebuildOptions options;
  app.add_option("dir", options.dir, "A run directory (requests.jsonl), a sweep directory or a `llmperf tune` study directory (study.json)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option("--percentiles", options.percentiles,
                 "Percentiles to report (default: those recorded in each summary.json)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--summary-format", options.summary_format,
                 "stdout summary: default, evalscope-legacy or vllm")
      ->check(CLI::IsMember({"default", "evalscope-legacy", "vllm"}));
  std::string results_db;
  bool results_db_requests = false;
  add_results_db_options(app, results_db, results_db_requests, "rebuilt");
  if (auto done = parse_subcommand(app, argc, argv)) return *done;
  try {
    std::string text = rebuild_reports(options);
    std::string err = fmt::format("llmperf report: rebuilt {}\n", options.dir);
    if (!results_db.empty() &&
        !store_in_results_db(results_db, options.dir, "report", results_db_requests, err)) {
      return {kExitCannotProceed, text, err};
    }
    return {kExitOk, text, err};
  } catch (const std::exception& e) {
    return {kExitCannotProceed, "", fmt::format("llmperf report: {}\n", e.what())};
  }
}

SubcommandOutcome merge(int argc, const char* const* argv) {
  CLI::App app(
      "Merge the directories of a sharded benchmark (--shard I/N) into one run or sweep "
      "directory, computed from the union of their records: exact percentiles, not averages.",
      "merge");
  MergeOptions options;
  app.add_option("dirs", options.dirs, "Every shard's directory (sweep or run directory)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option(kOutputsDirFlag, options.outputs_dir, "Where the merged directory goes")
      ->capture_default_str();
  app.add_flag("--force", options.force,
               "Merge shards of different benchmarks, or not all of a benchmark's shards");
  std::string results_db;
  bool results_db_requests = false;
  add_results_db_options(app, results_db, results_db_requests, "merged");
  if (auto done = parse_subcommand(app, argc, argv)) return *done;
  try {
    std::string merged_dir;
    std::string text = merge_shards(options, &merged_dir);
    std::string err;
    if (!results_db.empty() &&
        !store_in_results_db(results_db, merged_dir, "merge", results_db_requests, err)) {
      return {kExitCannotProceed, text, err};
    }
    return {kExitOk, text, err};
  } catch (const std::exception& e) {
    const bool refused = std::string_view(e.what()).rfind("cannot merge", 0) == 0;
    return {refused ? kExitUsage : kExitCannotProceed, "", fmt::format("llmperf merge: {}\n", e.what())};
  }
}

}  // namespace

std::optional<SubcommandOutcome> parse_subcommand(CLI::App& app, int argc,
                                                  const char* const* argv) {
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 2; --i) args.emplace_back(argv[i]);  // CLI11 wants them reversed
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    return SubcommandOutcome{kExitOk, app.help(), ""};
  } catch (const CLI::ParseError& e) {
    std::string err;
    for (const std::string& line : parse_error_lines(app, e)) {
      err += fmt::format("llmperf {}: {}\n", app.get_name(), line);
    }
    return SubcommandOutcome{kExitUsage, "", err + "Run with --help for usage.\n"};
  }
  return std::nullopt;
}

std::optional<SubcommandOutcome> run_subcommand(int argc, const char* const* argv) {
  if (argc < 2) return std::nullopt;
  const std::string_view name = argv[1];
  if (name == "compare") return compare(argc, argv);
  if (name == "report") return report(argc, argv);
  if (name == "merge") return merge(argc, argv);
  return std::nullopt;
}

}  // namespace llmperf

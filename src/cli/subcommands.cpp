// `llmperf compare`, `llmperf report` and `llmperf merge`: argv parsing (CLI11) into the options of
// the report tools (report/tools.h). Nothing here runs them: app/offline_commands.cpp does.
#include "cli/subcommands.h"

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/shared_flags.h"
#include "cli/subcommand_parse.h"
#include "core/clock.h"
#include "core/exit_codes.h"
#include "report/report.h"

namespace llmperf {
namespace {

// --results-db FILE and --results-db-requests of `llmperf merge` and `llmperf report`.
void add_results_db_options(CLI::App& app, ResultsDbTarget& target, const char* what) {
  app.add_option(kResultsDbFlag, target.db,
                 fmt::format("Store the {} run(s) in this history database (replacing a stored "
                             "run of the same id); exit 1 if that fails",
                             what));
  app.add_flag(kResultsDbRequestsFlag, target.requests,
               "With --results-db: store each run's requests.jsonl lines too")
      ->needs("--results-db");
}

}  // namespace

CompareCli parse_compare(int argc, const char* const* argv) {
  CLI::App app(
      "Side-by-side tables and overlaid charts of existing llmperf output directories "
      "(sweep directories or run directories). Writes compare.md and compare.html and "
      "prints the Markdown.",
      "compare");
  CompareCli cli;
  CompareOptions& options = cli.options;
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
  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  if (options.outputs_dir.empty()) {
    options.outputs_dir =
        (std::filesystem::path("outputs") / ("compare_" + output_timestamp())).string();
  }
  cli.proceed = true;
  return cli;
}

ReportCli parse_report(int argc, const char* const* argv) {
  CLI::App app(
      "Rebuild every summary and chart of a run or sweep directory from its "
      "requests.jsonl, without sending any request.",
      "report");
  ReportCli cli;
  RebuildOptions& options = cli.options;
  auto* dir = app.add_option("dir", options.dir, "A run directory (requests.jsonl), a sweep directory or a `llmperf tune` study directory (study.json)")
      ->check(CLI::ExistingDirectory);
  // A study shared through Optuna's storage (`llmperf tune --storage`): built into --outputs-dir.
  std::string outputs_dir;
  auto* storage = app.add_option("--storage", cli.shared.storage,
                 "Build the combined study of `llmperf tune --storage URL --study-name NAME` "
                 "workers from the storage alone (postgresql://... or sqlite:///...) into "
                 "--outputs-dir DIR: study.json, study.jsonl, the tables, study.html");
  app.add_option("--study-name", cli.shared.study_name, "The shared study's name (with --storage)")
      ->needs(storage);
  app.add_option(kOutputsDirFlag, outputs_dir,
                 "With --storage: the combined study's directory (default outputs/<NAME>)")
      ->needs(storage);
  storage->excludes(dir);
  app.add_option("--percentiles", options.percentiles,
                 "Percentiles to report (default: those recorded in each summary.json)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--summary-format", options.summary_format,
                 "stdout summary: default, evalscope-legacy or vllm")
      ->check(CLI::IsMember({"default", "evalscope-legacy", "vllm"}));
  add_results_db_options(app, cli.results_db, "rebuilt");
  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  if (cli.shared.storage.empty() && options.dir.empty()) {
    cli.outcome = {kExitUsage, "", "llmperf report: name a directory, or --storage URL --study-name NAME\n"};
    return cli;
  }
  if (!cli.shared.storage.empty()) {
    if (cli.shared.study_name.empty()) {
      cli.outcome = {kExitUsage, "", "llmperf report: --storage needs --study-name NAME\n"};
      return cli;
    }
    options.dir = outputs_dir.empty()
                      ? (std::filesystem::path("outputs") / cli.shared.study_name).string()
                      : outputs_dir;
  }
  cli.proceed = true;
  return cli;
}

MergeCli parse_merge(int argc, const char* const* argv) {
  CLI::App app(
      "Merge the directories of a sharded benchmark (--shard I/N) into one run or sweep "
      "directory, computed from the union of their records: exact percentiles, not averages.",
      "merge");
  MergeCli cli;
  MergeOptions& options = cli.options;
  app.add_option("dirs", options.dirs, "Every shard's directory (sweep or run directory)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option(kOutputsDirFlag, options.outputs_dir, "Where the merged directory goes")
      ->capture_default_str();
  app.add_flag("--force", options.force,
               "Merge shards of different benchmarks, or not all of a benchmark's shards");
  add_results_db_options(app, cli.results_db, "merged");
  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  cli.proceed = true;
  return cli;
}

}  // namespace llmperf

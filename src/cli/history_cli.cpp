// `llmperf history`'s flags (history_cli.h).
#include "cli/history_cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "cli/shared_flags.h"
#include "cli/subcommand_parse.h"
#include "cli/tags.h"
#include "core/exit_codes.h"
#include "verdict/slo.h"

namespace llmperf {

HistoryCli parse_history_cli(int argc, const char* const* argv) {
  CLI::App app(
      "The trend of a history database (--results-db): one row per run, oldest first, one column "
      "per metric, and history.html with one chart per metric over time (rolling median, noise "
      "band, SLO limit, each point linked to its run).",
      "history");
  HistoryCli cli;
  HistoryCommandOptions& o = cli.options;
  std::string name;
  std::vector<std::string> tags;
  app.add_option(kResultsDbFlag, o.db, "The history database (--results-db's file)")->required();
  app.add_option(kNameFlag, name, "Only runs with this --name");
  app.add_option(kTagFlag, tags, "Only runs with this key=value tag; repeatable, all must match")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--metric", o.metrics,
                 "A metric as --slo names it (ttft.p99, output_throughput, error_rate); "
                 "repeatable (default: ttft.p99, tpot.p99, output_throughput, error_rate)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--last", o.last, "The N most recent matching runs (default 50)");
  app.add_option(kOutputsDirFlag, o.output_dir, "Directory for history.html (default: .)");
  app.add_option("--html", o.html_path,
                 "Write the page to this file instead of <--outputs-dir>/history.html");
  app.add_option("--baseline-runs", o.band.runs,
                 "Runs the rolling median and noise band are taken over (default 10)");
  app.add_option("--noise-k", o.band.k, "The noise band's half-width in MADs (default 3)");
  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  std::vector<std::string> errors;
  if (app.count("--name") > 0) o.name = name;
  try {
    o.tags = parse_tags(tags);
  } catch (const std::invalid_argument& error) {
    errors.push_back(error.what());
  }
  for (const std::string& metric : o.metrics) {
    try {
      parse_metric(metric, "--metric");
    } catch (const std::invalid_argument& error) {
      errors.push_back(error.what());
    }
  }
  if (o.last < 1) errors.push_back(fmt::format("--last must be >= 1, got {}", o.last));
  if (o.band.runs < 1) {
    errors.push_back(fmt::format("--baseline-runs must be >= 1, got {}", o.band.runs));
  }
  if (!(o.band.k > 0) || !std::isfinite(o.band.k)) {
    errors.push_back(fmt::format("--noise-k must be > 0, got {}", o.band.k));
  }
  if (app.count("--outputs-dir") > 0 && app.count("--html") > 0) {
    errors.push_back("--outputs-dir and --html: give one (--html names the page itself)");
  }
  if (!errors.empty()) {
    std::string err;
    for (const std::string& e : errors) err += "llmperf history: " + e + "\n";
    cli.outcome = {kExitUsage, "", err};
    return cli;
  }
  cli.proceed = true;
  return cli;
}

}  // namespace llmperf

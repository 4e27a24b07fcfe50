// `llmperf history`'s outputs: the trend table (one row per run, oldest first, one column per
// metric with its unit) and history.html, a self-contained page (inline CSS and SVG, no scripts,
// nothing fetched) with one chart per metric over the runs: each run's value as a dot linked to
// its run (its report.html, or its directory), the rolling median and noise band that
// --baseline db: would have judged that run with (median ± max(k × MAD, floor) of the previous
// --baseline-runs runs), and the SLO limit when the run's config had an --slo on the metric.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/history_entry.h"
#include "verdict/history_baseline.h"

namespace llmperf {

// What `llmperf history` was asked (cli/history_cli.h parses it, app/history_command.h runs it).
struct HistoryCommandOptions {
  std::string db;                   // --results-db FILE
  std::optional<std::string> name;  // --name
  std::vector<std::pair<std::string, std::string>> tags;  // --tag key=value, all must match
  std::vector<std::string> metrics;  // --metric, as --slo names them; empty: the defaults
  int last = 50;                     // --last N runs
  std::string output_dir = ".";      // --outputs-dir DIR: history.html goes there
  std::string html_path;             // --html FILE: instead of <--outputs-dir>/history.html
  HistoryBaselineOptions band;       // --baseline-runs, --noise-k: the rolling median and band
};

// The metrics shown without --metric: ttft.p99, tpot.p99, output_throughput, error_rate.
const std::vector<std::string>& default_history_metrics();

// The trend table: time, name, run, tags, then "<metric> (<unit>)" per metric; "-" when a run
// lacks the metric. "No run matches." when `runs` is empty.
std::string render_history_table(const std::vector<HistoryEntry>& runs,
                                 const std::vector<std::string>& metrics);

// history.html. `html_dir` is where the page is written, so that links to the runs' report.html
// (or directories) are relative to it; a run whose directory does not exist is not linked.
std::string render_history_html(const std::vector<HistoryEntry>& runs,
                                const HistoryCommandOptions& options,
                                const std::string& html_dir);

// The --slo limits in a run's stored config JSON ("slo": [expression...]) on `metric`, converted
// to `unit` (ms/s/us, % to a fraction); nullopt when none or not convertible.
std::optional<double> history_slo_limit(const std::string& config_json, const std::string& metric,
                                        const std::string& unit);

}  // namespace llmperf

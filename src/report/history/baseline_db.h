// `--baseline db:FILE` for one run: reads the last N comparable runs of the history database
// (store/history_reader.h: same --name, same run within the benchmark, every --tag of this run,
// started before it), judges this run's figures (report/files/summary_figures.h) against them
// (verdict/history_baseline.h), and renders the verdict for the terminal.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/files/summary_figures.h"
#include "report/report.h"
#include "verdict/history_baseline.h"

namespace llmperf {

// Which history runs a run is compared with.
struct HistoryRunKey {
  std::string name;       // --name ("" when none)
  std::string run_label;  // the run's directory name, e.g. "parallel_8_number_100"
  std::vector<std::pair<std::string, std::string>> tags;  // --tag: each must be on the history run
  double started_unix = 0;  // this run's start: only runs started before it are compared
};

// This run's figures, as summary.json would give them (summary_figures of its SummaryFile).
std::vector<SummaryFigure> run_figures(const ReportOptions& options, const RunInfo& info,
                                       const RunSummary& summary);

// Judges `current` against the database at `db_path`, over history_baseline_metrics(). A file
// that cannot be read gives a comparison whose `error` says why (and which counts as failed).
HistoryComparison compare_run_to_history(const std::string& db_path,
                                         const HistoryBaselineOptions& options,
                                         const HistoryRunKey& key,
                                         const std::vector<SummaryFigure>& current);

// The terminal's block: "Baseline (history): FILE, ..." a table of metric, current, median, band,
// verdict, the runs compared, and a closing PASS/FAIL line naming each regression with its band.
std::string render_history_baseline(const HistoryComparison& comparison);

}  // namespace llmperf

// `--baseline db:FILE` in the terminal (app/baseline_db.h judges): the run's figures as the
// history stores them, and the block that shows the judgement.
#pragma once

#include <map>
#include <string>

#include "core/history_entry.h"
#include "report/report.h"
#include "verdict/history_baseline.h"

namespace llmperf {

// This run's figures by name ("ttft.p99" -> value and unit), as summary.json would give them
// (summary_figures of its SummaryFile; the first of a name where two share it).
std::map<std::string, HistoryEntryFigure> run_figures(const ReportOptions& options,
                                                      const RunInfo& info,
                                                      const RunSummary& summary);

// The terminal's block: "Baseline (history): FILE, ..." a table of metric, current, median, band,
// verdict, the runs compared, and a closing PASS/FAIL line naming each regression with its band.
std::string render_history_baseline(const HistoryComparison& comparison);

}  // namespace llmperf

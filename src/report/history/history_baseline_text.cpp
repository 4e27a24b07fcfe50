// The terminal's block of --baseline db: for one run, and the run's figures it judges
// (history_baseline_text.h).
#include "report/history/history_baseline_text.h"

#include <fmt/format.h>

#include "report/files/summary_figures.h"
#include "report/internal.h"

namespace llmperf {

std::map<std::string, HistoryEntryFigure> run_figures(const ReportOptions& options,
                                                      const RunInfo& info,
                                                      const RunSummary& summary) {
  std::map<std::string, HistoryEntryFigure> figures;
  for (const SummaryFigure& figure :
       summary_figures(report_detail::summary_file(options, info, summary))) {
    figures.emplace(figure.name(), HistoryEntryFigure{figure.value, figure.unit});
  }
  return figures;
}

std::string render_history_baseline(const HistoryComparison& c) {
  std::string out = fmt::format("Baseline (history): {}, runs with {}\n", c.db_path, c.match);
  if (!c.error.empty()) {
    return out +
           fmt::format("Baseline verdict: FAIL (the history could not be read: {})\n", c.error);
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<const HistoryJudgement*> regressions;
  size_t most_runs = 0;
  const HistoryJudgement* widest = nullptr;
  for (const HistoryJudgement& row : c.rows) {
    const bool judged_band = row.runs >= static_cast<size_t>(kMinHistoryRuns);
    rows.push_back({row.metric + (row.unit.empty() ? "" : " (" + row.unit + ")"),
                    report_detail::format_number(row.current),
                    judged_band ? report_detail::format_number(row.median) : "-",
                    judged_band ? "± " + report_detail::format_number(row.half_width) : "-",
                    std::to_string(row.runs), report_detail::verdict_name(row.verdict)});
    if (row.verdict == MetricVerdict::kRegression) regressions.push_back(&row);
    if (row.runs > most_runs) most_runs = row.runs, widest = &row;
  }
  out += report_detail::render_table({"Metric", "Current", "Median", "Band", "Runs", "Verdict"},
                                     rows, {5});
  if (widest != nullptr) {
    out += fmt::format(
        "History: {} run(s), {} .. {} ({} .. {}); band = median ± max({:g} × MAD, "
        "{:g} % of the median)\n",
        widest->runs, widest->first_run_id, widest->last_run_id, widest->first_started_at,
        widest->last_started_at, widest->k, kMinRelativeBand * 100);
  } else {
    out += fmt::format("History: no matching run (at least {} are needed to judge)\n",
                       kMinHistoryRuns);
  }
  if (regressions.empty()) {
    out += "Baseline verdict: PASS (no value outside its noise band)\n";
  } else {
    out += fmt::format("Baseline verdict: FAIL ({} regression{} outside the noise band)\n",
                       regressions.size(), regressions.size() == 1 ? "" : "s");
    for (const HistoryJudgement* row : regressions) out += "  " + row->text + "\n";
  }
  return out;
}

}  // namespace llmperf

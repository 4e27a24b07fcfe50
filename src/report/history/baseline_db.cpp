// --baseline db: for one run: read the history, judge, render (baseline_db.h).
#include "report/history/baseline_db.h"

#include <fmt/format.h>

#include <filesystem>

#include "report/internal.h"
#include "report/summary_file.h"
#include "store/history_reader.h"

namespace llmperf {
namespace {

std::string history_match_text(const HistoryRunKey& key) {
  std::string text = fmt::format("name \"{}\", run {}", key.name, key.run_label);
  for (const auto& [k, v] : key.tags) text += fmt::format(", {}={}", k, v);
  return text;
}

}  // namespace

std::vector<SummaryFigure> run_figures(const ReportOptions& options, const RunInfo& info,
                                       const RunSummary& summary) {
  return summary_figures(report_detail::summary_file(options, info, summary));
}

HistoryComparison compare_run_to_history(const std::string& db_path,
                                         const HistoryBaselineOptions& options,
                                         const HistoryRunKey& key,
                                         const std::vector<SummaryFigure>& current) {
  HistoryComparison comparison;
  comparison.run_name = key.run_label;
  comparison.db_path = db_path;
  comparison.match = history_match_text(key);
  const std::vector<std::string>& metrics = history_baseline_metrics();
  std::vector<HistoryEntry> runs;
  try {
    // Not there yet: the first run of a history that --results-db starts (config validation
    // refused a missing file otherwise). Every metric is then not judged.
    std::error_code missing;
    if (!std::filesystem::exists(db_path, missing)) return comparison;
    SqliteDb db(db_path, SqliteDb::Mode::kReadOnly);
    check_history_db(db);
    HistoryFilter filter;
    filter.name = key.name;
    filter.run_label = key.run_label;
    filter.tags = key.tags;
    filter.started_before_unix = key.started_unix;
    filter.last = options.runs;
    runs = read_history(db, filter, metrics);
  } catch (const SqliteError& error) {
    comparison.error = error.what();
    return comparison;
  }
  for (const std::string& metric : metrics) {
    std::vector<HistoryValue> values;
    std::string unit;
    for (const HistoryEntry& run : runs) {
      const auto it = run.figures.find(metric);
      if (it == run.figures.end() || !it->second.value) continue;
      values.push_back({run.run_id, run.started_at, *it->second.value});
      unit = it->second.unit;
    }
    const SummaryFigure* figure = find_figure(current, metric);
    if (figure != nullptr) unit = figure->unit;
    const bool fraction = metric == "error_rate" || metric == "success_rate";
    comparison.rows.push_back(judge_against_history(
        metric, unit, values, figure != nullptr ? figure->value : std::nullopt, options,
        fraction ? 0.01 : 0));
  }
  return comparison;
}

std::string render_history_baseline(const HistoryComparison& c) {
  std::string out = fmt::format("Baseline (history): {}, runs with {}\n", c.db_path, c.match);
  if (!c.error.empty()) {
    return out + fmt::format("Baseline verdict: FAIL (the history could not be read: {})\n",
                             c.error);
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
    out += fmt::format("History: {} run(s), {} .. {} ({} .. {}); band = median ± max({:g} × MAD, "
                       "{:g} % of the median)\n",
                       widest->runs, widest->first_run_id, widest->last_run_id,
                       widest->first_started_at, widest->last_started_at, widest->k,
                       kMinRelativeBand * 100);
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

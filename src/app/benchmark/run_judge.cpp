// See run_judge.h.
#include "app/benchmark/run_judge.h"

#include "app/baseline_db.h"
#include "report/history/history_baseline_text.h"
#include "verdict/history_baseline.h"

namespace llmperf {

RunJudge::RunJudge(const VerdictPlan& plan) : plan_(plan) {
  if (!plan.baseline) return;
  if (plan.baseline->history) {
    history_db_ = plan.baseline->path;  // read after each run (app/baseline_db.h)
  } else {
    baseline_ = load_baseline(plan.baseline->path);
  }
}

void RunJudge::judge(const RunPlan& run, const ReportOptions& report, bool repeat,
                     RunResult& result) const {
  result.verdict = evaluate_slos(run.name, plan_.slos, result.summary);
  for (const auto& [slo, outcome] : result.verdict.results) {
    result.info.slo.push_back({slo.expression, outcome.passed, outcome.text});
  }
  if (repeat) return;  // repeats are judged together, on intervals
  if (baseline_) {
    result.baseline = compare_to_baseline(*baseline_, result.summary, plan_.tolerance);
  }
  if (!history_db_.empty()) result.history_baseline = against_history(run, report, result);
}

// --baseline db:FILE: this run against the last --baseline-runs comparable runs of the history.
HistoryComparison RunJudge::against_history(const RunPlan& run, const ReportOptions& report,
                                            const RunResult& result) const {
  HistoryRunKey key;
  key.name = plan_.history_name;
  key.run_label = run.name;
  key.tags = plan_.history_tags;  // --tag, but those --baseline-ignore-tag leaves out
  key.started_unix = static_cast<double>(result.info.anchor_unix_ns) / 1e9;
  return compare_run_to_history(history_db_, plan_.history, key,
                                run_figures(report, result.info, result.summary));
}

RunVerdict RunJudge::judge_repeats(const std::string& name,
                                   const std::vector<const RunSummary*>& repeats) const {
  return evaluate_slos_on_repeats(name, plan_.slos, repeats);
}

std::optional<BaselineComparison> RunJudge::compare_repeats(
    const std::vector<RepeatedMetric>& metrics) const {
  if (!baseline_) return std::nullopt;
  return compare_repeats_to_baseline(*baseline_, metrics, plan_.tolerance);
}

void count_verdicts(const RunResult& run, BenchmarkResult& benchmark) {
  if (!run.verdict.passed()) ++benchmark.slo_failures;
  if (run.baseline && run.baseline->regressed()) ++benchmark.regressions;
  if (run.history_baseline && run.history_baseline->regressed()) ++benchmark.regressions;
}

}  // namespace llmperf

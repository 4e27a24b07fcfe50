// See run_judge.h.
#include "app/benchmark/run_judge.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/baseline_db.h"
#include "report/history/history_baseline_text.h"
#include "verdict/history_baseline.h"

namespace llmperf {

RunJudge::RunJudge(const VerdictConfig& verdicts, const OutputConfig& output)
    : verdicts_(verdicts), output_(output) {
  for (const std::string& expression : verdicts.slo) slos_.push_back(parse_slo(expression));
  // --search rate: a probe passes only when the server kept up with the rate asked. Otherwise a
  // probe whose requests queued could pass on the latencies of the few it served.
  if (verdicts.search == "rate") {
    slos_.push_back(
        parse_slo(fmt::format("rate_sustained>={:g}%", 100 - verdicts.rate_tolerance_pct)));
  }
  if (verdicts.baseline_path.empty()) return;
  const BaselineSource baseline = parse_baseline_source(verdicts.baseline_path);
  if (baseline.history) {
    history_db_ = baseline.path;  // read after each run (app/baseline_db.h)
  } else {
    baseline_ = load_baseline(baseline.path);
  }
}

void RunJudge::judge(const RunPlan& run, const ReportOptions& report, bool repeat,
                     RunResult& result) const {
  result.verdict = evaluate_slos(run.name, slos_, result.summary);
  for (const auto& [slo, outcome] : result.verdict.results) {
    result.info.slo.push_back({slo.expression, outcome.passed, outcome.text});
  }
  if (repeat) return;  // repeats are judged together, on intervals
  if (baseline_) {
    result.baseline = compare_to_baseline(*baseline_, result.summary,
                                          parse_tolerance(verdicts_.tolerance));
  }
  if (!history_db_.empty()) result.history_baseline = against_history(run, report, result);
}

// --baseline db:FILE: this run against the last --baseline-runs comparable runs of the history.
HistoryComparison RunJudge::against_history(const RunPlan& run, const ReportOptions& report,
                                            const RunResult& result) const {
  HistoryBaselineOptions options;
  options.runs = verdicts_.baseline_runs;
  options.k = verdicts_.noise_k;
  HistoryRunKey key;
  key.name = output_.name;
  key.run_label = run.name;
  for (const auto& tag : output_.tags) {  // but those --baseline-ignore-tag leaves out
    if (std::find(verdicts_.baseline_ignore_tags.begin(),
                  verdicts_.baseline_ignore_tags.end(),
                  tag.first) == verdicts_.baseline_ignore_tags.end()) {
      key.tags.push_back(tag);
    }
  }
  key.started_unix = static_cast<double>(result.info.anchor_unix_ns) / 1e9;
  return compare_run_to_history(history_db_, options, key,
                                run_figures(report, result.info, result.summary));
}

RunVerdict RunJudge::judge_repeats(const std::string& name,
                                   const std::vector<const RunSummary*>& repeats) const {
  return evaluate_slos_on_repeats(name, slos_, repeats);
}

std::optional<BaselineComparison> RunJudge::compare_repeats(
    const std::vector<RepeatedMetric>& metrics) const {
  if (!baseline_) return std::nullopt;
  return compare_repeats_to_baseline(*baseline_, metrics,
                                     parse_tolerance(verdicts_.tolerance));
}

void count_verdicts(const RunResult& run, BenchmarkResult& benchmark) {
  if (!run.verdict.passed()) ++benchmark.slo_failures;
  if (run.baseline && run.baseline->regressed()) ++benchmark.regressions;
  if (run.history_baseline && run.history_baseline->regressed()) ++benchmark.regressions;
}

}  // namespace llmperf

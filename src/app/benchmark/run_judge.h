// The verdicts of a benchmark's runs: --slo (and --search rate's own SLO on the rate sustained),
// --baseline FILE and --baseline db:FILE on one run, and the SLOs and --baseline FILE on the 95 %
// intervals of --num-runs' repeats, as the plan's VerdictPlan says (plan/verdict_plan.h: the SLOs
// are parsed there). Judging changes no summary; the caller counts the failures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/benchmark.h"
#include "plan/run_plan.h"
#include "plan/verdict_plan.h"
#include "report/report.h"
#include "verdict/baseline.h"
#include "verdict/repeats.h"
#include "verdict/slo.h"

namespace llmperf {

class RunJudge {
 public:
  // Reads --baseline FILE (report's load_baseline, which throws for a file it cannot read).
  // `plan` must outlive the judge.
  explicit RunJudge(const VerdictPlan& plan);

  // Judges `result`, whose summary is measured: its verdict and info.slo, and (unless it is one
  // of --num-runs' repeats, which are judged together) its baseline and history baseline. The
  // history database is read before the run's files are written, so that a --results-db on the
  // same file cannot hold the run yet.
  void judge(const RunPlan& run, const ReportOptions& report, bool repeat, RunResult& result) const;

  bool has_slos() const { return !plan_.slos.empty(); }
  // --slo on the interval of one run's repeats.
  RunVerdict judge_repeats(const std::string& name,
                           const std::vector<const RunSummary*>& repeats) const;
  // --baseline FILE on the intervals of one run's repeats; nullopt without --baseline FILE.
  std::optional<BaselineComparison> compare_repeats(
      const std::vector<RepeatedMetric>& metrics) const;

 private:
  HistoryComparison against_history(const RunPlan& run, const ReportOptions& report,
                                    const RunResult& result) const;

  const VerdictPlan& plan_;
  std::optional<BaselineSummary> baseline_;  // --baseline FILE
  std::string history_db_;                   // --baseline db:FILE: the history database
};

// Counts a judged run's failures into `benchmark`: a violated --slo, a regression against either
// baseline.
void count_verdicts(const RunResult& run, BenchmarkResult& benchmark);

}  // namespace llmperf

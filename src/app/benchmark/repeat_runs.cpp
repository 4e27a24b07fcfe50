// --num-runs' repeats of one run (see run_series.h): the run K times, then the key metrics' means
// and 95 % intervals over the repeats, --slo and --baseline FILE judged on those intervals.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <vector>

#include "app/benchmark/run_series.h"
#include "report/run_control.h"
#include "verdict/repeats.h"

namespace llmperf {

void run_repeats(RunSeries& series, const RunSpec& spec, size_t index, const std::string& title) {
  const SeriesPlan& order = series.plan.series;  // --num-runs, --sleep-interval
  BenchmarkResult& result = series.result;
  const size_t first = result.runs.size();
  for (int k = 1; k <= order.num_runs && !result.interrupted && !result.stop_aborted; ++k) {
    if (k > 1 && !pause_between_runs(order, result)) break;
    series.run_one(spec, index, fmt::format("{}, repeat {}/{}", title, k, order.num_runs), k);
  }
  const size_t count = result.runs.size() - first;
  if (count < 2) return;  // interrupted: nothing to compare
  std::vector<KeyMetrics> keys;
  for (size_t j = first; j < result.runs.size(); ++j) {
    keys.push_back(key_metrics(result.runs[j].summary));
  }
  const std::vector<RepeatedMetric> metrics = repeated_metrics(keys);
  const RunResult& last = result.runs.back();
  const std::string dir = std::filesystem::path(last.info.output_dir).parent_path().string();
  const std::string name = dir.substr(dir.find_last_of('/') + 1);
  // --slo on the interval of the repeats: the verdict of the run, in its summary.json and JUnit.
  std::vector<const RunSummary*> summaries;
  for (size_t j = first; j < result.runs.size(); ++j) summaries.push_back(&result.runs[j].summary);
  RepeatedRun repeated{name,  dir,     first,
                       count, metrics, series.judge.judge_repeats(name, summaries)};
  RunInfo info = last.info;
  info.slo.clear();
  for (const auto& [slo, outcome] : repeated.verdict.results) {
    info.slo.push_back({slo.expression, outcome.passed, outcome.text});
  }
  write_repeats_summary(series.plan.report, dir, {info, last.summary}, metrics);
  std::string text = render_repeats_text(name, count, metrics);
  if (series.judge.has_slos()) {
    text +=
        "\nSLOs on the 95 % interval of the repeats (violated only when the whole interval "
        "misses the limit)\n";
    text += render_verdicts_text(RunSummary{}, repeated.verdict);
    if (!repeated.verdict.passed()) ++result.slo_failures;
  }
  result.repeated.push_back(std::move(repeated));
  if (const auto comparison = series.judge.compare_repeats(metrics)) {
    text += render_baseline_table(*comparison);
    if (comparison->regressed()) ++result.regressions;
  }
  spdlog::info("repeats summarised in {}/summary.json", dir);
  result.repeats_text += text;
}

}  // namespace llmperf

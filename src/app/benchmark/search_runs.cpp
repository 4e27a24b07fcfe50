// --search's probes (see run_series.h): bisection over parallel or rate (verdict/search.h), each
// probe a full run; the table goes to search_summary.md (report's render_search_text).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "app/benchmark/run_series.h"
#include "core/files.h"
#include "verdict/search.h"

namespace llmperf {

void run_search(RunSeries& series) {
  const VerdictPlan& verdicts = series.plan.verdicts;
  BenchmarkResult& result = series.result;
  const bool by_rate = verdicts.search_rate;
  const RunSpec base = series.plan.runs.front();
  const SearchSpec& spec = *verdicts.search;  // its range, precision and doubling
  int probes = 0;
  const SearchOutcome outcome = bisect_search(spec, [&](double value) -> std::optional<bool> {
    if (probes > 0 && !pause_between_runs(series.plan.series, result)) return std::nullopt;
    RunSpec run = base;
    if (by_rate) {
      run.rate = value;
    } else {
      run.parallel = static_cast<int>(value);
    }
    if (verdicts.search_number_multiplier > 0) {  // EvalScope: requests grow with the value
      run.number = std::max<int64_t>(1, std::llround(value * verdicts.search_number_multiplier));
    }
    const bool passed = series.run_one(run, static_cast<size_t>(probes),
                                       fmt::format("search probe {}", probes + 1), 0);
    ++probes;
    if (result.interrupted || result.stop_aborted) return std::nullopt;
    return passed && !result.runs.back().info.stopped_early;  // a stopped probe fails
  });
  if (!result.stop_aborted) result.stopped_early = 0;
  result.search_text = render_search_text(outcome, by_rate, sweep_rows(result));
  result.search = outcome;
  // Failing probes are how the search finds its bound; only "nothing passes" is a violation.
  result.slo_failures = outcome.best ? 0 : 1;
  write_file_atomic((std::filesystem::path(result.sweep_dir) / "search_summary.md").string(),
                    result.search_text);
}

}  // namespace llmperf

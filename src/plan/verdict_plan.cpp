// The verdict plan (see verdict_plan.h).
#include "plan/verdict_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/config/output.h"
#include "core/config/verdicts.h"
#include "verdict/baseline.h"

namespace llmperf {

VerdictPlan verdict_plan(const VerdictConfig& verdicts, const OutputConfig& output) {
  VerdictPlan plan;
  for (const std::string& expression : verdicts.slo) plan.slos.push_back(parse_slo(expression));
  plan.search_rate = verdicts.search == "rate";
  // --search rate: a probe passes only when the server kept up with the rate asked. Otherwise a
  // probe whose requests queued could pass on the latencies of the few it served.
  if (plan.search_rate) {
    plan.slos.push_back(
        parse_slo(fmt::format("rate_sustained>={:g}%", 100 - verdicts.rate_tolerance_pct)));
  }
  if (!verdicts.baseline_path.empty())
    plan.baseline = parse_baseline_source(verdicts.baseline_path);
  plan.tolerance = parse_tolerance(verdicts.tolerance);
  plan.history = {verdicts.baseline_runs, verdicts.noise_k};
  plan.history_name = output.name;
  const std::vector<std::string>& ignored = verdicts.baseline_ignore_tags;
  for (const auto& tag : output.tags) {
    if (std::find(ignored.begin(), ignored.end(), tag.first) == ignored.end()) {
      plan.history_tags.push_back(tag);
    }
  }
  plan.stop_rules = early_stop_rules(verdicts);
  if (!verdicts.search.empty()) {
    SearchSpec search;
    search.lo = verdicts.search_range[0];
    search.hi = verdicts.search_range[1];
    search.integer = !plan.search_rate;
    search.relative_precision = verdicts.search_precision_pct / 100;
    search.doubling = verdicts.search_doubling;
    plan.search = search;
  }
  plan.search_number_multiplier = verdicts.search_number_multiplier;
  plan.abort_on_stop = verdicts.on_stop == "abort";
  return plan;
}

EarlyStopRules early_stop_rules(const VerdictConfig& verdicts) {
  EarlyStopRules rules;
  rules.max_error_rate = verdicts.max_error_rate;
  rules.error_window = verdicts.error_window;
  rules.max_errors = verdicts.max_errors;
  rules.stop_on_saturation = verdicts.stop_on_saturation;
  rules.saturation_window_ns = std::llround(verdicts.saturation_window_s * 1e9);
  return rules;
}

}  // namespace llmperf

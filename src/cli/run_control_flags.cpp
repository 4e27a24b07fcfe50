// The flags of early stops and repeated runs: when a run stops before its end, what a sweep does
// then, and how often each run is repeated (docs/flags.md, "Early stops and repeated runs").
#include "cli/flags.h"

#include <fmt/format.h>

namespace llmperf {

void add_run_control_options(CLI::App& app, Config& c) {
  const char* group = "Early stops and repeated runs";
  app.add_option("--max-errors", c.verdicts.max_errors,
                 "Stop a run once this many measured requests have failed (0 = never); exit code "
                 "4")
      ->group(group);
  app.add_option("--max-error-rate", c.verdicts.max_error_rate,
                 "Stop a run when more than this fraction (0..1) of the last --error-window "
                 "finished measured requests failed, judged once that many have finished; exit "
                 "code 4")
      ->group(group);
  app.add_option("--error-window", c.verdicts.error_window,
                 "Requests the --max-error-rate is taken over (default 100)")
      ->group(group);
  app.add_flag("--stop-on-saturation", c.verdicts.stop_on_saturation,
               "Open loop: stop a run when the server cannot keep up, i.e. requests outstanding "
               "and the median TTFT both grow steadily over the last 6 windows (docs/flags.md); "
               "exit code 4")
      ->group(group);
  app.add_option("--saturation-window", c.verdicts.saturation_window_s,
                 "Seconds per window of --stop-on-saturation's test (default 2: at least 12 s "
                 "of a run before it can stop)")
      ->group(group);
  app.add_option("--on-stop", c.verdicts.on_stop,
                 "After a run stopped early: next (default) goes on with the sweep's next run, "
                 "abort skips the rest (a --search probe that stopped counts as failed)")
      ->check(CLI::IsMember({"next", "abort"}))
      ->group(group);
  app.add_option("--num-runs", c.load.num_runs,
                 "Run each run of the benchmark K times (--sleep-interval between), each into "
                 "<run>/repeat_<k>; <run>/summary.json adds each key metric's mean, 95 % "
                 "confidence interval and CV (noisy above 5 %), and --baseline judges on the "
                 "intervals")
      ->group(group);
}

void validate_run_control(const Config& c, std::vector<std::string>& errors) {
  if (c.verdicts.max_error_rate >= 0 &&
      !(c.verdicts.max_error_rate > 0 && c.verdicts.max_error_rate <= 1)) {
    errors.push_back(fmt::format(
        "--max-error-rate is a fraction of requests, above 0 and at most 1 (0.05 = 5 %), got {}",
        c.verdicts.max_error_rate));
  }
  if (c.verdicts.error_window < 1) {
    errors.push_back(
        fmt::format("--error-window must be >= 1 request, got {}", c.verdicts.error_window));
  }
  if (c.verdicts.max_errors < 0) {
    errors.push_back(
        fmt::format("--max-errors must be >= 0 (0 = never stop), got {}", c.verdicts.max_errors));
  }
  if (!(c.verdicts.saturation_window_s >= 0.1 && c.verdicts.saturation_window_s <= 3600)) {
    errors.push_back(fmt::format("--saturation-window must be between 0.1 and 3600 seconds, got {}",
                                 c.verdicts.saturation_window_s));
  }
  if (c.verdicts.stop_on_saturation && c.load.rate.empty() && !c.load.ramp_up.on()) {
    errors.push_back(
        "--stop-on-saturation judges an open loop: give --rate (a closed loop cannot outrun the "
        "server)");
  }
  if (c.load.num_runs < 1 || c.load.num_runs > 1000) {
    errors.push_back(fmt::format("--num-runs must be between 1 and 1000, got {}", c.load.num_runs));
  }
  if (c.load.num_runs > 1 && !c.verdicts.search.empty()) {
    errors.push_back("--num-runs does not combine with --search (each probe is one run)");
  }
  if (c.load.num_runs > 1 && c.load.shards > 1) {
    errors.push_back("--num-runs does not combine with sharded runs: repeat the whole sharded "
                     "benchmark instead");
  }
  if (c.verdicts.stop_on_saturation && c.workload.multi_turn) {
    errors.push_back(
        "--stop-on-saturation does not apply to --multi-turn conversations (their later turns "
        "have no planned send time)");
  }
}

}  // namespace llmperf

// What each stage takes of a Config (plan/stage_options.h): the early-stop rules only when a flag
// asks for one, and what every run's summary shares.
#include <gtest/gtest.h>

#include "core/config.h"
#include "plan/stage_options.h"
#include "plan/verdict_plan.h"

namespace llmperf {
namespace {

TEST(StageOptions, EarlyStopRulesAreOnlyWhatTheFlagsAskFor) {
  VerdictConfig verdicts;
  EXPECT_FALSE(early_stop_rules(verdicts).any());
  verdicts.max_errors = 3;
  EXPECT_TRUE(early_stop_rules(verdicts).any());
  verdicts.saturation_window_s = 0.5;
  EXPECT_EQ(early_stop_rules(verdicts).saturation_window_ns, 500'000'000);
}

TEST(StageOptions, MetricsOptionsCarryWhatEveryRunsSummaryShares) {
  Config config;
  config.output.percentiles = {50, 99};
  config.body.ignore_eos = true;
  config.target.urls = {"http://a/v1/chat/completions", "http://b/v1/chat/completions"};
  const MetricsOptions options = metrics_options(config);
  EXPECT_EQ(options.percentiles, (std::vector<double>{50, 99}));
  EXPECT_TRUE(options.output_forced);
  EXPECT_EQ(options.url_count, 2u);
  EXPECT_EQ(options.rate_segments, 0);
  EXPECT_FALSE(options.open_loop);  // each run's own
  config.load.ramp_up = {"linear", 1, 10};
  EXPECT_EQ(metrics_options(config).rate_segments, kRampSegments);
}

}  // namespace
}  // namespace llmperf

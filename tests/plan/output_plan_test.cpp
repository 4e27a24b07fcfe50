// The output plan (plan/output_plan.h): no pushes without --push-gateway; with it, the grouping
// key's name is --name, else the model, and the Pushgateway shares the target's TLS settings.
#include <gtest/gtest.h>

#include "core/config/output.h"
#include "core/config/target.h"
#include "plan/output_plan.h"

namespace llmperf {

TEST(OutputPlan, NoPushesWithoutAGateway) {
  OutputConfig output;
  output.junit_path = "junit.xml";
  output.results_db = "history.db";
  const OutputPlan plan = output_plan(output, TargetConfig{}, "qwen");
  EXPECT_FALSE(plan.push);
  EXPECT_EQ(plan.junit_path, "junit.xml");
  EXPECT_EQ(plan.results_db, "history.db");
  EXPECT_EQ(plan.log_every_n_query, 10);
}

TEST(OutputPlan, ThePushGroupIsNamedByNameElseTheModel) {
  OutputConfig output;
  output.push_gateway = "http://gateway:9091";
  output.tags = {{"gpu", "h100"}};
  TargetConfig target;
  target.insecure = true;
  const OutputPlan by_model = output_plan(output, target, "qwen");
  ASSERT_TRUE(by_model.push);
  EXPECT_EQ(by_model.push->name, "qwen");
  EXPECT_TRUE(by_model.push->insecure);
  EXPECT_EQ(by_model.push->tags, output.tags);
  output.name = "nightly";
  EXPECT_EQ(output_plan(output, target, "qwen").push->name, "nightly");
}

}  // namespace llmperf

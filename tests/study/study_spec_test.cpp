// study.json's spec: every field survives a round trip; a missing field takes its default; a wrong
// type or a missing --serve is an error naming the field.
#include <stdexcept>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "study/study_spec.h"

namespace llmperf {
namespace {

TEST(StudySpec, RoundTripsEveryField) {
  StudySpec spec;
  spec.serve = "vllm serve q --port {port}";
  spec.stop_cmd = "docker stop x-{trial}";
  spec.between_cmd = "true";
  spec.params = {"a=1,2", "b=int:1:4"};
  spec.strategy = "halving:2";
  spec.objective = "ttft.p99:min";
  spec.excludes = {"a==1"};
  spec.num_runs = 3;
  spec.reset_cache = false;
  spec.ready_timeout_s = 12.5;
  spec.stop_timeout_s = 2;
  spec.bench_args = {"--url", "http://127.0.0.1:{port}/v1/completions", "-n", "10"};
  spec.prefer = "np:min";
  spec.confirm = true;
  spec.gpus_per_trial = "{tp}";
  spec.gpu_hour_cost = 2.5;
  spec.slots = "0,1;2,3";
  const StudySpec back = study_spec_from_json(nlohmann::json::parse(to_json(spec).dump()));
  EXPECT_EQ(to_json(back), to_json(spec));
  EXPECT_EQ(back.bench_args, spec.bench_args);
  EXPECT_FALSE(back.reset_cache);
  EXPECT_EQ(back.prefer, "np:min");
  EXPECT_TRUE(back.confirm);
  EXPECT_EQ(back.gpus_per_trial, "{tp}");
  EXPECT_DOUBLE_EQ(back.gpu_hour_cost, 2.5);
  EXPECT_EQ(back.slots, "0,1;2,3");
  EXPECT_FALSE(to_json(StudySpec{}).contains("slots"));  // written only when given
}

TEST(StudySpec, DefaultsAndErrors) {
  const StudySpec spec = study_spec_from_json({{"serve", "x"}});
  EXPECT_EQ(spec.strategy, "grid");
  EXPECT_EQ(spec.num_runs, 1);
  EXPECT_THROW(study_spec_from_json({{"strategy", "grid"}}), std::invalid_argument);
  try {
    study_spec_from_json({{"serve", "x"}, {"num_runs", "three"}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("num_runs"), std::string::npos) << e.what();
  }
}

// Several --objective: "objectives" lists them all (and "objective" keeps the first, for an older
// reader); one objective writes no "objectives", so its study.json is what it was.
TEST(StudySpec, SeveralObjectivesRoundTripAndOneWritesNoList) {
  StudySpec spec;
  spec.serve = "x {port}";
  EXPECT_FALSE(to_json(spec).contains("objectives"));
  spec.objective = "output_throughput:max";
  spec.more_objectives = {"ttft.p99:min"};
  const nlohmann::json json = to_json(spec);
  EXPECT_EQ(json.at("objective"), "output_throughput:max");
  EXPECT_EQ(json.at("objectives"), (nlohmann::json{"output_throughput:max", "ttft.p99:min"}));
  const StudySpec back = study_spec_from_json(json);
  EXPECT_EQ(back.objective, "output_throughput:max");
  EXPECT_EQ(back.more_objectives, std::vector<std::string>{"ttft.p99:min"});
}

}  // namespace
}  // namespace llmperf

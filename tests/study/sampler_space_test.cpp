// The learned searches' pure parts: which parameters are ordered and how they are spaced (the
// index encoding told to Optuna), the bridge's lines both ways, what a trial tells the sampler,
// cmaes's refusal of words, and the budget that counts benchmarks, not start failures.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "study/sampler_space.h"

namespace llmperf {
namespace {

using nlohmann::json;

TEST(SamplerSpace, GeometricValuesAreLogSpacedEvenOnesLinear) {
  EXPECT_EQ(number_spacing({512, 1024, 2048, 4096}), NumberSpacing::kLog);
  EXPECT_EQ(number_spacing({4096, 2048, 1024}), NumberSpacing::kLog);  // falling too
  // A gap in a geometric list (no 1024) is still nearer geometric than even.
  EXPECT_EQ(number_spacing({64, 128, 256, 512, 2048, 4096, 8192}), NumberSpacing::kLog);
  EXPECT_EQ(number_spacing({64, 128, 192, 256}), NumberSpacing::kLinear);
  EXPECT_EQ(number_spacing({0.1, 0.2, 0.3}), NumberSpacing::kLinear);
  // Too few to tell, not monotone, or not all positive: linear.
  EXPECT_EQ(number_spacing({1, 100}), NumberSpacing::kLinear);
  EXPECT_EQ(number_spacing({1, 100, 10}), NumberSpacing::kLinear);
  EXPECT_EQ(number_spacing({0, 1, 10, 100}), NumberSpacing::kLinear);
  EXPECT_EQ(number_spacing({-4, -2, -1}), NumberSpacing::kLinear);
}

TEST(SamplerSpace, NumbersAreOrderedIndicesAndOnlyWordsAreCategorical) {
  const std::vector<ParamSpace> spaces =
      parse_params({"B=512,1024,2048", "cp=true,false", "n=int:1:1000000", "r=log:0.01:10:4",
                    "f=float:0:1:3", "pc=flag:--pc", "mixed=1,auto"});
  const std::vector<SamplerParam> params = sampler_params(spaces);
  ASSERT_EQ(params.size(), 7u);
  EXPECT_TRUE(params[0].ordered);
  EXPECT_EQ(params[0].count, 3u);
  EXPECT_EQ(params[0].spacing, NumberSpacing::kLog);
  EXPECT_EQ(params[0].describe(), "B: 3 numbers, log-spaced, an index 0..2");
  EXPECT_FALSE(params[1].ordered);
  EXPECT_EQ(params[1].choices, (std::vector<std::string>{"true", "false"}));
  EXPECT_EQ(params[1].describe(), "cp: 2 values, categorical");
  EXPECT_TRUE(params[2].ordered);  // a million values: indexed, never listed
  EXPECT_EQ(params[2].count, 1000000u);
  EXPECT_EQ(params[2].spacing, NumberSpacing::kLinear);
  EXPECT_EQ(params[3].spacing, NumberSpacing::kLog);
  EXPECT_EQ(params[4].spacing, NumberSpacing::kLinear);
  EXPECT_FALSE(params[5].ordered);
  EXPECT_EQ(params[5].choices, (std::vector<std::string>{"--pc", ""}));
  EXPECT_FALSE(params[6].ordered);  // one word makes a list categorical

  EXPECT_EQ(sampler_value(spaces[0], 1), "1024");
  EXPECT_EQ(sampler_value(spaces[2], 999999), "1000000");
  EXPECT_EQ(sampler_value(spaces[3], 3), "10");
  EXPECT_THROW(sampler_value(spaces[0], 3), std::invalid_argument);
  EXPECT_EQ(sampler_index(spaces[0], "2048"), 2u);
  EXPECT_EQ(sampler_index(spaces[2], "17"), 16u);
  EXPECT_EQ(sampler_index(spaces[0], "100"), std::nullopt);
  EXPECT_EQ(sampler_index(spaces[2], "0"), std::nullopt);
}

TEST(SamplerSpace, CmaesRefusesWordsAndFlags) {
  EXPECT_NO_THROW(check_sampler_space(SamplerKind::kCmaes, parse_params({"B=512,1024", "n=int:1:9"})));
  EXPECT_NO_THROW(check_sampler_space(SamplerKind::kTpe, parse_params({"cp=true,false"})));
  try {
    check_sampler_space(SamplerKind::kCmaes, parse_params({"B=512,1024", "cp=true,false"}));
    FAIL() << "cmaes took a word";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "--strategy cmaes: CMA-ES searches numbers only, and --param cp has the value "
              "'true' (a word or a flag); use --strategy tpe:N, which takes both");
  }
}

TEST(SamplerSpace, TheBridgeLinesCarryIndicesOutAndValuesBack) {
  const std::vector<ParamSpace> spaces = parse_params({"B=512,1024,2048", "cp=true,false"});
  const json init = json::parse(bridge_init_request(SamplerKind::kTpe, spaces, {true}, 7, 2));
  EXPECT_EQ(init.at("op"), "init");
  EXPECT_EQ(init.at("sampler"), "tpe");
  EXPECT_EQ(init.at("seed"), 7);
  EXPECT_EQ(init.at("startup"), 2);
  EXPECT_EQ(init.at("directions"), json::array({"maximize"}));
  EXPECT_EQ(init.at("params")[0], json::parse(R"({"name":"B","type":"int","low":0,"high":2})"));
  EXPECT_EQ(init.at("params")[1],
            json::parse(R"({"name":"cp","type":"categorical","choices":["true","false"]})"));

  const BridgeAsk ask = parse_bridge_ask(R"({"number": 4, "params": {"cp": "false", "B": 1}})", spaces);
  EXPECT_EQ(ask.number, 4);
  EXPECT_EQ(ask.params, (Assignment{{"B", "1024"}, {"cp", "false"}}));
  for (const char* bad : {R"({"number": 4, "params": {"B": 3, "cp": "true"}})",
                          R"({"number": 4, "params": {"B": 1, "cp": "maybe"}})",
                          R"({"number": 4, "params": {"B": "1", "cp": "true"}})",
                          R"({"number": 4, "params": {"B": 1}})", R"({"params": {}})", "[1]",
                          "not json", R"({"error": "ValueError: boom"})"}) {
    EXPECT_THROW(parse_bridge_ask(bad, spaces), std::invalid_argument) << bad;
  }
  try {
    parse_bridge_ok(R"({"error": "ValueError: boom"})");
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "the Optuna bridge: ValueError: boom");
  }

  const json add = json::parse(bridge_add_request(spaces, {{"B", "2048"}, {"cp", "true"}},
                                                  SamplerOutcome{true, {1234.5}, ""}));
  EXPECT_EQ(add, json::parse(R"({"op":"add","params":{"B":2,"cp":"true"},"values":[1234.5],)"
                             R"("feasible":true})"));
  EXPECT_THROW(bridge_add_request(spaces, {{"B", "4096"}, {"cp", "true"}}, SamplerOutcome{}),
               std::invalid_argument);
  const json tell = json::parse(bridge_tell_request(3, SamplerOutcome{false, {}, "start_failed: x"}));
  EXPECT_EQ(tell, json::parse(R"({"op":"tell","number":3,"feasible":false,"reason":"start_failed: x"})"));

  const BridgeHello missing = parse_bridge_hello(
      R"({"ready": false, "error": "ModuleNotFoundError: No module named 'optuna'", "python": "/p"})");
  EXPECT_FALSE(missing.ready);
  EXPECT_EQ(missing.python, "/p");
  EXPECT_EQ(missing.error, "ModuleNotFoundError: No module named 'optuna'");
  EXPECT_TRUE(parse_bridge_hello(R"({"ready": true, "optuna": "3.1.0"})").ready);
  EXPECT_THROW(parse_bridge_hello("Traceback (most recent call last):"), std::invalid_argument);
}

TEST(SamplerSpace, OnlyAnOkTrialIsFeasibleAndAnSloViolationKeepsItsValue) {
  TrialRecord record;
  record.status = TrialStatus::kOk;
  record.objective = 100;
  SamplerOutcome outcome = sampler_outcome(record);
  EXPECT_TRUE(outcome.feasible);
  EXPECT_EQ(outcome.values, std::vector<double>{100});

  record.status = TrialStatus::kSloViolated;
  record.reason = "ttft.p99 = 2500 ms, limit <= 2000 ms";
  outcome = sampler_outcome(record);
  EXPECT_FALSE(outcome.feasible);
  EXPECT_EQ(outcome.values, std::vector<double>{100});
  EXPECT_EQ(outcome.reason, "slo_violated: ttft.p99 = 2500 ms, limit <= 2000 ms");

  record.status = TrialStatus::kStartFailed;
  record.objective.reset();
  record.reason = "ValueError: no";
  outcome = sampler_outcome(record);
  EXPECT_FALSE(outcome.feasible);
  EXPECT_TRUE(outcome.values.empty());

  record.status = TrialStatus::kExcluded;
  record.reason = "--exclude 'B<1024'";
  EXPECT_EQ(sampler_outcome(record).reason, "excluded: --exclude 'B<1024'");
}

TEST(SamplerSpace, TheBudgetCountsBenchmarksAndEndsAfterThreeTimesAsManyDraws) {
  SearchBudget budget;
  budget.benchmarks = 2;
  EXPECT_FALSE(budget.done());
  budget.count(TrialStatus::kStartFailed);
  budget.count(TrialStatus::kExcluded);
  budget.count(TrialStatus::kReadyTimeout);
  EXPECT_EQ(budget.benchmarked, 0u);
  EXPECT_FALSE(budget.done());
  budget.count(TrialStatus::kSloViolated);
  EXPECT_FALSE(budget.done());
  budget.count(TrialStatus::kOk);
  EXPECT_TRUE(budget.done());
  EXPECT_EQ(budget.drawn, 5u);

  SearchBudget failing;
  failing.benchmarks = 2;
  for (int i = 0; i < 5; ++i) failing.count(TrialStatus::kStartFailed);
  EXPECT_FALSE(failing.done());
  failing.count(TrialStatus::kStartFailed);
  EXPECT_TRUE(failing.done()) << "a space that always fails ends after 3N draws";

  EXPECT_TRUE(reached_benchmark(TrialStatus::kBenchFailed));
  EXPECT_FALSE(reached_benchmark(TrialStatus::kStartFailed));
  EXPECT_EQ(sampler_startup_trials(3), 2);
  EXPECT_EQ(sampler_startup_trials(8), 3);
  EXPECT_EQ(sampler_startup_trials(30), 10);
  EXPECT_EQ(sampler_startup_trials(100), 10);
}

}  // namespace
}  // namespace llmperf

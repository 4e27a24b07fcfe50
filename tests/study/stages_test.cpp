// --stage parsed against --param, and the parameters each stage's study gets (study/stages.h).
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/stages.h"

namespace llmperf {
namespace {

using Texts = std::vector<std::string>;

std::string error_of(const Texts& stages, const Texts& params) {
  try {
    parse_stages(stages, parse_params(params));
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Stages, EachStageSearchesItsParametersWithTheEarlierOnesFixed) {
  const std::vector<ParamSpace> params = parse_params({"mnbt=2048", "model=qwen"});
  const std::vector<Stage> stages =
      parse_stages({"tp=1,2,4", "mns=64,128,256; mnbt=2048,8192"}, params);
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stage_names(stages[1]), "mns, mnbt");
  EXPECT_EQ(stage_dir_name(stages[1], 1), "stage_2_mns_mnbt");

  // Stage 1: tp searched; mns at its stage's first value, mnbt at its --param value.
  EXPECT_EQ(stage_param_texts(stages, 0, params, {}),
            (Texts{"tp=1,2,4", "mns=64", "mnbt=2048", "model=qwen"}));
  // Stage 2: tp fixed at what stage 1 chose.
  EXPECT_EQ(stage_param_texts(stages, 1, params, {{"tp", {"2"}}}),
            (Texts{"tp=2", "mns=64,128,256", "mnbt=2048,8192", "model=qwen"}));
  // A tied set fixes several values.
  EXPECT_EQ(stage_param_texts(stages, 1, params, {{"tp", {"2", "4"}}}),
            (Texts{"tp=2,4", "mns=64,128,256", "mnbt=2048,8192", "model=qwen"}));
}

TEST(Stages, RangesKeepTheirSpecAndFlagsAreFixedOnOrOff) {
  const std::vector<Stage> stages =
      parse_stages({"eager=flag:--enforce-eager", "mns=int:64:256:64"}, {});
  EXPECT_EQ(stage_param_texts(stages, 0, {}, {}),
            (Texts{"eager=flag:--enforce-eager", "mns=64"}));
  EXPECT_EQ(stage_param_texts(stages, 1, {}, {{"eager", {""}}}),
            (Texts{"eager=flag-off:--enforce-eager", "mns=int:64:256:64"}));
  EXPECT_EQ(stage_param_texts(stages, 1, {}, {{"eager", {"--enforce-eager"}}}),
            (Texts{"eager=flag-on:--enforce-eager", "mns=int:64:256:64"}));
  // The fixed forms read back as one value.
  EXPECT_EQ(grid_values(parse_param("eager=flag-off:--enforce-eager")), (Texts{""}));
  EXPECT_EQ(grid_values(parse_param("eager=flag-on:--enforce-eager")), (Texts{"--enforce-eager"}));
}

TEST(Stages, FlagsThatDoNotFitTogetherAreRefusedWithTheReason) {
  EXPECT_NE(error_of({"tp=1,2"}, {"tp=1,2"}).find("so --param may only give the one value"),
            std::string::npos);
  EXPECT_NE(error_of({"tp=1,2"}, {"np=1,4"}).find("a parameter that no stage searches takes one"),
            std::string::npos);
  EXPECT_NE(error_of({"tp=1,2", "tp=4,8"}, {}).find("'tp' is already in --stage 'tp=1,2'"),
            std::string::npos);
  EXPECT_NE(error_of({"tp=1,2;tp=4,8"}, {}).find("listed twice"), std::string::npos);
  EXPECT_NE(error_of({" ; "}, {}).find("no parameter"), std::string::npos);
  EXPECT_NE(error_of({"tp=4"}, {}).find("has one value"), std::string::npos);
  EXPECT_NE(error_of({"tp=int:8:4"}, {}).find("--stage 'tp=int:8:4': "), std::string::npos);
  EXPECT_EQ(error_of({"tp=1,2"}, {"tp=1", "np=4"}), "");
}

}  // namespace
}  // namespace llmperf

// --stage parsed against --param, and the parameters each stage's study gets (study/stages.h).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/stages.h"
#include "study/study_file.h"
#include "study/trial.h"

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

// Issue 39: a stage whose configurations are tied within noise fixes the whole tied set (the
// tie-break's best first) for the stages after it, its best named by the stage's --prefer.
TEST(Stages, ATiedSetIsFixedWhole) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("llmperf_stages_tied_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  StudySpec spec;
  spec.serve = "x {port}";
  spec.params = {"tp=1", "mns=64"};
  spec.stages = {"tp=1,2,4", "mns=64,128"};
  spec.prefer = "tp:max";
  const std::vector<Stage> stages = parse_stages(spec.stages, parse_params(spec.params));
  const fs::path stage_dir = dir / stage_dir_name(stages[0], 0);
  fs::create_directories(stage_dir);
  StudyInfo info;
  info.spec = spec;
  info.objective = "output_throughput";
  info.maximize = true;
  write_study_file(stage_dir.string(), info);
  {
    std::ofstream ledger(stage_dir / "study.jsonl");
    // tp=2 leads (110, [90, 130]); tp=1 (100, [80, 120]) is tied with it; tp=4's [55, 65] is not.
    const double values[][3] = {{100, 80, 120}, {110, 90, 130}, {60, 55, 65}};
    const char* tps[] = {"1", "2", "4"};
    for (int i = 0; i < 3; ++i) {
      TrialRecord record;
      record.trial = i;
      record.label = std::to_string(i) + "-" + tps[i];
      record.params = {{"tp", tps[i]}, {"mns", "64"}};
      record.objective = values[i][0];
      record.ci95_low = values[i][1];
      record.ci95_high = values[i][2];
      ledger << trial_to_json(record) << "\n";
    }
  }
  const std::vector<StageOutcome> path = read_stage_path(dir.string(), spec);
  ASSERT_GE(path.size(), 1u);
  EXPECT_EQ(path[0].best_label, "1-2");  // tp:max among the tied 1 and 2
  ASSERT_EQ(path[0].chosen.size(), 1u);
  EXPECT_EQ(path[0].chosen[0].first, "tp");
  EXPECT_EQ(path[0].chosen[0].second, (Texts{"2", "1"}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace llmperf

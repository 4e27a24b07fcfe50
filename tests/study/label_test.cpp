// Trial labels: the field report's "0-enable-64", flags as their name or "no-" and their name,
// unsafe characters replaced, empty and long values, names outside the spaces.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/label.h"

namespace llmperf {
namespace {

TEST(Label, TheFieldReportsForm) {
  const std::vector<ParamSpace> spaces = parse_params({"cp=true,false", "mnbt=64,128"});
  EXPECT_EQ(trial_label(0, spaces, {{"cp", "true"}, {"mnbt", "64"}}), "0-enable-64");
  EXPECT_EQ(trial_label(13, spaces, {{"cp", "false"}, {"mnbt", "8192"}}), "13-disable-8192");
  EXPECT_EQ(trial_label(2, spaces, {{"cp", "TRUE"}, {"mnbt", "128"}}), "2-enable-128");
  EXPECT_EQ(trial_label(7, spaces, {}), "7");
}

TEST(Label, FlagsReadAsTheirNameOrNoAndTheirName) {
  const ParamSpace pc = parse_param("pc=flag:--enable-prefix-caching");
  EXPECT_EQ(label_value(pc, "--enable-prefix-caching"), "enable-prefix-caching");
  EXPECT_EQ(label_value(pc, ""), "no-enable-prefix-caching");
  const ParamSpace bs = parse_param("bs=flag:--block-size 16");
  EXPECT_EQ(label_value(bs, "--block-size 16"), "block-size_16");
  EXPECT_EQ(label_value(bs, ""), "no-block-size_16");
  const ParamSpace single = parse_param("x=flag:-x");
  EXPECT_EQ(label_value(single, "-x"), "x");
  EXPECT_EQ(label_value(single, ""), "no-x");
  EXPECT_EQ(trial_label(1, {pc}, {{"pc", ""}}), "1-no-enable-prefix-caching");
}

TEST(Label, UnsafeCharactersBecomeUnderscores) {
  const ParamSpace m = parse_param("m=a");
  EXPECT_EQ(label_value(m, "Qwen/Qwen2-0.5B"), "Qwen_Qwen2-0.5B");
  EXPECT_EQ(label_value(m, "a b:c*?\"<>|\\"), "a_b_c_______");
  EXPECT_EQ(label_value(m, "1e+20"), "1e+20");
  EXPECT_EQ(label_value(m, "-5"), "-5");
  EXPECT_EQ(label_value(m, "0.25"), "0.25");
  EXPECT_EQ(label_value(m, "\xe4\xb8\xad"), "___");  // UTF-8 bytes
  EXPECT_EQ(label_value(m, ""), "_");
  EXPECT_EQ(label_value(m, "../.."), ".._..");
}

TEST(Label, LongValuesAreCut) {
  const ParamSpace m = parse_param("m=a");
  const std::string long_value(100, 'x');
  EXPECT_EQ(label_value(m, long_value), std::string(kMaxLabelValueLength, 'x'));
}

TEST(Label, ANameOutsideTheSpacesReadsAsAPlainValue) {
  EXPECT_EQ(trial_label(4, {}, {{"cp", "false"}, {"pc", ""}, {"x", "a/b"}}), "4-disable-_-a_b");
}

}  // namespace
}  // namespace llmperf

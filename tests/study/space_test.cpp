// `--param NAME=SPEC`: every kind of SPEC (choices, int, float, log, flag) with its defaults,
// every error message (each naming --param and the text), the grid values each kind takes (float
// noise rounded away, ints without ".0") and the grid's size.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/space.h"

namespace llmperf {
namespace {

// The message parse_param throws for `text` ("" when it does not throw).
std::string space_error(const std::string& text) {
  try {
    parse_param(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

using Values = std::vector<std::string>;

TEST(ParamSpace, ChoicesKeepTheirOrderAndAreTrimmed) {
  const ParamSpace space = parse_param(" mnbt = 512, 64 ,8192");
  EXPECT_EQ(space.name, "mnbt");
  EXPECT_EQ(space.spec, "512, 64 ,8192");
  EXPECT_EQ(space.kind, ParamKind::kChoices);
  EXPECT_EQ(space.choices, (Values{"512", "64", "8192"}));
  EXPECT_EQ(grid_values(space), (Values{"512", "64", "8192"}));
  EXPECT_EQ(grid_value_count(space), 3u);
}

TEST(ParamSpace, OneChoiceAndChoicesThatLookLikeOtherKinds) {
  EXPECT_EQ(parse_param("cp=true").choices, Values{"true"});
  // A kind word without ':' is a plain value; so is a value with ':' that names no kind.
  EXPECT_EQ(parse_param("m=int").choices, Values{"int"});
  EXPECT_EQ(parse_param("m=flag").choices, Values{"flag"});
  EXPECT_EQ(parse_param("h=host:8000,other:9").choices, (Values{"host:8000", "other:9"}));
  EXPECT_EQ(parse_param("_x9=a").name, "_x9");
}

TEST(ParamSpace, IntRangeWithAndWithoutStep) {
  const ParamSpace plain = parse_param("mns=int:1:4");
  EXPECT_EQ(plain.kind, ParamKind::kInt);
  EXPECT_EQ(plain.int_lo, 1);
  EXPECT_EQ(plain.int_hi, 4);
  EXPECT_EQ(plain.int_step, 1);
  EXPECT_EQ(grid_values(plain), (Values{"1", "2", "3", "4"}));

  const ParamSpace stepped = parse_param("mnbt=int:64:300:64");
  EXPECT_EQ(grid_values(stepped), (Values{"64", "128", "192", "256"}));  // 320 > HI
  EXPECT_EQ(grid_value_count(stepped), 4u);
  EXPECT_EQ(grid_values(parse_param("n=int:-2:+2:2")), (Values{"-2", "0", "2"}));
  EXPECT_EQ(grid_values(parse_param("n=int:5:5")), Values{"5"});
}

TEST(ParamSpace, FloatRangeIsEvenlySpacedWithBothEnds) {
  const ParamSpace space = parse_param("sdf=float:0:0.3");
  EXPECT_EQ(space.kind, ParamKind::kFloat);
  EXPECT_EQ(space.points, 4);
  // 0.3 / 3 is 0.09999999999999999 in doubles: the grid rounds it to 0.1.
  EXPECT_EQ(grid_values(space), (Values{"0", "0.1", "0.2", "0.3"}));
  EXPECT_EQ(grid_values(parse_param("t=float:0:2:3")), (Values{"0", "1", "2"}));
  EXPECT_EQ(grid_values(parse_param("t=float:-1:1:2")), (Values{"-1", "1"}));
  EXPECT_EQ(grid_values(parse_param("t=float:0:1:4")),
            (Values{"0", "0.333333333333", "0.666666666667", "1"}));
}

TEST(ParamSpace, LogRangeIsLogSpaced) {
  const ParamSpace space = parse_param("lr=log:1:1000");
  EXPECT_EQ(space.kind, ParamKind::kLog);
  EXPECT_EQ(grid_values(space), (Values{"1", "10", "100", "1000"}));
  EXPECT_EQ(grid_values(parse_param("lr=log:1e-4:1:5")),
            (Values{"0.0001", "0.001", "0.01", "0.1", "1"}));
  EXPECT_EQ(grid_value_count(parse_param("lr=log:1:16:5")), 5u);
  EXPECT_EQ(grid_values(parse_param("lr=log:1:16:5")), (Values{"1", "2", "4", "8", "16"}));
}

TEST(ParamSpace, FlagIsPresentThenAbsent) {
  const ParamSpace space = parse_param("pc=flag: --enable-prefix-caching ");
  EXPECT_EQ(space.kind, ParamKind::kFlag);
  EXPECT_EQ(space.flag, "--enable-prefix-caching");
  EXPECT_EQ(grid_values(space), (Values{"--enable-prefix-caching", ""}));
  EXPECT_EQ(grid_value_count(space), 2u);
  // The flag's text may hold ':' and a value.
  EXPECT_EQ(parse_param("b=flag:--block-size 16:x").flag, "--block-size 16:x");
}

TEST(ParamSpace, ErrorsNameTheFlagAndTheText) {
  EXPECT_EQ(space_error("mnbt"),
            "--param 'mnbt': expected NAME=SPEC, e.g. mnbt=64,128,256 or mnbt=int:64:8192:64");
  EXPECT_EQ(space_error("9x=1"),
            "--param '9x=1': the name '9x' must be a letter or '_' followed "
            "by letters, digits or '_'");
  EXPECT_EQ(space_error("=1"),
            "--param '=1': the name '' must be a letter or '_' followed by "
            "letters, digits or '_'");
  EXPECT_EQ(space_error("a-b=1"),
            "--param 'a-b=1': the name 'a-b' must be a letter or '_' "
            "followed by letters, digits or '_'");
  EXPECT_EQ(space_error("port=1,2"),
            "--param 'port=1,2': 'port' is a builtin name ({port}, "
            "{trial}, {outdir}, {slot}, {gpus}); choose another");
  EXPECT_NE(space_error("trial=1"), "");
  EXPECT_NE(space_error("gpus=1,2"), "");
  EXPECT_NE(space_error("slot=1"), "");
  EXPECT_NE(space_error("outdir=x"), "");
  EXPECT_EQ(space_error("a= "), "--param 'a= ': no values after '='");
  EXPECT_EQ(space_error("a=1,,2"),
            "--param 'a=1,,2': value 2 of 3 is empty (values are separated by ',')");
  EXPECT_EQ(space_error("a=1,"),
            "--param 'a=1,': value 2 of 2 is empty (values are separated "
            "by ',')");
  EXPECT_EQ(space_error("a=1,2,1"), "--param 'a=1,2,1': the value '1' is listed twice");
  // --exclude 'a==512' would match both: they are one value to it, and likely to the server.
  EXPECT_EQ(space_error("a=512,0512"), "--param 'a=512,0512': '512' and '0512' are the same number");
  EXPECT_EQ(space_error("a=1,x,1.0"), "--param 'a=1,x,1.0': '1' and '1.0' are the same number");
}

TEST(ParamSpace, IntErrors) {
  EXPECT_EQ(space_error("n=int:1"), "--param 'n=int:1': expected int:LO:HI or int:LO:HI:STEP");
  EXPECT_EQ(space_error("n=int:1:2:3:4"),
            "--param 'n=int:1:2:3:4': expected int:LO:HI or int:LO:HI:STEP");
  EXPECT_EQ(space_error("n=int:x:2"), "--param 'n=int:x:2': LO 'x' is not an integer");
  EXPECT_EQ(space_error("n=int:1:2.5"), "--param 'n=int:1:2.5': HI '2.5' is not an integer");
  EXPECT_EQ(space_error("n=int:1:8:"), "--param 'n=int:1:8:': STEP '' is not an integer");
  EXPECT_EQ(space_error("n=int:1:99999999999999999999"),
            "--param 'n=int:1:99999999999999999999': HI '99999999999999999999' is not an integer");
  EXPECT_EQ(space_error("n=int:64:8"), "--param 'n=int:64:8': LO (64) is above HI (8)");
  EXPECT_EQ(space_error("n=int:1:8:0"), "--param 'n=int:1:8:0': STEP (0) must be at least 1");
  EXPECT_EQ(space_error("n=int:1:8:-2"), "--param 'n=int:1:8:-2': STEP (-2) must be at least 1");
}

TEST(ParamSpace, FloatAndLogErrors) {
  EXPECT_EQ(space_error("f=float:1"), "--param 'f=float:1': expected float:LO:HI or float:LO:HI:N");
  EXPECT_EQ(space_error("f=log:1:2:3:4"),
            "--param 'f=log:1:2:3:4': expected log:LO:HI or log:LO:HI:N");
  EXPECT_EQ(space_error("f=float:a:1"), "--param 'f=float:a:1': LO 'a' is not a finite number");
  EXPECT_EQ(space_error("f=float:0:inf"),
            "--param 'f=float:0:inf': HI 'inf' is not a finite number");
  EXPECT_EQ(space_error("f=float:0:nan"),
            "--param 'f=float:0:nan': HI 'nan' is not a finite number");
  EXPECT_EQ(space_error("f=float:0:1:1"),
            "--param 'f=float:0:1:1': N '1' must be an integer from 2 to 1000 (the grid's "
            "points, both ends included)");
  EXPECT_NE(space_error("f=float:0:1:2.5"), "");
  EXPECT_NE(space_error("f=float:0:1:1001"), "");
  EXPECT_EQ(grid_value_count(parse_param("f=float:0:1:1000")), 1000u);
  EXPECT_EQ(space_error("f=float:1:1"), "--param 'f=float:1:1': LO (1) must be below HI (1)");
  EXPECT_EQ(space_error("f=float:2:1.5"), "--param 'f=float:2:1.5': LO (2) must be below HI (1.5)");
  EXPECT_EQ(space_error("f=float:1:1.0000000000001:3"),
            "--param 'f=float:1:1.0000000000001:3': the 3 points are not distinct at 12 "
            "significant digits (1 twice); use fewer points or a wider range");
  EXPECT_EQ(space_error("f=float:1:1.0000000000001:2"), "");  // the ends are kept exactly
  EXPECT_EQ(space_error("f=log:0:1"), "--param 'f=log:0:1': LO (0) must be above 0 on a log scale");
  EXPECT_EQ(space_error("f=log:-1:1"),
            "--param 'f=log:-1:1': LO (-1) must be above 0 on a log scale");
}

TEST(ParamSpace, FlagErrors) {
  EXPECT_EQ(space_error("pc=flag:"),
            "--param 'pc=flag:': flag: needs the flag's text, e.g. flag:--enable-x");
  EXPECT_EQ(space_error("pc=flag:  "),
            "--param 'pc=flag:  ': flag: needs the flag's text, e.g. flag:--enable-x");
}

TEST(ParamSpace, ParseParamsRefusesANameGivenTwice) {
  const std::vector<ParamSpace> spaces = parse_params({"a=1,2", "b=int:1:3"});
  ASSERT_EQ(spaces.size(), 2u);
  EXPECT_EQ(spaces[1].name, "b");
  try {
    parse_params({"a=1,2", "b=x", "a=3"});
    FAIL() << "a name given twice was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "--param 'a=3': 'a' is already given by --param 'a=1,2'");
  }
  EXPECT_TRUE(parse_params({}).empty());
}

TEST(ParamSpace, GridSizeIsTheProductAndSaturates) {
  EXPECT_EQ(grid_size({}), 1u);
  EXPECT_EQ(grid_size(parse_params({"a=1,2,3", "b=flag:--x", "c=int:0:9"})), 60u);
  // Every int64: 2^64 values, more than a uint64_t holds; the count saturates, the product too.
  const ParamSpace all = parse_param("n=int:-9223372036854775808:9223372036854775807");
  EXPECT_EQ(grid_value_count(all), UINT64_MAX);
  EXPECT_EQ(grid_size({all, parse_param("m=1,2")}), UINT64_MAX);
  EXPECT_THROW(grid_values(all), std::invalid_argument);
}

TEST(ParamSpace, TooLargeAnIntGridIsRefusedWithAHint) {
  try {
    grid_values(parse_param("n=int:0:1000000"));
    FAIL() << "a grid of a million values was listed";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--param 'n=int:0:1000000': the grid has more than 100000 values; "
                 "use a larger STEP or --strategy random:N");
  }
}

}  // namespace
}  // namespace llmperf

// --exclude expressions: every operator and keyword form, precedence, parentheses, numeric and
// text comparisons, truth of a lone operand (flags), the tree's shape, every parse error (with
// its position and what was expected) and the evaluation errors.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/exclude.h"

namespace llmperf {
namespace {

const std::vector<ParamSpace>& exclude_spaces() {
  static const std::vector<ParamSpace> spaces =
      parse_params({"mnbt=64,128,2048", "cp=true,false", "mml=int:1024:4096:1024",
                    "pc=flag:--enable-pc", "sdf=float:0:1", "mode=fast,slow", "mixed=1,auto"});
  return spaces;
}

// A trial: mnbt=128 cp=false mml=2048 pc absent sdf=0.5 mode=fast mixed=auto, with overrides.
Assignment exclude_trial(const Assignment& overrides = {}) {
  Assignment trial = {{"mnbt", "128"}, {"cp", "false"},  {"mml", "2048"},  {"pc", ""},
                      {"sdf", "0.5"},  {"mode", "fast"}, {"mixed", "auto"}};
  for (const auto& [name, value] : overrides) {
    for (auto& entry : trial) {
      if (entry.first == name) entry.second = value;
    }
  }
  return trial;
}

bool excludes(const std::string& text, const Assignment& overrides = {}) {
  return exclude_matches(parse_exclude(text, exclude_spaces()), exclude_trial(overrides));
}

std::string exclude_error(const std::string& text) {
  try {
    parse_exclude(text, exclude_spaces());
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Exclude, TheIssuesExample) {
  const ExcludeRule rule = parse_exclude("cp==false and mnbt<mml", exclude_spaces());
  EXPECT_EQ(rule.text, "cp==false and mnbt<mml");
  EXPECT_TRUE(exclude_matches(rule, exclude_trial()));
  EXPECT_FALSE(exclude_matches(rule, exclude_trial({{"cp", "true"}})));
  EXPECT_FALSE(exclude_matches(rule, exclude_trial({{"mnbt", "2048"}})));  // numeric: 2048 == 2048
}

TEST(Exclude, ComparisonsAreNumericWhenBothSidesAreNumbers) {
  EXPECT_TRUE(excludes("mnbt == 128"));
  EXPECT_TRUE(excludes("mnbt == 128.0"));  // numeric, not text
  EXPECT_TRUE(excludes("mnbt != 64"));
  EXPECT_TRUE(excludes("mnbt < 129"));
  EXPECT_FALSE(excludes("mnbt < 128"));
  EXPECT_TRUE(excludes("mnbt <= 128"));
  EXPECT_TRUE(excludes("mnbt > 1e2"));
  EXPECT_FALSE(excludes("mnbt > 128"));
  EXPECT_TRUE(excludes("mnbt >= 128"));
  EXPECT_TRUE(excludes("sdf > -0.5"));
  EXPECT_TRUE(excludes("sdf < .6"));
  EXPECT_TRUE(excludes("sdf >= 5e-1"));
  EXPECT_TRUE(excludes("1 < 2"));
  EXPECT_TRUE(excludes("mnbt == '128'"));  // a quoted number is a number
  EXPECT_TRUE(excludes("'100' < mnbt"));
}

TEST(Exclude, TextComparisons) {
  EXPECT_TRUE(excludes("mode == 'fast'"));
  EXPECT_TRUE(excludes("mode == \"fast\""));
  EXPECT_TRUE(excludes("mode != 'slow'"));
  EXPECT_FALSE(excludes("mode == 'Fast'"));  // text is case-sensitive
  EXPECT_TRUE(excludes("cp == false"));
  EXPECT_TRUE(excludes("cp == FALSE"));
  EXPECT_TRUE(excludes("cp == false", {{"cp", "False"}}));  // against true/false: any case
  EXPECT_TRUE(excludes("cp != true"));
  EXPECT_TRUE(excludes("pc == ''"));
  EXPECT_TRUE(excludes("pc == '--enable-pc'", {{"pc", "--enable-pc"}}));
  EXPECT_TRUE(excludes("mode == 'it\\'s'", {{"mode", "it's"}}));
  EXPECT_TRUE(excludes("mode == \"a\\\\b\"", {{"mode", "a\\b"}}));
}

TEST(Exclude, ALoneOperandIsItsTruth) {
  EXPECT_FALSE(excludes("pc"));  // absent flag: ""
  EXPECT_TRUE(excludes("pc", {{"pc", "--enable-pc"}}));
  EXPECT_TRUE(excludes("not pc"));
  EXPECT_FALSE(excludes("cp"));  // "false"
  EXPECT_TRUE(excludes("cp", {{"cp", "true"}}));
  EXPECT_FALSE(excludes("mixed", {{"mixed", "0"}}));
  EXPECT_FALSE(excludes("sdf", {{"sdf", "0.0"}}));
  EXPECT_TRUE(excludes("mnbt"));
  EXPECT_TRUE(excludes("true"));
  EXPECT_FALSE(excludes("false"));
  EXPECT_FALSE(excludes("0"));
  EXPECT_TRUE(excludes("'x'"));
  EXPECT_FALSE(excludes("''"));
}

TEST(Exclude, LogicAndPrecedence) {
  EXPECT_TRUE(excludes("mnbt == 64 or mnbt == 128"));
  EXPECT_TRUE(excludes("mnbt == 64 || mnbt == 128"));
  EXPECT_FALSE(excludes("mnbt == 128 and cp"));
  EXPECT_FALSE(excludes("mnbt == 128 && cp"));
  EXPECT_TRUE(excludes("! cp"));
  EXPECT_TRUE(excludes("!cp && !pc"));
  EXPECT_TRUE(excludes("NOT cp AND mnbt==128 OR false"));  // keywords in any case
  // and binds tighter than or: true or (false and false).
  EXPECT_TRUE(excludes("mnbt == 128 or cp and pc"));
  EXPECT_FALSE(excludes("(mnbt == 128 or cp) and pc"));
  // not binds looser than a comparison: not (mnbt == 64).
  EXPECT_TRUE(excludes("not mnbt == 64"));
  EXPECT_TRUE(excludes("not not mnbt"));
  EXPECT_TRUE(excludes("((mnbt == 128))"));
  EXPECT_TRUE(excludes(" \tmnbt==128\n"));
}

TEST(Exclude, TheTreeHasTheExpectedShape) {
  // or(mnbt == 64, and(not(mnbt >= 100), cp))
  const ExcludeRule rule = parse_exclude("mnbt == 64 or not mnbt >= 100 and cp", exclude_spaces());
  const ExcludeNode& root = rule.root;
  ASSERT_EQ(root.kind, ExcludeNode::Kind::kOr);
  ASSERT_EQ(root.children.size(), 2u);
  const ExcludeNode& left = root.children[0];
  EXPECT_EQ(left.kind, ExcludeNode::Kind::kCompare);
  EXPECT_EQ(left.op, ExcludeOp::kEq);
  EXPECT_EQ(left.lhs.kind, ExcludeOperand::Kind::kName);
  EXPECT_EQ(left.lhs.text, "mnbt");
  EXPECT_EQ(left.lhs.position, 1u);
  EXPECT_EQ(left.rhs.kind, ExcludeOperand::Kind::kNumber);
  EXPECT_EQ(left.rhs.text, "64");
  EXPECT_EQ(left.rhs.position, 9u);
  const ExcludeNode& right = root.children[1];
  ASSERT_EQ(right.kind, ExcludeNode::Kind::kAnd);
  ASSERT_EQ(right.children.size(), 2u);
  ASSERT_EQ(right.children[0].kind, ExcludeNode::Kind::kNot);
  ASSERT_EQ(right.children[0].children.size(), 1u);
  EXPECT_EQ(right.children[0].children[0].op, ExcludeOp::kGe);
  EXPECT_EQ(right.children[1].kind, ExcludeNode::Kind::kValue);
  EXPECT_EQ(right.children[1].lhs.text, "cp");
  // Three operands of one 'or' are one node with three children; literals keep their kinds.
  const ExcludeRule flat = parse_exclude("true or 'x' or FALSE", exclude_spaces());
  ASSERT_EQ(flat.root.children.size(), 3u);
  EXPECT_EQ(flat.root.children[0].lhs.kind, ExcludeOperand::Kind::kBool);
  EXPECT_EQ(flat.root.children[1].lhs.kind, ExcludeOperand::Kind::kString);
  EXPECT_EQ(flat.root.children[1].lhs.text, "x");
  EXPECT_EQ(flat.root.children[2].lhs.text, "false");
}

TEST(Exclude, ParseErrorsGiveThePositionAndWhatWasExpected) {
  EXPECT_EQ(exclude_error(""),
            "--exclude '' at 1: expected a parameter, number, string, true, "
            "false, not or '(', found the end");
  EXPECT_EQ(exclude_error("cp=="),
            "--exclude 'cp==' at 5: expected a parameter, number, string, "
            "true, false, not or '(', found the end");
  EXPECT_EQ(exclude_error("cp==false and"),
            "--exclude 'cp==false and' at 14: expected a parameter, number, string, true, false, "
            "not or '(', found the end");
  EXPECT_EQ(exclude_error("cp==false mnbt"),
            "--exclude 'cp==false mnbt' at 11: expected and, or or the end, found 'mnbt'");
  EXPECT_EQ(exclude_error("mnbt < 1 < 2"),
            "--exclude 'mnbt < 1 < 2' at 10: expected and, or or the end, found '<'");
  EXPECT_EQ(exclude_error("(cp"),
            "--exclude '(cp' at 4: expected ')' to close the '(' at 1, found the end");
  EXPECT_EQ(exclude_error("cp)"), "--exclude 'cp)' at 3: expected and, or or the end, found ')'");
  EXPECT_EQ(exclude_error("cp == )"),
            "--exclude 'cp == )' at 7: expected a parameter, number, "
            "string, true, false, not or '(', found ')'");
  EXPECT_EQ(exclude_error("and cp"),
            "--exclude 'and cp' at 1: expected a parameter, number, "
            "string, true, false, not or '(', found 'and'");
  EXPECT_EQ(exclude_error("cp = false"),
            "--exclude 'cp = false' at 4: '=' alone is no "
            "comparison; use '=='");
  EXPECT_EQ(exclude_error("cp & pc"),
            "--exclude 'cp & pc' at 4: '&' alone is no operator; use "
            "'&&' or 'and'");
  EXPECT_EQ(exclude_error("cp | pc"),
            "--exclude 'cp | pc' at 4: '|' alone is no operator; use "
            "'||' or 'or'");
  EXPECT_EQ(exclude_error("mode == 'fast"),
            "--exclude 'mode == 'fast' at 9: the string opened here has no closing '");
  EXPECT_EQ(exclude_error("mnbt == 12ab"), "--exclude 'mnbt == 12ab' at 9: '12ab' is not a number");
  EXPECT_EQ(exclude_error("mnbt == 1.2.3"),
            "--exclude 'mnbt == 1.2.3' at 9: '1.2.3' is not a number");
  EXPECT_EQ(exclude_error("mnbt # 1"), "--exclude 'mnbt # 1' at 6: unexpected character '#'");
  EXPECT_EQ(exclude_error("mnbt \x01"), "--exclude 'mnbt \x01' at 6: unexpected byte 0x01");
  EXPECT_EQ(exclude_error("\xe4\xb8\xad"), "--exclude '\xe4\xb8\xad' at 1: unexpected byte 0xe4");
  EXPECT_EQ(exclude_error("mnbt == 1 and (cp or mode == 'x'"),
            "--exclude 'mnbt == 1 and (cp or mode == 'x'' at 33: expected ')' to close the '(' at "
            "15, found the end");
}

TEST(Exclude, UnknownNameSaysWhatTheParametersAreAndToQuote) {
  EXPECT_EQ(exclude_error("cp==false and mnbt<max_model_len"),
            "--exclude 'cp==false and mnbt<max_model_len' at 20: unknown name 'max_model_len'; "
            "parameters: mnbt, cp, mml, pc, sdf, mode, mixed; quote a string ('max_model_len')");
  try {
    parse_exclude("mode == fast", {});
    FAIL() << "an unknown name was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--exclude 'mode == fast' at 1: unknown name 'mode'; parameters: "
                 "(none); quote a string ('mode')");
  }
}

TEST(Exclude, OrderingTextIsRefusedAtParseTime) {
  EXPECT_EQ(exclude_error("mode < 3"),
            "--exclude 'mode < 3' at 6: '<' compares numbers, but mode takes the value 'fast', "
            "which is not a number; only == and != compare text");
  EXPECT_EQ(exclude_error("mixed >= 1"),
            "--exclude 'mixed >= 1' at 7: '>=' compares numbers, but mixed takes the value "
            "'auto', which is not a number; only == and != compare text");
  EXPECT_EQ(exclude_error("pc > 0"),
            "--exclude 'pc > 0' at 4: '>' compares numbers, but pc is a flag (its value is "
            "'--enable-pc' or nothing); only == and != compare text");
  EXPECT_EQ(exclude_error("mnbt <= 'x'"),
            "--exclude 'mnbt <= 'x'' at 6: '<=' compares numbers, but the string 'x' is not a "
            "number; only == and != compare text");
  EXPECT_EQ(exclude_error("true < 1"),
            "--exclude 'true < 1' at 6: '<' compares numbers, but true is not a number; only == "
            "and != compare text");
  EXPECT_EQ(exclude_error("mnbt > 1 and cp <= 2"),
            "--exclude 'mnbt > 1 and cp <= 2' at 17: '<=' compares numbers, but cp takes the "
            "value 'true', which is not a number; only == and != compare text");
}

TEST(Exclude, NestingIsBounded) {
  const std::string deep = std::string(100, '(') + "cp" + std::string(100, ')');
  EXPECT_EQ(exclude_error(deep), "--exclude '" + deep + "' at 65: nested deeper than 64 levels");
  std::string nots;
  for (int i = 0; i < 100; ++i) nots += "not ";
  EXPECT_NE(exclude_error(nots + "cp"), "");
  EXPECT_TRUE(excludes(std::string(60, '(') + "mnbt" + std::string(60, ')')));
}

TEST(Exclude, EvaluationErrors) {
  const ExcludeRule rule = parse_exclude("mnbt < 100", exclude_spaces());
  try {
    exclude_matches(rule, {{"cp", "true"}});
    FAIL() << "a missing parameter was evaluated";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "--exclude 'mnbt < 100': the trial has no value for 'mnbt'");
  }
  try {
    exclude_matches(rule, {{"mnbt", "lots"}});
    FAIL() << "text was ordered";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--exclude 'mnbt < 100': 'lots' and '100' are not both numbers; "
                 "only == and != compare text");
  }
}

TEST(Exclude, FirstMatchingRule) {
  std::vector<ExcludeRule> rules;
  rules.push_back(parse_exclude("mnbt == 64", exclude_spaces()));
  rules.push_back(parse_exclude("not cp", exclude_spaces()));
  rules.push_back(parse_exclude("mnbt > 100", exclude_spaces()));
  EXPECT_EQ(first_matching_exclude(rules, exclude_trial()), 1u);
  EXPECT_EQ(first_matching_exclude(rules, exclude_trial({{"mnbt", "64"}})), 0u);
  EXPECT_EQ(first_matching_exclude(rules, exclude_trial({{"mnbt", "64"}, {"cp", "true"}})), 0u);
  EXPECT_EQ(first_matching_exclude({rules[0]}, exclude_trial({{"mnbt", "2048"}})), std::nullopt);
  EXPECT_EQ(first_matching_exclude({}, exclude_trial()), std::nullopt);
}

}  // namespace
}  // namespace llmperf

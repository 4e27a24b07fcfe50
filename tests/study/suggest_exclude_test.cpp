// Suggested exclusions: what failed every time for the same reason becomes an --exclude that
// parses, matches exactly those configurations, and prefers the broadest form.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/exclude.h"
#include "study/suggest_exclude.h"

namespace llmperf {
namespace {

TrialRecord row(Assignment params, TrialStatus status, std::string reason = "") {
  TrialRecord record;
  record.params = std::move(params);
  record.status = status;
  record.reason = std::move(reason);
  return record;
}

std::string too_small(const std::string& b) {
  return "ValueError: max_num_batched_tokens (" + b + ") is smaller than max_model_len (2048).";
}

TEST(SuggestExclude, TheMockRefusalsBecomeOneRange) {
  const std::vector<ParamSpace> spaces = parse_params({"B=256,512,1024,2048", "cp=true,false"});
  std::vector<TrialRecord> rows;
  for (const char* b : {"256", "512", "1024", "2048"}) {
    rows.push_back(row({{"B", b}, {"cp", "true"}}, TrialStatus::kOk));
    const bool refused = std::string(b) != "2048";
    rows.push_back(row({{"B", b}, {"cp", "false"}},
                       refused ? TrialStatus::kStartFailed : TrialStatus::kOk,
                       refused ? too_small(b) : ""));
  }
  const std::vector<SuggestedExclude> suggested = suggest_excludes(rows, spaces);
  ASSERT_EQ(suggested.size(), 1u);
  EXPECT_EQ(suggested[0].expression, "B<=1024 and cp==false");
  EXPECT_EQ(suggested[0].configurations, 3u);
  EXPECT_EQ(suggested[0].status, TrialStatus::kStartFailed);
  EXPECT_EQ(suggested[0].reason, too_small("256"));

  // It parses and matches exactly the refused configurations.
  const ExcludeRule rule = parse_exclude(suggested[0].expression, spaces);
  for (const TrialRecord& r : rows) {
    EXPECT_EQ(exclude_matches(rule, r.params), r.status == TrialStatus::kStartFailed);
  }
}

TEST(SuggestExclude, OneValueThatAlwaysFailsIsSuggestedAlone) {
  const std::vector<ParamSpace> spaces =
      parse_params({"mode=fast,slow,odd", "pc=flag:--pc", "n=1,2"});
  std::vector<TrialRecord> rows;
  for (const char* n : {"1", "2"}) {
    rows.push_back(row({{"mode", "odd"}, {"pc", ""}, {"n", n}}, TrialStatus::kStartFailed,
                       "error: unknown mode"));
    rows.push_back(row({{"mode", "fast"}, {"pc", ""}, {"n", n}}, TrialStatus::kOk));
    rows.push_back(row({{"mode", "slow"}, {"pc", "--pc"}, {"n", n}}, TrialStatus::kBenchFailed,
                       "no request succeeded"));
    rows.push_back(row({{"mode", "fast"}, {"pc", "--pc"}, {"n", n}}, TrialStatus::kOk));
  }
  const std::vector<SuggestedExclude> suggested = suggest_excludes(rows, spaces);
  ASSERT_EQ(suggested.size(), 2u);
  EXPECT_EQ(suggested[0].expression, "mode=='odd'");
  EXPECT_EQ(suggested[1].expression, "mode=='slow'");
  EXPECT_EQ(suggested[1].status, TrialStatus::kBenchFailed);
  for (const SuggestedExclude& s : suggested) EXPECT_NO_THROW(parse_exclude(s.expression, spaces));
}

TEST(SuggestExclude, DifferentReasonsOneSuccessOrASingleFailureSuggestNothing) {
  const std::vector<ParamSpace> spaces = parse_params({"a=1,2,3", "pc=flag:--pc"});
  // a==1 failed twice, but for two reasons; a==2 once; a==3 failed once and ran once.
  const std::vector<TrialRecord> rows = {
      row({{"a", "1"}, {"pc", "--pc"}}, TrialStatus::kStartFailed, "error: out of memory"),
      row({{"a", "1"}, {"pc", ""}}, TrialStatus::kStartFailed, "error: bad flag"),
      row({{"a", "2"}, {"pc", ""}}, TrialStatus::kStartFailed, "error: bad flag"),
      row({{"a", "3"}, {"pc", "--pc"}}, TrialStatus::kOk),
      row({{"a", "3"}, {"pc", ""}}, TrialStatus::kExcluded, "--exclude 'a==3 and not pc'"),
  };
  const std::vector<SuggestedExclude> suggested = suggest_excludes(rows, spaces);
  ASSERT_EQ(suggested.size(), 1u);
  // a<=2 without the flag: both "bad flag" (the excluded configuration counts neither way).
  EXPECT_EQ(suggested[0].expression, "not pc");
  EXPECT_EQ(suggested[0].configurations, 2u);
  EXPECT_TRUE(suggest_excludes({}, spaces).empty());
}

}  // namespace
}  // namespace llmperf

// A study with several objectives shows their Pareto front where a study with one shows its best
// (report/study/study_front.h): the table's Front column and the other objectives' values, the
// closing block with each configuration's command, study_summary.json's "front" beside a null
// "best", the Markdown, and study.html's chart of two objectives. One objective shows none of it.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/study/study_files.h"
#include "report/study/study_html.h"
#include "report/study/study_text.h"

namespace llmperf {
namespace {

StudyInfo front_study_info() {
  StudyInfo info;
  info.spec.serve = "server --port {port} --b {b}";
  info.spec.params = {"b=1,2,3,4"};
  info.spec.objective = "output_throughput";
  info.spec.more_objectives = {"ttft.p99"};
  info.spec.strategy = "nsga2:4";
  info.objective = "output_throughput";
  info.unit = "tok/s";
  info.maximize = true;
  info.objectives = {{"output_throughput", "tok/s", true}, {"ttft.p99", "ms", false}};
  info.strategy = "nsga2:4";
  return info;
}

TrialRecord front_trial(int64_t trial, TrialStatus status, double throughput, double ttft) {
  TrialRecord record;
  record.trial = trial;
  record.label = std::to_string(trial) + "-" + std::to_string(trial + 1);
  record.params = {{"b", std::to_string(trial + 1)}};
  record.status = status;
  record.objective = throughput;
  record.metrics = {{"output_throughput", throughput}, {"ttft.p99", ttft}};
  record.server_command_template = "server --port {port} --b " + std::to_string(trial + 1);
  return record;
}

std::vector<TrialRecord> front_trials() {
  return {front_trial(0, TrialStatus::kOk, 1000, 100),           // front: the least TTFT
          front_trial(1, TrialStatus::kOk, 3000, 400),           // front: the most throughput
          front_trial(2, TrialStatus::kOk, 900, 500),            // dominated by both
          front_trial(3, TrialStatus::kSloViolated, 5000, 50)};  // missed an SLO: never on it
}

TEST(StudyFrontOutputs, TheTextMarksTheFrontAndListsItInPlaceOfABest) {
  const std::string text = study_table(front_study_info(), front_trials());
  EXPECT_NE(text.find("objectives output_throughput (tok/s, higher is better), ttft.p99 (ms, "
                      "lower is better)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ttft.p99 (ms)  Front"), std::string::npos) << text;
  EXPECT_EQ(text.find("Best configuration"), std::string::npos) << text;
  EXPECT_NE(text.find("Pareto front (output_throughput (tok/s, higher is better), ttft.p99 (ms, "
                      "lower is better)): 2 configurations that met every --slo"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  0-1: output_throughput 1000 tok/s, ttft.p99 100 ms; b=1\n"
                      "    server --port {port} --b 1\n"
                      "  1-2: output_throughput 3000 tok/s, ttft.p99 400 ms; b=2\n"),
            std::string::npos)
      << text;
  // The rows on the front carry the mark, the others none.
  size_t marked = 0;
  for (size_t at = text.find(" * "); at != std::string::npos; at = text.find(" * ", at + 1)) {
    ++marked;
  }
  EXPECT_EQ(marked, 2u) << text;
}

TEST(StudyFrontOutputs, TheSummaryGivesTheFrontAndNoBest) {
  const nlohmann::json summary =
      nlohmann::json::parse(study_summary_json(front_study_info(), front_trials()));
  EXPECT_TRUE(summary.at("best").is_null());
  const nlohmann::json& front = summary.at("front");
  EXPECT_EQ(front.at("trials"), (nlohmann::json{0, 1}));
  EXPECT_EQ(front.at("labels"), (nlohmann::json{"0-1", "1-2"}));
  EXPECT_EQ(front.at("values"), (nlohmann::json{{1000.0, 100.0}, {3000.0, 400.0}}));
  EXPECT_EQ(front.at("objectives").at(1).at("name"), "ttft.p99");
  EXPECT_EQ(front.at("objectives").at(1).at("maximize"), false);
  EXPECT_EQ(summary.at("study").at("objectives").size(), 2u);

  const std::string md = study_summary_markdown(front_study_info(), front_trials());
  EXPECT_NE(md.find("## Pareto front"), std::string::npos) << md;
  EXPECT_EQ(md.find("## Best configuration"), std::string::npos) << md;

  const std::string html = render_study_html(front_study_info(), front_trials());
  EXPECT_NE(html.find("The Pareto front of the objectives"), std::string::npos);
  EXPECT_NE(html.find("output_throughput against ttft.p99"), std::string::npos);
}

TEST(StudyFrontOutputs, AnEmptyFrontSaysWhyAndOneObjectiveShowsNone) {
  std::vector<TrialRecord> violated = {front_trials()[3]};
  const std::string text = study_table(front_study_info(), violated);
  EXPECT_NE(text.find("Pareto front (output_throughput (tok/s, higher is better), ttft.p99 (ms, "
                      "lower is better)): none: no trial met every --slo (1 slo_violated)"),
            std::string::npos)
      << text;

  StudyInfo one = front_study_info();
  one.objectives.clear();
  one.spec.more_objectives.clear();
  const std::string single = study_table(one, front_trials());
  EXPECT_EQ(single.find("Front"), std::string::npos) << single;
  EXPECT_NE(single.find("Best configuration (output_throughput, higher is better): 1-2"),
            std::string::npos)
      << single;
  EXPECT_FALSE(nlohmann::json::parse(study_summary_json(one, front_trials())).contains("front"));
}

}  // namespace
}  // namespace llmperf

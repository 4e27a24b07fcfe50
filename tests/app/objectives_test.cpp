// Several --objective (app/tune/objectives.h): each parsed in order with its direction, a
// figure given twice refused, what cannot go with several refused with a message that says why
// and what to do, and study.json's list only for several.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/tune/objectives.h"

namespace llmperf {
namespace {

std::string several_objectives_error(const StudySpec& spec, const std::string& strategy,
                                     const std::string& search = "") {
  Config base;
  base.verdicts.search = search;
  try {
    check_several_objectives(spec, parse_strategy(strategy), base);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Objectives, ParsedInOrderWithTheirDirections) {
  StudySpec spec;
  const std::vector<Objective> one = parse_objectives(spec);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].text(), "output_throughput:max");
  EXPECT_TRUE(study_objectives(one).empty()) << "one objective: study.json as before";

  spec.objective = "output_throughput";
  spec.more_objectives = {"ttft.p99", "tpot.p50:max"};
  const std::vector<Objective> three = parse_objectives(spec);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].text(), "output_throughput:max");
  EXPECT_EQ(three[1].text(), "ttft.p99:min");  // a latency defaults to :min
  EXPECT_EQ(three[2].text(), "tpot.p50:max");  // as the user asked
  const std::vector<StudyObjective> listed = study_objectives(three);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[1], (StudyObjective{"ttft.p99", "ms", false}));
  EXPECT_EQ(listed[0].unit, "tok/s");
}

TEST(Objectives, AFigureGivenTwiceOrUnknownIsRefused) {
  StudySpec spec;
  spec.objective = "ttft.p99:min";
  spec.more_objectives = {"ttft.p99:max"};
  EXPECT_THROW(parse_objectives(spec), std::invalid_argument);
  try {
    parse_objectives(spec);
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--objective ttft.p99 is given twice"),
              std::string::npos)
        << error.what();
  }
  spec.more_objectives = {"no_such_metric"};
  EXPECT_THROW(parse_objectives(spec), std::invalid_argument);
  spec.more_objectives = {"ttft.p99:sideways"};
  EXPECT_THROW(parse_objectives(spec), std::invalid_argument);
}

TEST(Objectives, WhatCannotGoWithSeveralIsRefused) {
  StudySpec spec;
  EXPECT_EQ(several_objectives_error(spec, "cmaes:8"), "") << "one objective: anything goes";
  EXPECT_EQ(several_objectives_error(spec, "halving"), "");
  spec.more_objectives = {"ttft.p99"};
  for (const char* fine : {"grid", "random:4", "tpe:8", "nsga2:8"}) {
    EXPECT_EQ(several_objectives_error(spec, fine), "") << fine;
  }
  EXPECT_NE(several_objectives_error(spec, "cmaes:8")
                .find("--strategy cmaes: CMA-ES optimises one objective (Optuna 3.1), not 2; use "
                      "nsga2:N or tpe:N"),
            std::string::npos);
  EXPECT_NE(several_objectives_error(spec, "halving:3")
                .find("--strategy halving: successive halving promotes by one objective"),
            std::string::npos);
  EXPECT_NE(several_objectives_error(spec, "grid", "rate").find("--search rate: "),
            std::string::npos);
  spec.confirm = true;
  EXPECT_NE(several_objectives_error(spec, "grid").find("--confirm reruns a single best"),
            std::string::npos);
}

}  // namespace
}  // namespace llmperf

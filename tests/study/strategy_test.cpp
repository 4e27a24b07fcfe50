// `--strategy` and the trials each strategy gives: the grid's order (first parameter slowest) and
// its size limit; random draws that a seed fixes exactly (the lists below are what every platform
// must produce), that another seed changes, without duplicates, stopping when a finite space is
// exhausted; successive halving's rungs and what they cost.
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/space.h"

namespace llmperf {
namespace {

std::string strategy_error(const std::string& text) {
  try {
    parse_strategy(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

// The values of each assignment, joined by ' ' ("64 true").
std::vector<std::string> strategy_rows(const std::vector<Assignment>& assignments) {
  std::vector<std::string> rows;
  for (const Assignment& assignment : assignments) {
    std::string row;
    for (const auto& [name, value] : assignment) row += (row.empty() ? "" : " ") + value;
    rows.push_back(row);
  }
  return rows;
}

using Rows = std::vector<std::string>;

TEST(Strategy, ParsesEveryForm) {
  EXPECT_EQ(parse_strategy("grid").kind, StrategyKind::kGrid);
  EXPECT_EQ(parse_strategy(" grid ").text(), "grid");
  const Strategy random = parse_strategy("random:20");
  EXPECT_EQ(random.kind, StrategyKind::kRandom);
  EXPECT_EQ(random.samples, 20u);
  EXPECT_EQ(random.text(), "random:20");
  const Strategy halving = parse_strategy("halving");
  EXPECT_EQ(halving.kind, StrategyKind::kHalving);
  EXPECT_EQ(halving.eta, 3);
  EXPECT_EQ(halving.text(), "halving:3");
  EXPECT_EQ(parse_strategy("halving:2").eta, 2);
  EXPECT_EQ(parse_strategy("random:100000").samples, 100000u);
}

TEST(Strategy, ErrorsNameTheFlagAndTheText) {
  EXPECT_EQ(strategy_error("bayes"),
            "--strategy 'bayes': expected grid, random:N, halving[:ETA], tpe:N, cmaes:N or nsga2:N");
  EXPECT_EQ(strategy_error(""), "--strategy '': expected grid, random:N, halving[:ETA], tpe:N, cmaes:N or nsga2:N");
  EXPECT_EQ(strategy_error("Grid"), "--strategy 'Grid': expected grid, random:N, halving[:ETA], tpe:N, cmaes:N or nsga2:N");
  EXPECT_EQ(strategy_error("grid:3"), "--strategy 'grid:3': grid takes no argument");
  EXPECT_EQ(strategy_error("random"),
            "--strategy 'random': random needs a count of configurations: random:N");
  EXPECT_EQ(strategy_error("random:0"),
            "--strategy 'random:0': N '0' must be an integer from 1 to 100000");
  EXPECT_EQ(strategy_error("random:x"),
            "--strategy 'random:x': N 'x' must be an integer from 1 to 100000");
  EXPECT_EQ(strategy_error("random:100001"),
            "--strategy 'random:100001': N '100001' must be an integer from 1 to 100000");
  EXPECT_EQ(strategy_error("halving:1"),
            "--strategy 'halving:1': ETA '1' must be an integer from 2 to 100");
  EXPECT_EQ(strategy_error("halving:"),
            "--strategy 'halving:': ETA '' must be an integer from 2 to 100");
  EXPECT_EQ(strategy_error("halving:101"),
            "--strategy 'halving:101': ETA '101' must be an integer from 2 to 100");
}

TEST(Strategy, GridVariesTheFirstParameterSlowest) {
  const std::vector<Assignment> grid =
      grid_assignments(parse_params({"mnbt=64,128,256", "cp=true,false"}));
  EXPECT_EQ(strategy_rows(grid),
            (Rows{"64 true", "64 false", "128 true", "128 false", "256 true", "256 false"}));
  ASSERT_EQ(grid[3].size(), 2u);
  EXPECT_EQ(grid[3][0], (std::pair<std::string, std::string>{"mnbt", "128"}));
  EXPECT_EQ(grid[3][1], (std::pair<std::string, std::string>{"cp", "false"}));

  EXPECT_EQ(strategy_rows(grid_assignments(parse_params({"a=1,2", "b=x,y", "c=flag:--z"}))),
            (Rows{"1 x --z", "1 x ", "1 y --z", "1 y ", "2 x --z", "2 x ", "2 y --z", "2 y "}));
}

TEST(Strategy, GridOfNoParametersIsOneEmptyConfiguration) {
  const std::vector<Assignment> grid = grid_assignments({});
  ASSERT_EQ(grid.size(), 1u);
  EXPECT_TRUE(grid[0].empty());
}

TEST(Strategy, GridBeyondTheLimitIsRefusedSayingSo) {
  const std::vector<ParamSpace> spaces = parse_params({"a=int:1:1000", "b=int:1:1000", "c=1,2"});
  try {
    grid_assignments(spaces);
    FAIL() << "a grid of two million configurations was listed";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--param: the grid has 2000000 configurations (1000 (a) x 1000 (b) "
                 "x 2 (c)), more than 100000; narrow the ranges or use --strategy "
                 "random:N");
  }
  EXPECT_EQ(grid_assignments(parse_params({"a=int:1:1000", "b=int:1:100"})).size(), 100000u);
}

const std::vector<std::string> kRandomSpaces = {"mns=int:1:256", "mnbt=64,128,256,512,2048",
                                                "sdf=float:0:1", "lr=log:0.0001:1",
                                                "pc=flag:--enable-prefix-caching"};

TEST(Strategy, RandomIsFixedBySeed) {
  const std::vector<ParamSpace> spaces = parse_params(kRandomSpaces);
  const Rows drawn = strategy_rows(random_assignments(spaces, 5, 42));
  EXPECT_EQ(drawn, (Rows{"215 2048 0.7521 0.0003508 ", "125 128 0.3729 0.001246 ",
                         "76 256 0.6853 0.03543 ", "41 512 0.4489 0.0001539 ",
                         "76 2048 0.4253 0.0002513 "}));
  EXPECT_EQ(strategy_rows(random_assignments(spaces, 5, 42)), drawn);
  // The first draws of a longer list are the same.
  const Rows longer = strategy_rows(random_assignments(spaces, 8, 42));
  EXPECT_EQ(Rows(longer.begin(), longer.begin() + 5), drawn);

  const Rows other = strategy_rows(random_assignments(spaces, 5, 43));
  EXPECT_EQ(other,
            (Rows{"151 2048 0.03152 0.00467 ", "43 256 0.8374 0.0003622 --enable-prefix-caching",
                  "81 64 0.7941 0.00966 --enable-prefix-caching",
                  "220 64 0.8081 0.1111 --enable-prefix-caching",
                  "18 64 0.07414 0.002441 --enable-prefix-caching"}));
  EXPECT_NE(other, drawn);
}

TEST(Strategy, RandomDrawsStayInTheirRanges) {
  const std::vector<ParamSpace> spaces =
      parse_params({"i=int:-5:5:5", "f=float:2:3", "l=log:10:1000"});
  for (const Assignment& a : random_assignments(spaces, 200, 7)) {
    EXPECT_TRUE(a[0].second == "-5" || a[0].second == "0" || a[0].second == "5") << a[0].second;
    const double f = std::stod(a[1].second);
    EXPECT_GE(f, 2);
    EXPECT_LE(f, 3);
    EXPECT_LE(a[1].second.size(), 5u) << a[1].second;  // four significant digits
    const double l = std::stod(a[2].second);
    EXPECT_GE(l, 10);
    EXPECT_LE(l, 1000);
  }
}

TEST(Strategy, RandomIntDrawsCoverTheWholeInt64Range) {
  // 2^64 - 1 values: one below the most a uint64_t counts, and HI must never be passed.
  const ParamSpace wide = parse_param("n=int:-9223372036854775808:9223372036854775806");
  for (const Assignment& a : random_assignments({wide}, 100, 5)) {
    EXPECT_LE(std::stoll(a[0].second), 9223372036854775806LL) << a[0].second;
  }
  const ParamSpace all = parse_param("n=int:-9223372036854775808:9223372036854775807");
  EXPECT_EQ(random_assignments({all}, 100, 5).size(), 100u);
}

TEST(Strategy, RandomSkipsDuplicatesAndStopsWhenTheSpaceIsExhausted) {
  const std::vector<ParamSpace> spaces = parse_params({"a=1,2,3", "b=flag:--x"});
  const std::vector<Assignment> all = random_assignments(spaces, 100, 1);
  ASSERT_EQ(all.size(), 6u);  // every configuration, each once
  const std::vector<std::string> rows = strategy_rows(all);
  EXPECT_EQ(std::set<std::string>(rows.begin(), rows.end()).size(), 6u);
  EXPECT_EQ(random_assignments(spaces, 4, 1).size(), 4u);
  EXPECT_EQ(random_assignments(parse_params({"a=only"}), 3, 9).size(), 1u);
  EXPECT_EQ(random_assignments({}, 3, 9).size(), 1u);  // one empty configuration
  EXPECT_TRUE(random_assignments(spaces, 0, 1).empty());

  // A continuous range holds few values at four significant digits: drawing stops once 1000
  // draws in a row found nothing new, with each value once.
  const std::vector<Assignment> narrow =
      random_assignments(parse_params({"f=float:1:1.0005"}), 1000, 3);
  const Rows narrow_rows = strategy_rows(narrow);
  EXPECT_EQ(std::set<std::string>(narrow_rows.begin(), narrow_rows.end()).size(),
            narrow_rows.size());
  // Draws lie in [1, 1.0005), which all read 1.000 at four significant digits.
  EXPECT_EQ(narrow_rows, Rows{"1"});
  const Rows wider = strategy_rows(random_assignments(parse_params({"f=float:1:1.003"}), 1000, 3));
  EXPECT_EQ(std::set<std::string>(wider.begin(), wider.end()),
            (std::set<std::string>{"1", "1.001", "1.002", "1.003"}));

  EXPECT_THROW(random_assignments(spaces, 100001, 1), std::invalid_argument);
}

TEST(Strategy, HalvingRungsForFourteenConfigurations) {
  // 14 configurations, 300 requests, ETA 3, concurrency 10: 14 x 33, 4 x 100, 1 x 300.
  const std::vector<HalvingRung> rungs = halving_plan(14, 300, 3, 10);
  ASSERT_EQ(rungs.size(), 3u);
  EXPECT_EQ(rungs[0].configs, 14u);
  EXPECT_EQ(rungs[0].requests, 33);
  EXPECT_EQ(rungs[0].promoted, 4u);
  EXPECT_EQ(rungs[1].configs, 4u);
  EXPECT_EQ(rungs[1].requests, 100);
  EXPECT_EQ(rungs[1].promoted, 1u);
  EXPECT_EQ(rungs[2].configs, 1u);
  EXPECT_EQ(rungs[2].requests, 300);
  EXPECT_EQ(rungs[2].promoted, 0u);
  EXPECT_EQ(halving_total_requests(rungs), 14 * 33 + 4 * 100 + 300);
  EXPECT_LT(halving_total_requests(rungs), 14 * 300);  // less than the grid
}

TEST(Strategy, HalvingShortRunsNeverGoBelowTheConcurrency) {
  // With concurrency 100, 300 / 9 = 33 is too short: two rungs, 14 x 100 then 4 x 300.
  const std::vector<HalvingRung> rungs = halving_plan(14, 300, 3, 100);
  ASSERT_EQ(rungs.size(), 2u);
  EXPECT_EQ(rungs[0].configs, 14u);
  EXPECT_EQ(rungs[0].requests, 100);
  EXPECT_EQ(rungs[0].promoted, 4u);
  EXPECT_EQ(rungs[1].configs, 4u);
  EXPECT_EQ(rungs[1].requests, 300);
  // Fewer requests than the concurrency: one rung, the full benchmark for all.
  const std::vector<HalvingRung> one = halving_plan(14, 50, 3, 100);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].configs, 14u);
  EXPECT_EQ(one[0].requests, 50);
  EXPECT_EQ(one[0].promoted, 0u);
}

TEST(Strategy, HalvingEdgeCases) {
  EXPECT_TRUE(halving_plan(0, 300, 3, 1).empty());
  const std::vector<HalvingRung> single = halving_plan(1, 300, 3, 1);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].requests, 300);
  // Two configurations with ETA 3: 2 / 3 rounds to none, so no second rung.
  EXPECT_EQ(halving_plan(2, 300, 3, 1).size(), 1u);
  // ETA 2, 8 configurations, 800 requests: 8 x 100, 4 x 200, 2 x 400, 1 x 800.
  const std::vector<HalvingRung> two = halving_plan(8, 800, 2, 1);
  ASSERT_EQ(two.size(), 4u);
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(two[r].configs, 8u >> r);
    EXPECT_EQ(two[r].requests, 100 << r);
  }
  // 9 configurations with ETA 3 reach exactly one at the last rung: 9, 3, 1.
  const std::vector<HalvingRung> nine = halving_plan(9, 900, 3, 0);
  ASSERT_EQ(nine.size(), 3u);
  EXPECT_EQ(nine[2].configs, 1u);
  EXPECT_EQ(nine[0].requests, 100);
  EXPECT_THROW(halving_plan(9, 900, 1, 1), std::invalid_argument);
  EXPECT_THROW(halving_plan(9, 0, 3, 1), std::invalid_argument);
  EXPECT_EQ(halving_total_requests({}), 0);
}

}  // namespace
}  // namespace llmperf

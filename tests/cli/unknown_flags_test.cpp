// What llmperf says about words its parsers cannot place (cli/unknown_flags.h): the closest known
// flag or command by edit distance, and one error line per unknown flag, in the order typed.
#include "cli/unknown_flags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace llmperf {
namespace {

const std::vector<std::string> kKnown = {
    "--parallel",    "--max-concurrency", "-n",           "--number",       "--num-prompts",
    "--outputs-dir", "--output",          "--results-db", "--dataset-path", "--name",
    "--seed",        "--strategy"};

TEST(UnknownFlags, TheClosestFlagIsAMistypedOne) {
  EXPECT_EQ(closest_flag("--paralel", kKnown), "--parallel");    // a letter missing
  EXPECT_EQ(closest_flag("--parallell", kKnown), "--parallel");  // one too many
  EXPECT_EQ(closest_flag("--paralell", kKnown), "--parallel");   // two swapped
  EXPECT_EQ(closest_flag("--max-concurency", kKnown), "--max-concurrency");
  EXPECT_EQ(closest_flag("--outptus-dir", kKnown), "--outputs-dir");
  EXPECT_EQ(closest_flag("--dataset_path", kKnown), "--dataset-path");  // Python's spelling
  EXPECT_EQ(closest_flag("--Seed", kKnown), "--seed");
  EXPECT_EQ(closest_flag("--paralel=2", kKnown), "--parallel");
  EXPECT_EQ(closest_flag("-paralel", kKnown), "--parallel");
  EXPECT_EQ(closest_flag("--result", kKnown), "--results-db");  // the start of a known name
  EXPECT_EQ(closest_flag("--num-prompt", kKnown), "--num-prompts");
}

TEST(UnknownFlags, NothingIsSuggestedForAWordFarFromEveryFlag) {
  EXPECT_EQ(closest_flag("--frobnicate", kKnown), "");
  EXPECT_EQ(closest_flag("--db", kKnown), "");  // too short to be a typo of anything here
  EXPECT_EQ(closest_flag("--xyz", {}), "");
}

TEST(UnknownFlags, TheClosestCommand) {
  const std::vector<std::string> commands = {"bench serve", "compare", "history", "tune"};
  EXPECT_EQ(closest_command("histroy", commands), "history");
  EXPECT_EQ(closest_command("comapre", commands), "compare");
  EXPECT_EQ(closest_command("bench", commands), "bench serve");
  EXPECT_EQ(closest_command("hello", commands), "");
}

TEST(UnknownFlags, OneErrorPerUnknownFlagWithItsValuesLeftOut) {
  const std::vector<std::string> errors =
      leftover_word_errors({{"--paralel", "2", "--frobnicate", "x", "y"}, kKnown, {}});
  EXPECT_EQ(errors, (std::vector<std::string>{"unknown flag --paralel (did you mean --parallel?)",
                                              "unknown flag --frobnicate"}));
  EXPECT_EQ(leftover_word_errors({{"--outptus-dir=x"}, kKnown, {}}),
            std::vector<std::string>{"unknown flag --outptus-dir (did you mean --outputs-dir?)"});
}

TEST(UnknownFlags, ALeftoverFirstWordIsTakenForAMistypedCommand) {
  EXPECT_EQ(leftover_word_errors({{"histroy"}, kKnown, {"history", "tune"}}),
            std::vector<std::string>{"unknown command histroy (did you mean `llmperf history`?)"});
  EXPECT_EQ(leftover_word_errors({{"stray"}, kKnown, {"history", "tune"}}),
            std::vector<std::string>{"unexpected argument stray"});
  EXPECT_EQ(leftover_word_errors({{"histroy"}, kKnown, {}}),
            std::vector<std::string>{"unexpected argument histroy"});
}

TEST(UnknownFlags, ValuesAreNotFlags) {
  EXPECT_TRUE(looks_like_flag("--parallel"));
  EXPECT_TRUE(looks_like_flag("-n"));
  EXPECT_FALSE(looks_like_flag("-1"));
  EXPECT_FALSE(looks_like_flag("-.5"));
  EXPECT_FALSE(looks_like_flag("-"));
  EXPECT_FALSE(looks_like_flag("--"));
  EXPECT_FALSE(looks_like_flag("parallel"));
}

TEST(UnknownFlags, FlagNamesListEveryNameOfEveryOptionInOrder) {
  CLI::App app;
  int parallel = 0;
  bool dry_run = false;
  std::string dir;
  app.add_option("--parallel,--max-concurrency", parallel);
  app.add_flag("-d,--dry-run", dry_run);
  app.add_option("dir", dir);  // a positional has no flag name
  EXPECT_EQ(flag_names(app), (std::vector<std::string>{"--help", "-h", "--parallel",
                                                       "--max-concurrency", "--dry-run", "-d"}));
}

}  // namespace
}  // namespace llmperf

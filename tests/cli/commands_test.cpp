// Which command a command line names (cli/commands.h): by its first words, `history import`
// before `history`, the benchmark when no command is named; and the names suggested for a
// mistyped first word.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/commands.h"

namespace llmperf {
namespace {

Command named(std::vector<const char*> words) {
  words.insert(words.begin(), "llmperf");
  return named_command(static_cast<int>(words.size()), words.data());
}

TEST(Commands, FirstWordsNameTheCommand) {
  EXPECT_EQ(named({"tune", "--serve", "x"}), Command::kTune);
  EXPECT_EQ(named({"history", "import", "outputs"}), Command::kHistoryImport);
  EXPECT_EQ(named({"history", "--db", "h.db"}), Command::kHistory);
  EXPECT_EQ(named({"history"}), Command::kHistory);
  EXPECT_EQ(named({"merge", "a", "b"}), Command::kMerge);
  EXPECT_EQ(named({"report", "dir"}), Command::kReport);
  EXPECT_EQ(named({"compare", "a", "b"}), Command::kCompare);
  EXPECT_EQ(named({"calibrate"}), Command::kCalibrate);
}

TEST(Commands, FlagsOrNoWordsAreTheBenchmark) {
  EXPECT_EQ(named({}), Command::kBenchmark);
  EXPECT_EQ(named({"--url", "http://h/v1/chat/completions"}), Command::kBenchmark);
  EXPECT_EQ(named({"bench", "serve", "--model", "m"}), Command::kBenchmark);
  // A word that only starts like a command is not one; a flag before the word hides it.
  EXPECT_EQ(named({"tuner"}), Command::kBenchmark);
  EXPECT_EQ(named({"--debug", "tune"}), Command::kBenchmark);
}

TEST(Commands, EachFirstWordIsSuggestedOnce) {
  const std::vector<std::string> names = command_names();
  EXPECT_EQ(names, (std::vector<std::string>{"bench serve", "calibrate", "tune", "history",
                                              "compare", "report", "merge"}));
}

}  // namespace
}  // namespace llmperf

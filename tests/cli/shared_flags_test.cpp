// One name per concept across llmperf's commands (cli/shared_flags.h): the output directory, the
// history database, the run's name and tags and the load are spelt the same in every command that
// takes them, each command accepts the same aliases, --help shows the canonical name first, and a
// mistyped flag is named with the closest known one in every command.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cli/calibrate.h"
#include "cli/cli.h"
#include "cli/history_cli.h"
#include "cli/history_import.h"
#include "cli/subcommands.h"
#include "cli/tune.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

// argv for `llmperf WORDS...`.
struct Argv {
  explicit Argv(std::vector<std::string> words) : words_(std::move(words)) {
    words_.insert(words_.begin(), "llmperf");
    for (const std::string& word : words_) argv_.push_back(word.c_str());
  }
  Argv(const Argv&) = delete;  // argv_ points into words_
  Argv& operator=(const Argv&) = delete;
  int argc() const { return static_cast<int>(argv_.size()); }
  const char* const* argv() const { return argv_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<const char*> argv_;
};

HistoryCli history(std::vector<std::string> args) {
  args.insert(args.begin(), "history");
  const Argv argv(std::move(args));
  return parse_history_cli(argv.argc(), argv.argv());
}

BenchmarkCli benchmark(std::vector<std::string> args, Config& config) {
  args.insert(args.begin(), {"--url", "http://127.0.0.1:8000/v1/chat/completions", "--model", "m",
                             "--prompt", "hi"});
  const Argv argv(std::move(args));
  return parse_cli(argv.argc(), argv.argv(), config);
}

// What `llmperf WORDS... --help` prints.
std::string help_of(std::vector<std::string> words) {
  words.push_back("--help");
  const Argv argv(words);
  if (words.front() == "history" && words.size() > 2 && words[1] == "import") {
    return parse_history_import(argv.argc(), argv.argv()).outcome.out;
  }
  if (words.front() == "history") return parse_history_cli(argv.argc(), argv.argv()).outcome.out;
  if (words.front() == "calibrate") return parse_calibrate(argv.argc(), argv.argv()).outcome.out;
  if (words.front() == "tune") return parse_tune(argv.argc(), argv.argv()).outcome.out;
  if (words.front() == "compare") return parse_compare(argv.argc(), argv.argv()).outcome.out;
  if (words.front() == "report") return parse_report(argv.argc(), argv.argv()).outcome.out;
  if (words.front() == "merge") return parse_merge(argv.argc(), argv.argv()).outcome.out;
  Config config;
  return parse_cli(argv.argc(), argv.argv(), config).outcome.out;
}

TEST(SharedFlags, HistoryTakesTheNamesEveryOtherCommandUses) {
  // Before: `llmperf history --results-db h.db --outputs-dir trend` was "The following arguments
  // were not expected: trend --outputs-dir h.db --results-db".
  HistoryCli cli = history(
      {"--results-db", "h.db", "--outputs-dir", "trend", "--name", "smoke", "--tag", "env=ci"});
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.options.db, "h.db");
  EXPECT_EQ(cli.options.output_dir, "trend");
  EXPECT_EQ(cli.options.name, "smoke");
  // Its former names stay accepted.
  cli = history({"--db", "h.db", "--output", "trend"});
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.options.db, "h.db");
  EXPECT_EQ(cli.options.output_dir, "trend");
  cli = history({"--results-db", "h.db", "--output", "trend", "--html", "page.html"});
  EXPECT_EQ(cli.outcome.exit_code, kExitUsage);
  EXPECT_NE(cli.outcome.err.find("--outputs-dir and --html: give one"), std::string::npos)
      << cli.outcome.err;
}

TEST(SharedFlags, HistoryImportTakesTheBenchmarksDatabaseFlags) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--results-db", "h.db", "--results-db-requests"},
        std::vector<std::string>{"--db", "h.db", "--requests"}}) {
    std::vector<std::string> words = {"history", "import"};
    words.insert(words.end(), flags.begin(), flags.end());
    words.push_back("runs");
    const Argv argv(words);
    const HistoryImportCli cli = parse_history_import(argv.argc(), argv.argv());
    ASSERT_TRUE(cli.proceed) << flags.front() << ": " << cli.outcome.err;
    EXPECT_EQ(cli.options.db, "h.db");
    EXPECT_TRUE(cli.options.requests) << flags.back();
    EXPECT_EQ(cli.options.dirs, std::vector<std::string>{"runs"});
  }
}

TEST(SharedFlags, CalibrateTakesTheBenchmarksLoadFlagsAndTheirAliases) {
  const Argv argv({"calibrate", "--max-concurrency", "8", "--num-prompts", "24", "--request-rate",
                   "50", "--output", "/tmp/c"});
  const CalibrateCli cli = parse_calibrate(argv.argc(), argv.argv());
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.plan.parallel, 8);
  EXPECT_EQ(cli.plan.requests(), 24);
  EXPECT_DOUBLE_EQ(cli.plan.rate, 50);
  EXPECT_EQ(cli.plan.outputs_dir, "/tmp/c");
}

TEST(SharedFlags, TheBenchmarkAcceptsTheOtherCommandsSpellings) {
  Config config;
  const BenchmarkCli cli = benchmark({"--output", "out", "--db", "h.db"}, config);
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(config.output.outputs_dir, "out");
  EXPECT_EQ(config.output.results_db, "h.db");
}

TEST(SharedFlags, HelpShowsTheCanonicalNameFirst) {
  const std::vector<std::vector<std::string>> writers = {
      {}, {"calibrate"}, {"compare"}, {"merge"}, {"history"}};
  for (const std::vector<std::string>& command : writers) {
    const std::string help = help_of(command);
    EXPECT_NE(help.find("--outputs-dir,--output"), std::string::npos)
        << (command.empty() ? "llmperf" : command.front()) << ":\n"
        << help;
  }
  const std::vector<std::vector<std::string>> stores = {
      {}, {"report"}, {"merge"}, {"history"}, {"history", "import"}};
  for (const std::vector<std::string>& command : stores) {
    const std::string help = help_of(command);
    EXPECT_NE(help.find("--results-db,--db"), std::string::npos)
        << (command.empty() ? "llmperf" : command.front()) << ":\n"
        << help;
  }
  EXPECT_NE(help_of({"calibrate"}).find("--parallel,--max-concurrency"), std::string::npos);
  EXPECT_NE(help_of({"history", "import"}).find("--results-db-requests,--requests"),
            std::string::npos);
}

TEST(SharedFlags, EveryCommandNamesAMistypedFlagAndTheClosestKnownOne) {
  // Before: "The following arguments were not expected: 2 --paralel", nothing more.
  Config config;
  BenchmarkCli benchmarked = benchmark({"--paralel", "2"}, config);
  EXPECT_EQ(benchmarked.outcome.exit_code, kExitUsage);
  EXPECT_NE(benchmarked.outcome.err.find(
                "llmperf: error: unknown flag --paralel (did you mean --parallel?)"),
            std::string::npos)
      << benchmarked.outcome.err;
  EXPECT_EQ(benchmarked.outcome.err.find("not expected"), std::string::npos)
      << benchmarked.outcome.err;
  const Argv mistyped_command({"histroy", "--results-db", "h.db"});
  benchmarked = parse_cli(mistyped_command.argc(), mistyped_command.argv(), config);
  EXPECT_NE(
      benchmarked.outcome.err.find("unknown command histroy (did you mean `llmperf history`?)"),
      std::string::npos)
      << benchmarked.outcome.err;

  HistoryCli cli = history({"--results-db", "h.db", "--nmae", "smoke"});
  EXPECT_EQ(cli.outcome.exit_code, kExitUsage);
  EXPECT_NE(cli.outcome.err.find("llmperf history: unknown flag --nmae (did you mean --name?)"),
            std::string::npos)
      << cli.outcome.err;

  const Argv calibrate({"calibrate", "--ttf-ms", "5"});
  const CalibrateCli calibrated = parse_calibrate(calibrate.argc(), calibrate.argv());
  EXPECT_NE(calibrated.outcome.err.find("unknown flag --ttf-ms (did you mean --ttft-ms?)"),
            std::string::npos)
      << calibrated.outcome.err;

  // Its value taken for a directory to compare fails that check too: the unknown flag comes first.
  // Before: "llmperf compare: dirs: Directory does not exist: x", nothing more.
  const Argv compare({"compare", ::testing::TempDir(), "--outputs-dri", "x"});
  const CompareCli compared = parse_compare(compare.argc(), compare.argv());
  EXPECT_FALSE(compared.proceed);
  EXPECT_EQ(compared.outcome.exit_code, kExitUsage);
  EXPECT_EQ(
      compared.outcome.err.find("llmperf compare: unknown flag --outputs-dri (did you mean "
                                "--outputs-dir?)\nllmperf compare: dirs: Directory does not exist"),
      0u)
      << compared.outcome.err;

  // A required flag mistyped: named as well as missing.
  cli = history({"--reslts-db", "h.db"});
  EXPECT_EQ(cli.outcome.err.find("llmperf history: unknown flag --reslts-db (did you mean "
                                 "--results-db?)\nllmperf history: --results-db is required"),
            0u)
      << cli.outcome.err;
}

TEST(SharedFlags, TuneNamesAMistypedFlagOfEitherTheStudyOrTheBenchmark) {
  for (const auto& [typed, meant] : std::vector<std::pair<std::string, std::string>>{
           {"--stratgy", "--strategy"}, {"--paralel", "--parallel"}}) {
    const Argv argv({"tune", "--serve", "s --port {port}", "--param", "a=1,2", typed, "x"});
    const TuneCli cli = parse_tune(argv.argc(), argv.argv());
    EXPECT_FALSE(cli.proceed) << typed;
    EXPECT_EQ(cli.outcome.exit_code, kExitUsage);
    EXPECT_NE(cli.outcome.err.find("llmperf tune: unknown flag " + typed + " (did you mean " +
                                   meant + "?)"),
              std::string::npos)
        << cli.outcome.err;
  }
}

}  // namespace
}  // namespace llmperf

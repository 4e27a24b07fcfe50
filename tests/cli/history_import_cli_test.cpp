// `llmperf history import`'s flags and the --results-db flags of a benchmark: what is refused as a
// usage error (exit 2) before anything is opened, and a directory without runs reported per
// directory (exit 1) while the database is still created.
#include "cli/history_import.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

SubcommandOutcome hwrite_cli_import(std::vector<std::string> args) {
  args.insert(args.begin(), {"llmperf", "history", "import"});
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return history_import_command(static_cast<int>(argv.size()), argv.data());
}

TEST(HistoryImportCli, TheDatabaseAndADirectoryAreRequired) {
  const SubcommandOutcome no_db = hwrite_cli_import({"some/dir"});
  EXPECT_EQ(no_db.exit_code, kExitUsage);
  EXPECT_NE(no_db.err.find("--results-db"), std::string::npos) << no_db.err;
  const SubcommandOutcome no_dir = hwrite_cli_import({"--results-db", "history.db"});
  EXPECT_EQ(no_dir.exit_code, kExitUsage);
  const SubcommandOutcome help = hwrite_cli_import({"--help"});
  EXPECT_EQ(help.exit_code, kExitOk);
  EXPECT_NE(help.out.find("--results-db-requests"), std::string::npos) << help.out;
}

TEST(HistoryImportCli, ADirectoryWithoutRunsIsAnErrorOfItsOwn) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("llmperf_hwrite_cli_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "empty");
  const std::string db = (dir / "history.db").string();
  const SubcommandOutcome outcome =
      hwrite_cli_import({"--results-db", db, (dir / "empty").string(), (dir / "missing").string()});
  EXPECT_EQ(outcome.exit_code, kExitCannotProceed);
  EXPECT_NE(outcome.err.find("empty: no run in it"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("missing is not a directory"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("0 run(s) imported, 0 already in"), std::string::npos) << outcome.err;
  EXPECT_TRUE(std::filesystem::exists(db));
}

TEST(HistoryImportCli, ResultsDbRequestsNeedsResultsDb) {
  Config config;
  config.model = "qwen";
  config.dataset_path = "open_qa.jsonl";
  config.results_db_requests = true;
  const std::vector<std::string> errors = validate_config(config);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("--results-db FILE"), std::string::npos) << errors[0];
  config.results_db = "history.db";
  EXPECT_TRUE(validate_config(config).empty());
}

}  // namespace
}  // namespace llmperf

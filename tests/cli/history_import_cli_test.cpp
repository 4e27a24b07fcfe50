// `llmperf history import`'s flags and the --results-db flags of a benchmark: what is refused as a
// usage error (exit 2) before anything is opened. The import itself is tested in
// tests/app/offline_commands_test.cpp.
#include "cli/history_import.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

CommandOutcome hwrite_cli_import(std::vector<std::string> args) {
  args.insert(args.begin(), {"llmperf", "history", "import"});
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  const HistoryImportCli cli = parse_history_import(static_cast<int>(argv.size()), argv.data());
  EXPECT_FALSE(cli.proceed);
  return cli.outcome;
}

TEST(HistoryImportCli, TheDatabaseAndADirectoryAreRequired) {
  const CommandOutcome no_db = hwrite_cli_import({"some/dir"});
  EXPECT_EQ(no_db.exit_code, kExitUsage);
  EXPECT_NE(no_db.err.find("--results-db"), std::string::npos) << no_db.err;
  const CommandOutcome no_dir = hwrite_cli_import({"--results-db", "history.db"});
  EXPECT_EQ(no_dir.exit_code, kExitUsage);
  const CommandOutcome help = hwrite_cli_import({"--help"});
  EXPECT_EQ(help.exit_code, kExitOk);
  EXPECT_NE(help.out.find("--results-db-requests"), std::string::npos) << help.out;
}

TEST(HistoryImportCli, ResultsDbRequestsNeedsResultsDb) {
  Config config;
  config.target.model = "qwen";
  config.workload.dataset_path = "open_qa.jsonl";
  config.output.results_db_requests = true;
  const std::vector<std::string> errors = validate_config(config);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("--results-db FILE"), std::string::npos) << errors[0];
  config.output.results_db = "history.db";
  EXPECT_TRUE(validate_config(config).empty());
}

}  // namespace
}  // namespace llmperf

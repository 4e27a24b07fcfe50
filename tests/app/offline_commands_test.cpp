// The commands over existing directories as main runs them (app/offline_commands.h): their exit
// codes and text for `llmperf report`, `compare` and `history import` on the hand-made output
// directories in tests/fixtures/outputs. Their flags are tested in tests/cli/.
#include "app/offline_commands.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/exit_codes.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

class OfflineCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_offline_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(fs::path(LLMPERF_FIXTURES_DIR) / "outputs", dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OfflineCommandsTest, ReportPrintsTheRebuiltSummaryOrSaysWhyNot) {
  const CommandOutcome ok = report_command({(dir_ / "run_b").string(), {}, ""}, {});
  EXPECT_EQ(ok.exit_code, kExitOk) << ok.err;
  EXPECT_NE(ok.out.find("QPS (req/s)"), std::string::npos) << ok.out;
  EXPECT_EQ(ok.err, "llmperf report: rebuilt " + (dir_ / "run_b").string() + "\n");

  fs::create_directories(dir_ / "empty");
  const CommandOutcome no_runs = report_command({(dir_ / "empty").string(), {}, ""}, {});
  EXPECT_EQ(no_runs.exit_code, kExitCannotProceed);
  EXPECT_EQ(no_runs.out, "");
  EXPECT_EQ(no_runs.err.rfind("llmperf report: ", 0), 0u) << no_runs.err;
  EXPECT_NE(no_runs.err.find("holds no run"), std::string::npos) << no_runs.err;
}

TEST_F(OfflineCommandsTest, ReportStoresTheRebuiltRunsWhenAsked) {
  const std::string db = (dir_ / "history.db").string();
  const CommandOutcome stored = report_command({(dir_ / "run_b").string(), {}, ""}, {db, false});
  EXPECT_EQ(stored.exit_code, kExitOk) << stored.err;
  EXPECT_NE(stored.err.find("llmperf report: stored "), std::string::npos) << stored.err;
  EXPECT_TRUE(fs::exists(db));
}

TEST_F(OfflineCommandsTest, CompareRefusesAMismatchedLabelCountAsAUsageError) {
  CompareOptions options;
  options.dirs = {(dir_ / "run_b").string()};
  options.labels = {"a", "b"};
  options.outputs_dir = (dir_ / "cmp").string();
  const CommandOutcome mismatched = compare_command(options);
  EXPECT_EQ(mismatched.exit_code, kExitUsage) << mismatched.err;
  EXPECT_NE(mismatched.err.find("--label"), std::string::npos) << mismatched.err;
}

TEST_F(OfflineCommandsTest, HistoryImportReportsEachDirectoryWithoutRunsAndGoesOn) {
  fs::create_directories(dir_ / "empty");
  HistoryStoreOptions options;
  options.db = (dir_ / "history.db").string();
  options.dirs = {(dir_ / "empty").string(), (dir_ / "missing").string()};
  const CommandOutcome outcome = history_import_command(options);
  EXPECT_EQ(outcome.exit_code, kExitCannotProceed);
  EXPECT_NE(outcome.err.find("empty: no run in it"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("missing is not a directory"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("0 run(s) imported, 0 already in"), std::string::npos) << outcome.err;
  EXPECT_TRUE(fs::exists(options.db));
}

}  // namespace
}  // namespace llmperf

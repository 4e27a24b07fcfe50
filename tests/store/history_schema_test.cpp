// The history database's schema: created from nothing, migrated from version 1 with its runs
// kept, and refused when written by a newer llmperf.
#include "store/history_schema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace llmperf {
namespace {

std::string history_test_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("llmperf_history_schema_" +
                    std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "history.db").string();
}

int64_t history_test_count(SqliteDb& db, const std::string& table) {
  SqliteStatement count(db, "SELECT count(*) FROM " + table);
  return count.step() ? count.column_int(0) : -1;
}

TEST(HistorySchema, ANewFileGetsTheLatestVersionInWalMode) {
  SqliteDb db(history_test_path("new"));
  migrate_history_db(db);
  EXPECT_EQ(history_schema_version(db), kHistorySchemaVersion);
  SqliteStatement mode(db, "PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.column_text(0), "wal");
  EXPECT_EQ(history_test_count(db, "requests"), 0);
  migrate_history_db(db);  // again: nothing to do
  EXPECT_EQ(history_schema_version(db), kHistorySchemaVersion);
}

TEST(HistorySchema, AVersionOneFileIsMigratedWithItsRunsKept) {
  const std::string path = history_test_path("v1");
  {
    SqliteDb db(path);
    migrate_history_db(db, 1);
    EXPECT_EQ(history_schema_version(db), 1);
    EXPECT_THROW(SqliteStatement(db, "SELECT * FROM requests"), SqliteError);
    db.exec(
        "INSERT INTO runs (run_id, started_at, started_unix, name) VALUES ('r1', "
        "'2026-11-01T00:00:00Z', 1.79e9, 'smoke');"
        "INSERT INTO figures VALUES (1, 'ttft', 'p99', 812.5, 'ms');"
        "INSERT INTO tags VALUES (1, 'commit', 'abc123');");
  }
  SqliteDb db(path);
  migrate_history_db(db);
  EXPECT_EQ(history_schema_version(db), kHistorySchemaVersion);
  EXPECT_EQ(history_test_count(db, "runs"), 1);
  EXPECT_EQ(history_test_count(db, "requests"), 0);
  SqliteStatement figure(db, "SELECT value FROM figures WHERE metric='ttft' AND statistic='p99'");
  ASSERT_TRUE(figure.step());
  EXPECT_EQ(figure.column_double(0), 812.5);
  // Foreign keys hold from the migrated file on: deleting the run deletes its rows.
  db.exec("DELETE FROM runs");
  EXPECT_EQ(history_test_count(db, "figures"), 0);
  EXPECT_EQ(history_test_count(db, "tags"), 0);
}

TEST(HistorySchema, AFileFromANewerLlmperfIsRefused) {
  const std::string path = history_test_path("newer");
  {
    SqliteDb db(path);
    db.exec("PRAGMA user_version=" + std::to_string(kHistorySchemaVersion + 1));
  }
  SqliteDb db(path);
  try {
    migrate_history_db(db);
    FAIL() << "a newer schema was accepted";
  } catch (const SqliteError& error) {
    EXPECT_NE(std::string(error.what()).find("upgrade llmperf"), std::string::npos) << error.what();
  }
}

TEST(HistorySchema, AFileThatIsNotSqliteIsRefusedWithSqlitesReason) {
  const std::string path = history_test_path("text");
  { std::ofstream(path) << "not a database, just text that is long enough to be read\n"; }
  SqliteDb db(path);
  try {
    migrate_history_db(db);
    FAIL() << "a text file was accepted";
  } catch (const SqliteError& error) {
    EXPECT_NE(std::string(error.what()).find("not a database"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace llmperf

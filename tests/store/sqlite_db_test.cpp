// The SQLite layer: statements, bindings, transactions that roll back, errors that say what failed.
#include "store/sqlite_db.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace llmperf {
namespace {

std::string sqlite_test_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("llmperf_sqlite_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                    "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "test.db").string();
}

TEST(SqliteDb, WritesAndReadsBackEveryKindOfValue) {
  const std::string path = sqlite_test_path("values");
  {
    SqliteDb db(path);
    db.use_wal();
    db.exec("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n TEXT)");
    SqliteStatement insert(db, "INSERT INTO t VALUES (?1, ?2, ?3, ?4)");
    insert.bind(1, int64_t{1} << 40).bind(2, 0.25).bind(3, std::string_view("h\xC3\xA9llo\0x", 8));
    insert.bind(4, std::optional<double>());
    insert.run();
    EXPECT_EQ(db.last_insert_rowid(), 1);
  }
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  SqliteStatement select(db, "SELECT i, d, s, n FROM t");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int(0), int64_t{1} << 40);
  EXPECT_EQ(select.column_double(1), 0.25);
  EXPECT_EQ(select.column_text(2), std::string("h\xC3\xA9llo\0x", 8));
  EXPECT_TRUE(select.column_is_null(3));
  EXPECT_FALSE(select.column_is_null(0));
  EXPECT_FALSE(select.step());
}

TEST(SqliteDb, ATransactionNotCommittedLeavesNothing) {
  const std::string path = sqlite_test_path("rollback");
  SqliteDb db(path);
  db.exec("CREATE TABLE t (i INTEGER)");
  try {
    SqliteTransaction transaction(db);
    SqliteStatement(db, "INSERT INTO t VALUES (1)").run();
    throw std::runtime_error("crash mid-run");
  } catch (const std::runtime_error&) {
  }
  {
    SqliteTransaction transaction(db);
    SqliteStatement(db, "INSERT INTO t VALUES (2)").run();
    transaction.commit();
  }
  SqliteStatement select(db, "SELECT group_concat(i) FROM t");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), "2");
}

TEST(SqliteDb, ErrorsNameTheFileAndSqlitesReason) {
  const std::string path = sqlite_test_path("errors");
  try {
    SqliteDb missing(path + ".absent", SqliteDb::Mode::kReadOnly);
    FAIL() << "opened a missing file read-only";
  } catch (const SqliteError& error) {
    EXPECT_NE(std::string(error.what()).find(".absent"), std::string::npos) << error.what();
  }
  SqliteDb db(path);
  try {
    SqliteStatement(db, "SELECT * FROM nowhere");
    FAIL() << "prepared a query of a missing table";
  } catch (const SqliteError& error) {
    EXPECT_NE(std::string(error.what()).find("no such table: nowhere"), std::string::npos)
        << error.what();
  }
  db.exec("CREATE TABLE u (k TEXT PRIMARY KEY)");
  SqliteStatement insert(db, "INSERT INTO u VALUES ('a')");
  insert.run();
  EXPECT_THROW(insert.run(), SqliteError);  // UNIQUE constraint failed
}

}  // namespace
}  // namespace llmperf

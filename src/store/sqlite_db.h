// A thin layer over SQLite's C API (Debian's libsqlite3): a database that closes itself,
// prepared statements that finalize themselves, a transaction that rolls back unless committed,
// and every failure as an SqliteError carrying SQLite's own message. The history database
// (--results-db) and EvalScope's benchmark_data.db are written through it.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace llmperf {

// A failed SQLite call: "<what we were doing>: <SQLite's message>".
class SqliteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One open database file.
class SqliteDb {
 public:
  enum class Mode { kReadWrite, kReadOnly };
  // Opens `path`, creating it in kReadWrite mode. Every connection waits up to busy_timeout_ms
  // for another writer's lock instead of failing at once (parallel CI jobs, shards).
  explicit SqliteDb(const std::string& path, Mode mode = Mode::kReadWrite,
                    int busy_timeout_ms = 30000);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs one or more statements that return no rows (schema, pragmas).
  void exec(const std::string& sql);
  // Write-ahead logging: readers and one writer at a time, from several processes. SQLite refuses
  // the switch at once ("database is locked", without its busy handler) while another process
  // holds the new file: it is retried for up to the busy timeout.
  void use_wal();
  int64_t last_insert_rowid() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  int busy_timeout_ms_ = 0;
};

// A prepared statement. bind() takes 1-based parameter indices, as SQLite does; step() returns
// true while there is a row, whose columns column_*() read by 0-based index.
class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, std::string_view sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& bind(int index, int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, std::string_view text);
  SqliteStatement& bind_null(int index);
  template <typename T>
  SqliteStatement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }

  bool step();
  // Ready to run again with new bindings (the old ones are kept until re-bound).
  void reset();
  // step() until done, for statements that return no rows.
  void run();

  bool column_is_null(int column) const;
  int64_t column_int(int column) const;
  double column_double(int column) const;
  std::string column_text(int column) const;

 private:
  SqliteDb* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (takes the write lock at once, so two writers wait for each other instead of
// failing mid-transaction) ... COMMIT; rolled back when destroyed uncommitted (an exception).
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb& db);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SqliteDb* db_;
  bool done_ = false;
};

}  // namespace llmperf

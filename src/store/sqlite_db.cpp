// See sqlite_db.h.
#include "store/sqlite_db.h"

#include <sqlite3.h>

#include <fmt/format.h>

#include <algorithm>

namespace llmperf {
namespace {

[[noreturn]] void sqlite_fail(sqlite3* db, std::string_view what) {
  throw SqliteError(fmt::format("{}: {}", what, db != nullptr ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, Mode mode, int busy_timeout_ms)
    : path_(path), busy_timeout_ms_(busy_timeout_ms) {
  const int flags = mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY
                                            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string message = fmt::format("cannot open {}: {}", path,
                                            db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory");
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(message);
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);
  sqlite3_extended_result_codes(db_, 1);
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

void SqliteDb::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = fmt::format("{}: {}", path_, error != nullptr ? error : "error");
    sqlite3_free(error);
    throw SqliteError(message);
  }
}

void SqliteDb::use_wal() {
  // Two processes opening a new file at once: the switch to WAL needs an exclusive lock, and
  // SQLite answers SQLITE_BUSY at once instead of calling the busy handler. Wait as it would.
  int waited_ms = 0;
  for (int pause_ms = 1;; pause_ms = std::min(pause_ms * 2, 50)) {
    const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) break;
    if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= busy_timeout_ms_) {
      throw SqliteError(fmt::format("{}: {}", path_, sqlite3_errmsg(db_)));
    }
    waited_ms += sqlite3_sleep(pause_ms);
  }
  exec("PRAGMA synchronous=NORMAL");
}

int64_t SqliteDb::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql) : db_(&db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_,
                         nullptr) != SQLITE_OK) {
    sqlite_fail(db.handle(), fmt::format("{}: cannot prepare \"{}\"", db.path(), sql));
  }
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) sqlite_fail(db_->handle(), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) sqlite_fail(db_->handle(), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT,
                          SQLITE_UTF8) != SQLITE_OK) {
    sqlite_fail(db_->handle(), "bind");
  }
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) sqlite_fail(db_->handle(), "bind");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite_fail(db_->handle(), db_->path());
}

void SqliteStatement::reset() { sqlite3_reset(stmt_); }

void SqliteStatement::run() {
  while (step()) {
  }
  reset();
}

bool SqliteStatement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t SqliteStatement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }

double SqliteStatement::column_double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::column_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

SqliteTransaction::SqliteTransaction(SqliteDb& db) : db_(&db) { db.exec("BEGIN IMMEDIATE"); }

SqliteTransaction::~SqliteTransaction() {
  if (!done_) sqlite3_exec(db_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
  db_->exec("COMMIT");
  done_ = true;
}

}  // namespace llmperf

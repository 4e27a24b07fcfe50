// See history_schema.h.
#include "store/history_schema.h"

#include <fmt/format.h>

namespace llmperf {

const std::vector<std::string>& history_migrations() {
  static const std::vector<std::string> migrations = {
      // Version 1: runs, their tags, figures and verdicts.
      R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  started_at TEXT NOT NULL,
  started_unix REAL NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  run_label TEXT NOT NULL DEFAULT '',
  invocation TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT 'run',
  directory TEXT NOT NULL DEFAULT '',
  config TEXT NOT NULL DEFAULT '{}',
  server TEXT,
  llmperf_version TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_by_name ON runs (name, run_label, started_unix);
CREATE TABLE tags (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run, key)
);
CREATE TABLE figures (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  statistic TEXT NOT NULL DEFAULT '',
  value REAL,
  unit TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run, metric, statistic)
);
CREATE TABLE verdicts (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  rule TEXT NOT NULL,
  passed INTEGER NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
)sql",
      // Version 2: the per-request records (--results-db-requests); figures by metric.
      R"sql(
CREATE TABLE requests (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (run, seq)
);
CREATE INDEX figures_by_metric ON figures (metric, statistic);
)sql",
  };
  return migrations;
}

int history_schema_version(SqliteDb& db) {
  SqliteStatement version(db, "PRAGMA user_version");
  return version.step() ? static_cast<int>(version.column_int(0)) : 0;
}

void migrate_history_db(SqliteDb& db, int up_to) {
  db.exec("PRAGMA foreign_keys=ON");
  db.use_wal();
  const int target = up_to < 0 ? kHistorySchemaVersion : up_to;
  while (true) {
    // Read and migrate under the write lock, so that two processes opening a new file at once
    // do not both create the tables.
    SqliteTransaction transaction(db);
    const int version = history_schema_version(db);
    if (version > kHistorySchemaVersion) {
      throw SqliteError(fmt::format(
          "{}: history schema version {} is newer than this llmperf's ({}); upgrade llmperf to "
          "read it",
          db.path(), version, kHistorySchemaVersion));
    }
    if (version >= target) return;  // the transaction rolls back: nothing was changed
    db.exec(history_migrations()[static_cast<size_t>(version)]);
    db.exec(fmt::format("PRAGMA user_version={}", version + 1));
    transaction.commit();
  }
}

}  // namespace llmperf

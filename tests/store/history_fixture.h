// A test fixture for the history database's readers: writes runs, tags and figures rows with
// plain SQL, as store/history_schema.h documents them, without --results-db (the writer is
// tested on its own). Header-only, so that unit and integration tests share it.
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/history_schema.h"
#include "store/sqlite_db.h"

namespace llmperf::history_fixture {

// One figure row.
struct Figure {
  std::string metric;            // "ttft"
  std::string statistic;         // "p99", "" for run-level values
  std::optional<double> value;   // null allowed
  std::string unit;              // "ms"
};

// One runs row with its tags and figures.
struct Run {
  std::string run_id;
  double started_unix = 0;
  std::string name;
  std::string run_label;
  std::string directory;
  std::string config = "{}";
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<Figure> figures;
};

// started_unix as ISO-8601 UTC.
inline std::string iso_time(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Creates (or opens) the history database at `path` with the current schema.
inline void create(const std::string& path) {
  SqliteDb db(path);
  migrate_history_db(db);
}

// Appends `run` to the database at `path`.
inline void add_run(const std::string& path, const Run& run) {
  SqliteDb db(path);
  migrate_history_db(db);
  SqliteTransaction transaction(db);
  SqliteStatement insert(db,
                         "INSERT INTO runs (run_id, started_at, started_unix, name, run_label, "
                         "directory, config, model, url) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                         "'mock-model', 'http://127.0.0.1:1')");
  insert.bind(1, run.run_id)
      .bind(2, iso_time(run.started_unix))
      .bind(3, run.started_unix)
      .bind(4, run.name)
      .bind(5, run.run_label)
      .bind(6, run.directory)
      .bind(7, run.config)
      .run();
  const int64_t id = db.last_insert_rowid();
  SqliteStatement tag(db, "INSERT INTO tags (run, key, value) VALUES (?1, ?2, ?3)");
  for (const auto& [key, value] : run.tags) {
    tag.reset();
    tag.bind(1, id).bind(2, key).bind(3, value).run();
  }
  SqliteStatement figure(db,
                         "INSERT INTO figures (run, metric, statistic, value, unit) VALUES (?1, "
                         "?2, ?3, ?4, ?5)");
  for (const Figure& f : run.figures) {
    figure.reset();
    figure.bind(1, id).bind(2, f.metric).bind(3, f.statistic).bind(4, f.value).bind(5, f.unit).run();
  }
  transaction.commit();
}

}  // namespace llmperf::history_fixture

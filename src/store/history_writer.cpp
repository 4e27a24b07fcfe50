// See history_writer.h.
#include "store/history_writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

namespace llmperf {
namespace {

// The stored run's row id, or nullopt when the database has no run `run_id`.
std::optional<int64_t> history_stored_run(SqliteDb& db, const std::string& run_id) {
  SqliteStatement find(db, "SELECT id FROM runs WHERE run_id = ?1");
  find.bind(1, run_id);
  if (!find.step()) return std::nullopt;
  return find.column_int(0);
}

int64_t history_insert_run_row(SqliteDb& db, const HistoryRun& run) {
  SqliteStatement insert(db,
                         "INSERT INTO runs (run_id, started_at, started_unix, name, run_label, "
                         "invocation, model, url, source, directory, config, server, "
                         "llmperf_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                         "?12, ?13)");
  insert.bind(1, run.run_id)
      .bind(2, run.started_at)
      .bind(3, run.started_unix)
      .bind(4, run.name)
      .bind(5, run.run_label)
      .bind(6, run.invocation)
      .bind(7, run.model)
      .bind(8, run.url)
      .bind(9, run.source)
      .bind(10, run.directory)
      .bind(11, run.config)
      .bind(12, run.server)
      .bind(13, run.llmperf_version);
  insert.run();
  return db.last_insert_rowid();
}

void history_insert_children(SqliteDb& db, int64_t id, const HistoryRun& run) {
  SqliteStatement tag(db, "INSERT INTO tags (run, key, value) VALUES (?1, ?2, ?3)");
  for (const auto& [key, value] : run.tags) {
    tag.bind(1, id).bind(2, key).bind(3, value);
    tag.run();
  }
  SqliteStatement figure(
      db, "INSERT INTO figures (run, metric, statistic, value, unit) VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const HistoryFigure& f : run.figures) {
    figure.bind(1, id).bind(2, f.metric).bind(3, f.statistic).bind(4, f.value).bind(5, f.unit);
    figure.run();
  }
  SqliteStatement verdict(
      db, "INSERT INTO verdicts (run, kind, rule, passed, detail) VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const StoredVerdict& v : run.verdicts) {
    verdict.bind(1, id)
        .bind(2, v.kind)
        .bind(3, v.rule)
        .bind(4, static_cast<int64_t>(v.passed ? 1 : 0))
        .bind(5, v.detail);
    verdict.run();
  }
  if (run.requests_jsonl.empty()) return;
  std::ifstream in(run.requests_jsonl, std::ios::binary);
  if (!in) {
    throw SqliteError(
        fmt::format("{}: cannot read {}: {}", db.path(), run.requests_jsonl, std::strerror(errno)));
  }
  SqliteStatement request(db, "INSERT INTO requests (run, seq, record) VALUES (?1, ?2, ?3)");
  std::string line;
  for (int64_t seq = 1; std::getline(in, line); ++seq) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    request.bind(1, id).bind(2, seq).bind(3, line);
    request.run();
  }
  if (in.bad()) {
    throw SqliteError(fmt::format("{}: cannot read {}", db.path(), run.requests_jsonl));
  }
}

}  // namespace

HistoryAppend append_history_run(SqliteDb& db, const HistoryRun& run, ExistingRun existing) {
  SqliteTransaction transaction(db);
  HistoryAppend outcome = HistoryAppend::kInserted;
  if (const std::optional<int64_t> stored = history_stored_run(db, run.run_id)) {
    if (existing == ExistingRun::kSkip) return HistoryAppend::kSkipped;  // rolls back: no change
    // Its rows first: a connection without PRAGMA foreign_keys would not cascade.
    for (const char* table : {"tags", "figures", "verdicts", "requests"}) {
      SqliteStatement remove(db, fmt::format("DELETE FROM {} WHERE run = ?1", table));
      remove.bind(1, *stored);
      remove.run();
    }
    SqliteStatement remove(db, "DELETE FROM runs WHERE id = ?1");
    remove.bind(1, *stored);
    remove.run();
    outcome = HistoryAppend::kReplaced;
  }
  const int64_t id = history_insert_run_row(db, run);
  history_insert_children(db, id, run);
  transaction.commit();
  return outcome;
}

}  // namespace llmperf

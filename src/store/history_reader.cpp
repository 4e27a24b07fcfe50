// Reading the history database: see history_reader.h.
#include "store/history_reader.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "store/history_schema.h"

namespace llmperf {

void check_history_db(SqliteDb& db) {
  int version = 0;
  try {
    version = history_schema_version(db);
  } catch (const SqliteError& error) {
    throw SqliteError(fmt::format("{}: not a history database ({})", db.path(), error.what()));
  }
  if (version < 1) {
    throw SqliteError(fmt::format(
        "{}: not a history database (no llmperf history schema; --results-db writes one)",
        db.path()));
  }
  if (version > kHistorySchemaVersion) {
    throw SqliteError(fmt::format(
        "{}: history schema version {} is newer than this llmperf's ({}); upgrade llmperf to "
        "read it",
        db.path(), version, kHistorySchemaVersion));
  }
}

std::vector<HistoryEntry> read_history(SqliteDb& db, const HistoryFilter& filter,
                                     const std::vector<std::string>& metrics) {
  std::string sql =
      "SELECT id, run_id, started_at, started_unix, name, run_label, model, directory, config "
      "FROM runs WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR run_label = ?2) "
      "AND (?3 IS NULL OR started_unix < ?3)";
  for (size_t i = 0; i < filter.tags.size(); ++i) {
    sql += fmt::format(
        " AND EXISTS (SELECT 1 FROM tags WHERE tags.run = runs.id AND tags.key = ?{} AND "
        "tags.value = ?{})",
        4 + 2 * i, 5 + 2 * i);
  }
  sql += " ORDER BY started_unix DESC, id DESC";
  if (filter.last > 0) sql += fmt::format(" LIMIT {}", filter.last);
  SqliteStatement select(db, sql);
  select.bind(1, filter.name).bind(2, filter.run_label).bind(3, filter.started_before_unix);
  for (size_t i = 0; i < filter.tags.size(); ++i) {
    select.bind(static_cast<int>(4 + 2 * i), filter.tags[i].first);
    select.bind(static_cast<int>(5 + 2 * i), filter.tags[i].second);
  }
  std::vector<HistoryEntry> runs;
  while (select.step()) {
    HistoryEntry run;
    run.id = select.column_int(0);
    run.run_id = select.column_text(1);
    run.started_at = select.column_text(2);
    run.started_unix = select.column_double(3);
    run.name = select.column_text(4);
    run.run_label = select.column_text(5);
    run.model = select.column_text(6);
    run.directory = select.column_text(7);
    run.config = select.column_text(8);
    runs.push_back(std::move(run));
  }
  std::reverse(runs.begin(), runs.end());

  const std::set<std::string> wanted(metrics.begin(), metrics.end());
  SqliteStatement tags(db, "SELECT key, value FROM tags WHERE run = ?1 ORDER BY rowid");
  SqliteStatement figures(db,
                          "SELECT metric, statistic, value, unit FROM figures WHERE run = ?1");
  for (HistoryEntry& run : runs) {
    tags.reset();
    tags.bind(1, run.id);
    while (tags.step()) run.tags.emplace_back(tags.column_text(0), tags.column_text(1));
    figures.reset();
    figures.bind(1, run.id);
    while (figures.step()) {
      const std::string metric = figures.column_text(0);
      const std::string statistic = figures.column_text(1);
      const std::string name = statistic.empty() ? metric : metric + "." + statistic;
      if (!wanted.empty() && wanted.count(name) == 0) continue;
      HistoryEntryFigure figure;
      if (!figures.column_is_null(2)) figure.value = figures.column_double(2);
      figure.unit = figures.column_text(3);
      run.figures[name] = std::move(figure);
    }
  }
  return runs;
}

std::optional<std::vector<HistoryEntry>> read_history_file(
    const std::string& path, const HistoryFilter& filter, const std::vector<std::string>& metrics) {
  std::error_code missing;
  if (!std::filesystem::exists(path, missing)) return std::nullopt;
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  check_history_db(db);
  return read_history(db, filter, metrics);
}

}  // namespace llmperf

// Reading the history database (store/history_schema.h) back: the runs matching a filter (name,
// run_label, tags, started before an instant, the last N by start time), each with its identity,
// its stored config and the figures asked for. `llmperf history` and `--baseline db:` read it
// through here. Read-only: a reader never changes the file, and in WAL mode it does not block a
// run writing to it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/history_entry.h"
#include "store/sqlite_db.h"

namespace llmperf {

// Which runs to read.
struct HistoryFilter {
  std::optional<std::string> name;       // --name ("" is the runs without one); nullopt: any
  std::optional<std::string> run_label;  // e.g. "parallel_8_number_100"; nullopt: any
  // key=value pairs the run must all carry (it may carry more).
  std::vector<std::pair<std::string, std::string>> tags;
  std::optional<double> started_before_unix;  // only runs started strictly before (seconds)
  int last = 0;  // the N most recently started (by started_unix); 0: all
};

// Opens `path` read-only and checks that it is a history database this llmperf can read. Throws
// SqliteError naming the file: missing, not SQLite, no history schema, or a newer schema.
void check_history_db(SqliteDb& db);

// The runs matching `filter`, oldest first, with the figures named in `metrics` ("ttft.p99",
// "output_throughput": "metric.statistic" split at the first '.', or a run-level metric alone);
// empty `metrics`: every figure of the run.
std::vector<HistoryEntry> read_history(SqliteDb& db, const HistoryFilter& filter,
                                     const std::vector<std::string>& metrics);

// read_history over the database at `path`, opened read-only and checked (check_history_db);
// nullopt when the file does not exist yet (the first run of a history that --results-db starts).
std::optional<std::vector<HistoryEntry>> read_history_file(const std::string& path,
                                                           const HistoryFilter& filter,
                                                           const std::vector<std::string>& metrics);

}  // namespace llmperf

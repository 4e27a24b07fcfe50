// The history database's schema (--results-db, `llmperf history`): its tables, its version and
// the migrations that bring an older file up to date. SQLite's PRAGMA user_version holds the
// version; open_history_db() applies each missing migration in its own transaction, in order, so
// a file written by any earlier llmperf is upgraded in place and never rewritten from scratch.
//
// Version 1 (llmperf 1.x, issue 27):
//   runs      one row per run: run_id (unique text id), started_at (ISO-8601 UTC) and
//             started_unix (seconds), name (--name, "" when none), run_label (the run within its
//             benchmark, e.g. "parallel_8_number_100"), invocation (one id per llmperf command,
//             shared by a sweep's runs), model, url (credentials removed), source ("run",
//             "merge", "report", "import"), directory (the run's output directory), the config
//             (JSON, secrets masked), server (JSON: the server's identity and its reconciliation,
//             summary.json's "server"), llmperf_version
//   tags      (run, key, value): --tag key=value
//   figures   (run, metric, statistic, value, unit): the summary's figures, one row each, named as
//             --slo names them: ("ttft", "p99", 812.3, "ms"), ("output_throughput", "", 5123.4,
//             "tok/s"); values in summary.json's units. New metrics need no schema change.
//   verdicts  (run, kind, rule, passed, detail): kind "slo" (one row per --slo) or "baseline"
// Version 2: requests (run, seq, record): requests.jsonl's lines, with --results-db-requests;
//            an index on figures (metric, statistic) for `llmperf history --metric`.
#pragma once

#include <string>
#include <vector>

#include "store/sqlite_db.h"

namespace llmperf {

// The version this llmperf writes.
inline constexpr int kHistorySchemaVersion = 2;

// The SQL of each migration: [0] makes version 1 from an empty file, [1] version 2 from 1, ...
const std::vector<std::string>& history_migrations();

// The file's PRAGMA user_version (0: empty or not a history database).
int history_schema_version(SqliteDb& db);

// Opens (creating) a history database in WAL mode with foreign keys on, and migrates it to
// kHistorySchemaVersion. Throws SqliteError when the file is not SQLite, or was written by a newer
// llmperf (a version above kHistorySchemaVersion: "upgrade llmperf to read it").
// `up_to` migrates only that far (tests of the migration path); -1: all the way.
void migrate_history_db(SqliteDb& db, int up_to = -1);

}  // namespace llmperf

// The history database's writer: one run (HistoryRun, a plain description that knows nothing of
// summary.json) appended to the tables of store/history_schema.h in ONE transaction, so that a
// crash, a kill -9 or a full disk leaves either the whole run or none of it. The app stage
// fills a HistoryRun from a summary.json (app/history_run.h); `--results-db`, `llmperf
// merge`, `llmperf report` and `llmperf history import` all write through append_history_run.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/sqlite_db.h"

namespace llmperf {

// One row of table figures.
struct HistoryFigure {
  std::string metric;           // "ttft", "output_throughput", "requests"
  std::string statistic;        // "p99", "mean", "" (a run-level value)
  std::optional<double> value;  // null: the run has the metric but no value
  std::string unit;             // "ms", "s", "tok/s", "" (fraction, count)
};

// One row of table verdicts.
struct StoredVerdict {
  std::string kind;    // "slo" (one per --slo) or "baseline" (one per compared metric)
  std::string rule;    // the --slo expression ("ttft.p99<=800ms"), or the compared metric
  bool passed = true;  // met the SLO / no regression
  std::string detail;  // the outcome as the text summary says it
};

// One run, as table runs and its child tables hold it (store/history_schema.h, version 2).
struct HistoryRun {
  std::string run_id;         // unique; the same run gives the same id (re-imports are skipped)
  std::string started_at;     // ISO-8601 UTC, "2026-11-27T03:00:47Z"
  double started_unix = 0;    // the same instant in seconds since the epoch
  std::string name;           // --name ("" when none)
  std::string run_label;      // the run within its benchmark, "parallel_8_number_100"
  std::string invocation;     // one id per llmperf command, shared by a sweep's runs
  std::string model;          // --model
  std::string url;            // the endpoint, credentials removed
  std::string source;         // "run", "merge", "report" or "import"
  std::string directory;      // the run's output directory
  std::string config = "{}";  // summary.json's config block, JSON text, secrets masked
  std::optional<std::string> server;  // summary.json's "server" as JSON text (null: none)
  std::string llmperf_version;        // the llmperf that measured the run
  std::vector<std::pair<std::string, std::string>> tags;  // --tag key=value, in order
  std::vector<HistoryFigure> figures;
  std::vector<StoredVerdict> verdicts;
  // requests.jsonl to store line by line in table requests (seq = its line number, from 1;
  // blank lines skipped); "" stores none. Read inside the transaction: an unreadable file
  // fails the whole run.
  std::string requests_jsonl;
};

// What to do with a run whose run_id the database already holds.
enum class ExistingRun {
  kSkip,     // keep the stored run (`llmperf history import`: re-imports change nothing)
  kReplace,  // delete it (with its rows) and store this one (`llmperf report` rebuilt it)
};

// What append_history_run did.
enum class HistoryAppend { kInserted, kSkipped, kReplaced };

// Appends `run` in one BEGIN IMMEDIATE transaction (waiting for other writers up to the
// database's busy timeout). The database must be migrated (migrate_history_db). Throws
// SqliteError with SQLite's reason ("database is locked", "database or disk is full", ...) or
// naming an unreadable requests_jsonl; then nothing of the run is stored.
HistoryAppend append_history_run(SqliteDb& db, const HistoryRun& run,
                                 ExistingRun existing = ExistingRun::kSkip);

}  // namespace llmperf

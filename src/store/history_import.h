// Existing run directories into the history database: `llmperf history import --results-db FILE
// DIR...` (source "import"), and the runs that `llmperf merge --results-db` and `llmperf report
// --results-db` have just written (sources "merge" and "report"). Each DIR is a run directory
// (summary.json) or any directory holding runs at any depth (a benchmark's directory, an outputs
// directory, a study's); the summary.json of --num-runs repeats is left out, its repeat_K runs are
// stored. Each run is read by the caller's HistoryRunReader (app/history_run.h: summary.json to a
// HistoryRun) and appended in one transaction of its own; a run or directory that fails is
// reported and the others go on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/history_writer.h"

namespace llmperf {

struct HistoryStoreOptions {
  std::string db;                 // the history database (created and migrated if needed)
  std::vector<std::string> dirs;  // run directories, or directories holding runs
  std::string source = "import";  // "import", "merge" or "report"
  bool requests = false;          // store requests.jsonl's lines too (where the run has one)
  // A run already stored (same run id): kept by an import, replaced by merge and report.
  ExistingRun existing = ExistingRun::kSkip;
};

// `--results-db FILE [--results-db-requests]` of `llmperf merge` and `llmperf report`: the history
// database the runs they write go to (source "merge" or "report", replacing a stored run of the
// same id).
struct ResultsDbTarget {
  std::string db;         // the history database; "" when the runs are not stored
  bool requests = false;  // store requests.jsonl's lines too
};

struct HistoryStoreOutcome {
  // One line per run: "imported DIR as run RUN_ID" ("stored" for merge and report), "replaced DIR
  // as run RUN_ID", "skipped DIR: run RUN_ID is already in DB", "skipped DIR: the summary of
  // --num-runs repeats ...".
  std::vector<std::string> lines;
  std::vector<std::string> errors;  // one per directory or run that could not be stored
  int stored = 0;                   // runs inserted or replaced
  int skipped = 0;                  // runs already in the database
};

// Where a run to store comes from, besides its summary.json.
struct HistoryRunOrigin {
  std::string source = "run";  // "run", "merge", "report" or "import"
  std::string invocation;      // the command's id (history_invocation_id)
  std::string directory;       // where the run's files are ("": summary.json's run.output_dir);
                               // stored as an absolute path
  std::string requests_jsonl;  // requests.jsonl to store in table requests ("": none)
};

// 16 hex digits of FNV-1a over `seed`: an invocation id ("run:<sweep dir>:<unix ns>:<pid>",
// "import:<directory>").
std::string history_invocation_id(std::string_view seed);

// A run directory read for the history: the run to store, or why it is left out.
struct HistoryRunRead {
  std::optional<HistoryRun> run;  // nullopt: left out
  std::string skipped;            // why, e.g. "the summary of --num-runs repeats (...)"
};

// Reads the run of `run_dir` (its summary.json) as the history stores it, from `origin`. Throws
// std::exception when it cannot: the run is reported as an error and the others go on.
using HistoryRunReader =
    std::function<HistoryRunRead(const std::string& run_dir, const HistoryRunOrigin& origin)>;

// The run directories under `dir` (itself included), sorted: every directory with a
// summary.json. Throws std::runtime_error when `dir` is not a directory.
std::vector<std::string> find_history_run_dirs(const std::string& dir);

// Stores every run of options.dirs. The invocation id of a run is made from the source and the
// directory holding it (its benchmark's directory), so the runs of one benchmark share one.
// Each run is read by `read_run`.
HistoryStoreOutcome store_run_dirs(const HistoryStoreOptions& options,
                                   const HistoryRunReader& read_run);

}  // namespace llmperf

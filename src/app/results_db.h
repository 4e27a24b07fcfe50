// --results-db FILE: each run of a benchmark appended to the history database as its files are
// written (after its verdicts), one transaction per run, every run of one llmperf command sharing
// one invocation id. A database that cannot take the run (locked beyond the busy timeout, a full
// disk, a file that is not a database) loses nothing else: the run's files are already written;
// the error names the file and SQLite's reason, and the command exits 1 at its end
// (BenchmarkResult::results_db_failures).
#pragma once

#include <string>

#include "app/benchmark.h"
#include "plan/output_plan.h"
#include "report/report.h"

namespace llmperf {

class ResultsDb {
 public:
  // The invocation id is made here, once per command: from the sweep directory, the wall clock
  // and the process id.
  // `output` names the database (--results-db) and whether requests.jsonl goes in too.
  ResultsDb(const OutputPlan& output, const std::string& sweep_dir);

  // Appends the run (its requests.jsonl too with --results-db-requests). Returns false, after
  // logging "cannot store the run in FILE: REASON", when the database refused it.
  bool append(const ReportOptions& options, const RunResult& run) const;

 private:
  std::string path_;        // --results-db
  bool requests_ = false;   // --results-db-requests
  std::string invocation_;  // shared by the command's runs
};

}  // namespace llmperf

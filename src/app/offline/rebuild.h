// `llmperf report DIR`: a run's (or a sweep's, or a study's) files rebuilt from what the run
// recorded, without sending a request. The offline pipeline of the app stage: it reads through
// report (summary.json, requests.jsonl, server_metrics.jsonl), summarises through metrics, and
// writes through report and store (benchmark_data.db).
#pragma once

#include <string>

#include "report/tools.h"

namespace llmperf {

// Re-reads each run's summary.json ("run" and "config") and requests.jsonl, recomputes the
// summary and rewrites every run file (and the sweep files for a sweep directory). Returns the
// text summaries that a run would have printed. A study's directory (study.json and study.jsonl)
// gets its study files (study_summary.json, .csv, .md, study.html) rewritten from those two
// instead, and the study's closing text back, after a warning per bad ledger line. Throws
// std::runtime_error on unreadable input.
std::string rebuild_reports(const RebuildOptions& options);

}  // namespace llmperf

// A run as the history database stores it (store/history_writer.h's HistoryRun), made from its
// summary.json (report/summary_file.h) in the application stage, the one that sees both: the one
// mapping that `--results-db` (a run just measured), `llmperf merge`,
// `llmperf report` and `llmperf history import` share, so a run reads the same in the database
// whichever way it got there. Figures come from summary_figures(), verdicts from the "slo" block
// (kind "slo") and a --baseline comparison (kind "baseline"), the server's identity and its
// reconciliation from the "server" block (JSON text).
//
// The run id is derived from the run's own summary.json, so the same run always gets the same id
// and importing a directory twice (or a run that --results-db already stored) changes nothing:
// the first 16 hex digits of FNV-1a over
//   started_at | anchor_unix_ns | config name | config model | run_label | shard index/count/merged
// (run_label: the run directory's name, "parallel_8_number_100", with "/repeat_K" for a
// --num-runs repeat; a merged run differs from its shard 0 by the merged flag).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/summary_file.h"
#include "store/history_import.h"
#include "store/history_writer.h"
#include "verdict/baseline.h"

namespace llmperf {

// The run's name within its benchmark, from summary.json's run.output_dir (see above).
std::string history_run_label(const SummaryFile& file);

// The run's deterministic id (see above).
std::string history_run_id(const SummaryFile& file);

// The run as the history database stores it, with the verdicts of its --baseline comparison
// (`baseline`, when it had one).
HistoryRun history_run(const SummaryFile& file, const HistoryRunOrigin& origin,
                       const BaselineComparison* baseline = nullptr);

// store_run_dirs' reader (store/history_import.h): the run of `run_dir`'s summary.json, or, for the
// summary of --num-runs repeats, why it is left out (its repeat_K runs are stored). Throws
// std::runtime_error naming the file when it cannot be read.
HistoryRunRead read_history_run_dir(const std::string& run_dir, const HistoryRunOrigin& origin);

}  // namespace llmperf

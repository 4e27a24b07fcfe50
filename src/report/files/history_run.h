// A run as the history database stores it (store/history_writer.h's HistoryRun), made from its
// summary.json: the one mapping that `--results-db` (a run just measured), `llmperf merge`,
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

#include "report/report.h"
#include "report/summary_file.h"
#include "store/history_writer.h"
#include "verdict/baseline.h"

namespace llmperf {

// Where a run to store comes from, besides its summary.json.
struct HistoryRunOrigin {
  std::string source = "run";  // "run", "merge", "report" or "import"
  std::string invocation;      // the command's id (history_invocation_id)
  std::string directory;       // where the run's files are ("": summary.json's run.output_dir);
                               // stored as an absolute path
  std::string requests_jsonl;  // requests.jsonl to store in table requests ("": none)
  const BaselineComparison* baseline = nullptr;  // the run's --baseline comparison, if any
};

// The run's name within its benchmark, from summary.json's run.output_dir (see above).
std::string history_run_label(const SummaryFile& file);

// The run's deterministic id (see above).
std::string history_run_id(const SummaryFile& file);

// 16 hex digits of FNV-1a over `seed`: an invocation id ("run:<sweep dir>:<unix ns>:<pid>",
// "import:<directory>").
std::string history_invocation_id(std::string_view seed);

// The run as the history database stores it.
HistoryRun history_run(const SummaryFile& file, const HistoryRunOrigin& origin);

// The summary.json that write_run_outputs writes for this run, as data (credentials scrubbed as
// in the file): what a run just measured stores in the history.
SummaryFile written_summary_file(const ReportOptions& options, const RunInfo& info,
                                 const RunSummary& summary);

}  // namespace llmperf

// `--baseline db:FILE` for one run: reads the last N comparable runs of the history database
// (store/history_reader.h: same --name, same run within the benchmark, every --tag of this run,
// started before it) and judges this run's figures against them
// (verdict/history_baseline.h's judge_run_against_history). The terminal's block is
// report/history/history_baseline_text.h's.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/history_entry.h"
#include "verdict/history_baseline.h"

namespace llmperf {

// Which history runs a run is compared with.
struct HistoryRunKey {
  std::string name;       // --name ("" when none)
  std::string run_label;  // the run's directory name, e.g. "parallel_8_number_100"
  std::vector<std::pair<std::string, std::string>> tags;  // --tag: each must be on the history run
  double started_unix = 0;  // this run's start: only runs started before it are compared
};

// Judges `current` (report/history/history_baseline_text.h's run_figures) against the database
// at `db_path`, over history_baseline_metrics(). A file that cannot be read gives a comparison
// whose `error` says why (and which counts as failed).
HistoryComparison compare_run_to_history(const std::string& db_path,
                                         const HistoryBaselineOptions& options,
                                         const HistoryRunKey& key,
                                         const std::map<std::string, HistoryEntryFigure>& current);

}  // namespace llmperf

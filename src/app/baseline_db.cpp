// --baseline db: for one run: read the history (store), judge (verdict) (baseline_db.h).
#include "app/baseline_db.h"

#include <optional>
#include <vector>

#include <fmt/format.h>

#include "store/history_reader.h"

namespace llmperf {
namespace {

std::string history_match_text(const HistoryRunKey& key) {
  std::string text = fmt::format("name \"{}\", run {}", key.name, key.run_label);
  for (const auto& [k, v] : key.tags) text += fmt::format(", {}={}", k, v);
  return text;
}

}  // namespace

HistoryComparison compare_run_to_history(const std::string& db_path,
                                         const HistoryBaselineOptions& options,
                                         const HistoryRunKey& key,
                                         const std::map<std::string, HistoryEntryFigure>& current) {
  HistoryComparison comparison;
  comparison.run_name = key.run_label;
  comparison.db_path = db_path;
  comparison.match = history_match_text(key);
  std::optional<std::vector<HistoryEntry>> runs;
  try {
    HistoryFilter filter;
    filter.name = key.name;
    filter.run_label = key.run_label;
    filter.tags = key.tags;
    filter.started_before_unix = key.started_unix;
    filter.last = options.runs;
    runs = read_history_file(db_path, filter, history_baseline_metrics());
  } catch (const SqliteError& error) {
    comparison.error = error.what();
    return comparison;
  }
  // Not there yet: the first run of a history that --results-db starts (config validation
  // refused a missing file otherwise). Every metric is then not judged.
  if (!runs) return comparison;
  comparison.rows = judge_run_against_history(*runs, current, options);
  return comparison;
}

}  // namespace llmperf

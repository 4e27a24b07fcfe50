// One run of the history database as it is read back (store/history_reader.h reads it; the
// report stage shows it, `llmperf history`'s table and page; verdict judges against it): plain
// data, no SQLite.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmperf {

// One stored figure.
struct HistoryEntryFigure {
  std::optional<double> value;  // null: the run had the metric without a value
  std::string unit;             // "ms", "tok/s", "" ...
};

// One run of the history, with the figures asked for.
struct HistoryEntry {
  int64_t id = 0;                                         // the row's id (runs.id)
  std::string run_id;                                     // runs.run_id
  std::string started_at;                                 // ISO-8601 UTC
  double started_unix = 0;                                // seconds
  std::string name;                                       // --name
  std::string run_label;                                  // the run within its benchmark
  std::string model;                                      // the model asked for
  std::string directory;                                  // the run's output directory, as written
  std::string config;                                     // the config JSON (secrets masked)
  std::vector<std::pair<std::string, std::string>> tags;  // in the order they were stored
  std::map<std::string, HistoryEntryFigure> figures;  // "ttft.p99" / "output_throughput" -> figure
};

}  // namespace llmperf

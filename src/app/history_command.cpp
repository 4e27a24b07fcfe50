// `llmperf history`: read, print, write (history_command.h).
#include "app/history_command.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>

#include "core/exit_codes.h"
#include "core/files.h"
#include "report/report.h"
#include "store/history_reader.h"

namespace llmperf {

int history_command(const HistoryCommandOptions& options) {
  const std::vector<std::string>& metrics =
      options.metrics.empty() ? default_history_metrics() : options.metrics;
  std::vector<HistoryEntry> runs;
  try {
    if (!std::filesystem::is_regular_file(options.db)) {
      spdlog::error("llmperf history: --results-db {}: no such file", options.db);
      return kExitUsage;
    }
    SqliteDb db(options.db, SqliteDb::Mode::kReadOnly);
    check_history_db(db);
    HistoryFilter filter;
    filter.name = options.name;
    filter.tags = options.tags;
    filter.last = options.last;
    runs = read_history(db, filter, metrics);
  } catch (const SqliteError& error) {
    spdlog::error("llmperf history: --results-db {}", error.what());
    return kExitUsage;
  }
  std::fputs(render_history_table(runs, metrics).c_str(), stdout);
  std::fflush(stdout);
  const std::filesystem::path html =
      options.html_path.empty() ? std::filesystem::path(options.output_dir) / "history.html"
                                : std::filesystem::path(options.html_path);
  try {
    const std::filesystem::path dir = html.parent_path().empty() ? "." : html.parent_path();
    std::filesystem::create_directories(dir);
    write_file_atomic(html.string(), render_history_html(runs, options, dir.string()));
  } catch (const std::exception& error) {
    spdlog::error("llmperf history: cannot write {}: {}", html.string(), error.what());
    return kExitCannotProceed;
  }
  spdlog::info("history of {} run(s) written to {}", runs.size(), html.string());
  return kExitOk;
}

}  // namespace llmperf

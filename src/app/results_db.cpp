// See results_db.h.
#include "app/results_db.h"

#include <unistd.h>

#include <exception>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/history_run.h"
#include "core/clock.h"
#include "store/history_schema.h"
#include "store/history_writer.h"

namespace llmperf {

ResultsDb::ResultsDb(const OutputPlan& output, const std::string& sweep_dir)
    : path_(output.results_db),
      requests_(output.results_db_requests),
      invocation_(history_invocation_id(
          fmt::format("run:{}:{}:{}", sweep_dir, unix_now_ns(), static_cast<long>(getpid())))) {}

bool ResultsDb::append(const ReportOptions& options, const RunResult& run) const {
  try {
    const SummaryFile file = written_summary_file(options, run.info, run.summary);
    HistoryRunOrigin origin;
    origin.source = "run";
    origin.invocation = invocation_;
    origin.directory = run.info.output_dir;
    if (requests_) {
      origin.requests_jsonl =
          (std::filesystem::path(run.info.output_dir) / "requests.jsonl").string();
    }
    const HistoryRun history = history_run(file, origin, run.baseline ? &*run.baseline : nullptr);
    SqliteDb db(path_);
    migrate_history_db(db);
    append_history_run(db, history, ExistingRun::kReplace);
    spdlog::info("run {} stored in {}", history.run_id, path_);
    return true;
  } catch (const std::exception& error) {
    std::string reason = error.what();  // SQLite's reason, without the path said already
    if (reason.starts_with(path_ + ": ")) reason.erase(0, path_.size() + 2);
    spdlog::error("cannot store the run in {}: {} (its files are written in {})", path_, reason,
                  run.info.output_dir);
    return false;
  }
}

}  // namespace llmperf

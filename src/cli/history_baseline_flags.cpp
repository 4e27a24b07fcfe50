// --baseline db:FILE's checks before any request: the file exists and is a history database this
// llmperf can read (else a usage error naming it: exit 2 before the benchmark runs), and
// --baseline-runs / --noise-k are sensible (verdict/history_baseline.h has the rules).
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/flags.h"
#include "store/history_reader.h"
#include "verdict/history_baseline.h"

namespace llmperf {

void validate_history_baseline(const Config& c, std::vector<std::string>& errors) {
  if (c.verdicts.baseline_runs < kMinHistoryRuns) {
    errors.push_back(fmt::format("--baseline-runs must be >= {} (the fewest runs judged), got {}",
                                 kMinHistoryRuns, c.verdicts.baseline_runs));
  }
  if (!(c.verdicts.noise_k > 0) || !std::isfinite(c.verdicts.noise_k)) {
    errors.push_back(fmt::format("--noise-k must be > 0, got {}", c.verdicts.noise_k));
  }
  if (c.verdicts.baseline_path.empty()) return;
  BaselineSource source;
  try {
    source = parse_baseline_source(c.verdicts.baseline_path);
  } catch (const std::invalid_argument& error) {
    errors.push_back(error.what());
    return;
  }
  if (!source.history) return;
  if (c.load.num_runs > 1) {
    errors.push_back("--baseline db: does not judge --num-runs repeats yet: give one or the other");
  }
  std::error_code ec;
  // The first run of a CI job that keeps its history in the same file: nothing to judge yet.
  const bool written_here =
      !c.output.results_db.empty() && std::filesystem::weakly_canonical(c.output.results_db, ec) ==
                                          std::filesystem::weakly_canonical(source.path, ec);
  if (written_here && !std::filesystem::exists(source.path, ec)) return;
  if (!std::filesystem::is_regular_file(source.path, ec)) {
    errors.push_back(fmt::format(
        "--baseline db:{}: no such file (a history database: --results-db writes one, `llmperf "
        "history import` makes one from run directories)",
        source.path));
    return;
  }
  try {
    SqliteDb db(source.path, SqliteDb::Mode::kReadOnly);
    check_history_db(db);
  } catch (const SqliteError& error) {
    errors.push_back(fmt::format("--baseline db:{}: {}", source.path, error.what()));
  }
}

}  // namespace llmperf

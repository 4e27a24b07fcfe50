// See history_import.h.
#include "store/history_import.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "store/history_schema.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

uint64_t history_fnv1a(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a: the same id on every machine and build
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// The benchmark directory of a run directory: its parent, or its grandparent for a repeat_K.
fs::path history_benchmark_dir(const fs::path& run_dir) {
  const fs::path dir = fs::absolute(run_dir).lexically_normal();
  const fs::path run = dir.filename().empty() ? dir.parent_path() : dir;
  if (run.filename().string().starts_with("repeat_")) return run.parent_path().parent_path();
  return run.parent_path();
}

const char* history_verb(HistoryAppend appended, const std::string& source) {
  switch (appended) {
    case HistoryAppend::kInserted:
      return source == "import" ? "imported" : "stored";
    case HistoryAppend::kReplaced:
      return "replaced";
    case HistoryAppend::kSkipped:
      break;
  }
  return "skipped";
}

}  // namespace

std::string history_invocation_id(std::string_view seed) {
  return fmt::format("{:016x}", history_fnv1a(seed));
}

std::vector<std::string> find_history_run_dirs(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error(fmt::format("{} is not a directory", dir));
  std::vector<std::string> runs;
  if (fs::exists(fs::path(dir) / "summary.json")) runs.push_back(dir);
  std::error_code ec;
  for (auto it =
           fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && fs::exists(it->path() / "summary.json")) {
      runs.push_back(it->path().string());
    }
  }
  if (ec) throw std::runtime_error(fmt::format("cannot list {}: {}", dir, ec.message()));
  std::sort(runs.begin(), runs.end());
  return runs;
}

HistoryStoreOutcome store_run_dirs(const HistoryStoreOptions& options,
                                   const HistoryRunReader& read_run) {
  HistoryStoreOutcome outcome;
  std::optional<SqliteDb> db;
  try {
    db.emplace(options.db);
    migrate_history_db(*db);
  } catch (const std::exception& error) {
    outcome.errors.push_back(fmt::format("cannot open the history database: {}", error.what()));
    return outcome;
  }
  for (const std::string& dir : options.dirs) {
    std::vector<std::string> runs;
    try {
      runs = find_history_run_dirs(dir);
      if (runs.empty()) throw std::runtime_error("no run in it (no summary.json at any depth)");
    } catch (const std::exception& error) {
      outcome.errors.push_back(fmt::format("{}: {}", dir, error.what()));
      continue;
    }
    for (const std::string& run_dir : runs) {
      try {
        HistoryRunOrigin origin;
        origin.source = options.source;
        origin.invocation = history_invocation_id(
            fmt::format("{}:{}", options.source, history_benchmark_dir(run_dir).string()));
        origin.directory = run_dir;
        const fs::path requests = fs::path(run_dir) / "requests.jsonl";
        if (options.requests && fs::exists(requests)) origin.requests_jsonl = requests.string();
        const HistoryRunRead read = read_run(run_dir, origin);
        if (!read.run) {
          outcome.lines.push_back(fmt::format("skipped {}: {}", run_dir, read.skipped));
          continue;
        }
        const HistoryRun& run = *read.run;
        const HistoryAppend appended = append_history_run(*db, run, options.existing);
        if (appended == HistoryAppend::kSkipped) {
          ++outcome.skipped;
          outcome.lines.push_back(
              fmt::format("skipped {}: run {} is already in {}", run_dir, run.run_id, options.db));
        } else {
          ++outcome.stored;
          outcome.lines.push_back(fmt::format(
              "{} {} as run {}", history_verb(appended, options.source), run_dir, run.run_id));
        }
      } catch (const std::exception& error) {
        outcome.errors.push_back(fmt::format("{}: {}", run_dir, error.what()));
      }
    }
  }
  return outcome;
}

}  // namespace llmperf

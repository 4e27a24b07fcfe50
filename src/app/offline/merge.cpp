// `llmperf merge DIR...`: one run (or sweep) directory from the directories of a sharded
// benchmark's shards. The records of every shard are put on one timeline (each shard's times are
// shifted by the difference of its wall-clock anchor from the earliest), written as one
// requests.jsonl, and every other file is rebuilt from it, as `llmperf report` does: the merged
// percentiles are computed from the union of the records, never averaged.
#include "app/offline/merge.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "app/offline/rebuild.h"
#include "core/files.h"
#include "report/report.h"
#include "report/summary_file.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

bool holds_run(const fs::path& dir) {
  return fs::exists(dir / "summary.json") && fs::exists(dir / "requests.jsonl");
}

// One shard's directory: its runs by name ("" for a single run directory) and its shard fields.
struct ShardDir {
  fs::path dir;
  std::map<std::string, fs::path> runs;
  int index = -1;
  int count = 0;
  std::string run_id;
  int64_t first_anchor_unix_ns = 0;  // when its first run started (summary.json run.anchor_unix_ns)
};

ShardDir read_shard_dir(const fs::path& dir) {
  ShardDir shard{dir, {}, -1, 0, "", 0};
  if (holds_run(dir)) {
    shard.runs[""] = dir;
  } else if (fs::is_directory(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_directory() && holds_run(entry.path())) {
        shard.runs[entry.path().filename().string()] = entry.path();
      }
    }
  }
  if (shard.runs.empty()) {
    throw std::runtime_error(
        fmt::format("{} holds no run: give the directories the shards wrote (summary.json and "
                    "requests.jsonl in them or in their run subdirectories)",
                    dir.string()));
  }
  const SummaryFile summary =
      read_summary_file((shard.runs.begin()->second / "summary.json").string());
  shard.first_anchor_unix_ns = summary.run.anchor_unix_ns;
  if (summary.shard.count > 1 && !summary.shard.merged) {
    shard.index = summary.shard.index;
    shard.count = summary.shard.count;
    shard.run_id = summary.shard.run_id;
  }
  return shard;
}

// Checks that the directories are every shard of one benchmark, once each.
void check_shards(const std::vector<ShardDir>& shards, bool force) {
  std::vector<std::string> problems;
  for (const ShardDir& s : shards) {
    if (s.count < 1)
      problems.push_back(
          fmt::format("{} is not a shard (no \"shard\" in its "
                      "summary.json: run with --shard I/N)",
                      s.dir.string()));
  }
  if (problems.empty()) {
    const ShardDir& first = shards.front();
    std::map<int, std::vector<std::string>> by_index;
    for (const ShardDir& s : shards) {
      if (s.run_id != first.run_id || s.count != first.count) {
        problems.push_back(fmt::format(
            "{} is shard {}/{} of benchmark {}, but {} is of benchmark {} ({} shards): different "
            "configs or --start-at",
            s.dir.string(), s.index, s.count, s.run_id, first.dir.string(), first.run_id,
            first.count));
      }
      by_index[s.index].push_back(s.dir.string());
    }
    for (const auto& [index, dirs] : by_index) {
      if (dirs.size() > 1) {
        problems.push_back(fmt::format("shard {} is given {} times: {}", index, dirs.size(),
                                       fmt::join(dirs, ", ")));
      }
    }
    std::vector<int> missing;
    for (int i = 0; i < first.count; ++i) {
      if (by_index.count(i) == 0) missing.push_back(i);
    }
    if (!missing.empty()) {
      problems.push_back(
          fmt::format("shard(s) {} of {} missing", fmt::join(missing, ", "), first.count));
    }
  }
  if (problems.empty()) return;
  if (!force) {
    throw std::runtime_error(
        fmt::format("cannot merge: {} (--force merges anyway)", fmt::join(problems, "; ")));
  }
  for (const std::string& problem : problems) {
    std::fprintf(stderr, "llmperf merge: warning: %s (merged anyway: --force)\n", problem.c_str());
  }
}

void shift(int64_t& t, int64_t by) {
  if (t >= 0) t += by;
}

// Writes the merged run `name` into `out` from each shard's run directory of that name.
void merge_run(const std::vector<fs::path>& runs, const fs::path& out, const ShardDir& first) {
  std::vector<SummaryFile> parts;
  for (const fs::path& run : runs) {
    parts.push_back(read_summary_file((run / "summary.json").string()));
  }
  int64_t anchor = std::numeric_limits<int64_t>::max();
  for (const SummaryFile& part : parts) anchor = std::min(anchor, part.run.anchor_unix_ns);

  std::vector<RequestRecord> records;
  double duration_s = 0;
  int parallel = 0;
  int64_t number = 0;
  bool interrupted = false;
  std::vector<int64_t> starts;
  for (size_t i = 0; i < runs.size(); ++i) {
    const SummaryRun& r = parts[i].run;
    const int64_t by = r.anchor_unix_ns - anchor;
    parallel += r.parallel;
    number += r.number;
    interrupted = interrupted || r.interrupted;
    duration_s = std::max(duration_s, static_cast<double>(by) / 1e9 + r.duration_s.value_or(0));
    starts.push_back(r.anchor_unix_ns);
    read_records_file((runs[i] / "requests.jsonl").string(), [&](RecordsLine& line) {
      RequestRecord& record = line.record;
      for (int64_t* t :
           {&record.planned_ns, &record.sent_ns, &record.first_byte_ns, &record.first_content_ns,
            &record.first_answer_ns, &record.last_event_ns, &record.end_ns}) {
        shift(*t, by);
      }
      for (int64_t& t : record.chunk_ns) t += by;
      records.push_back(std::move(record));
    });
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const RequestRecord& a, const RequestRecord& b) { return a.id < b.id; });
  std::set<uint64_t> ids;
  for (const RequestRecord& record : records) {
    if (!ids.insert(record.id).second) {
      throw std::runtime_error(fmt::format(
          "request id {} is in more than one shard of {}: the shards did not split one benchmark",
          record.id, out.filename().string()));
    }
  }

  fs::create_directories(out);
  RunInfo info;
  info.anchor_steady_ns = 0;  // record times now count from the merged anchor
  info.anchor_unix_ns = anchor;
  std::string jsonl;
  for (const RequestRecord& record : records) jsonl += record_to_json(record, info) + "\n";
  write_file_atomic((out / "requests.jsonl").string(), jsonl);

  SummaryFile summary = std::move(parts.front());
  SummaryRun& r = summary.run;
  r.parallel = parallel;
  r.number = number;
  r.duration_s = duration_s;
  r.interrupted = interrupted;
  r.anchor_unix_ns = anchor;
  r.monotonic_anchor_ns = 0;
  r.output_dir = out.string();
  summary.shard = RunInfo::Shard{};
  summary.shard.count = first.count;
  summary.shard.run_id = first.run_id;
  summary.shard.merged = true;
  summary.shard.starts_unix_ns = starts;
  // Each shard watched the server on its own; their /metrics views do not add up.
  summary.server = nullptr;
  write_file_atomic((out / "summary.json").string(), summary_file_text(summary));
}

// "qwen_shard_1_of_3" -> "qwen".
std::string without_shard_suffix(const std::string& name) {
  const size_t at = name.rfind("_shard_");
  return at == std::string::npos ? name : name.substr(0, at);
}

}  // namespace

std::string merge_shards(const MergeOptions& options, std::string* merged_dir) {
  if (options.dirs.empty()) throw std::runtime_error("give the shards' directories");
  std::vector<ShardDir> shards;
  for (const std::string& dir : options.dirs) shards.push_back(read_shard_dir(dir));
  check_shards(shards, options.force);
  std::sort(shards.begin(), shards.end(),
            [](const ShardDir& a, const ShardDir& b) { return a.index < b.index; });
  const ShardDir& first = shards.front();
  const bool single = first.runs.count("") > 0;
  const fs::path base =
      fs::path(options.outputs_dir) /
      without_shard_suffix(fs::path(first.dir).lexically_normal().filename().string());
  for (const auto& run : first.runs) {
    const std::string& name = run.first;
    std::vector<fs::path> runs;
    for (const ShardDir& s : shards) {
      const auto found = s.runs.find(name);
      if (found == s.runs.end()) {
        if (!options.force) {
          throw std::runtime_error(
              fmt::format("{} has no run {} (--force merges the others)", s.dir.string(), name));
        }
        continue;
      }
      runs.push_back(found->second);
    }
    merge_run(runs, single ? base : base / name, first);
  }
  if (merged_dir != nullptr) *merged_dir = base.string();
  RebuildOptions rebuild;
  rebuild.dir = base.string();
  std::string text = rebuild_reports(rebuild);
  int64_t first_start = 0;
  int64_t last_start = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    const int64_t start = shards[i].first_anchor_unix_ns;
    first_start = i == 0 ? start : std::min(first_start, start);
    last_start = i == 0 ? start : std::max(last_start, start);
  }
  return text + fmt::format(
                    "\nMerged {} shards of benchmark {} into {}; their first runs started within "
                    "{:.3f} ms of each other\n",
                    shards.size(), first.run_id, base.string(),
                    static_cast<double>(last_start - first_start) / 1e6);
}

}  // namespace llmperf

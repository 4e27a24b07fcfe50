// `llmperf report DIR`: rebuilds every summary and chart of a run directory, or of each run of a
// sweep directory plus the sweep files, from requests.jsonl (record_from_json, then the metrics
// stage's SummaryBuilder, and its summarize_recorded_scrapes for the server's side) without
// sending a request; report writes the files and store benchmark_data.db. The run's identity,
// report options and config block come from its summary.json (read_summary_file); the config block
// is written back as it was (secrets there are already masked and stay masked). A study's directory
// (study.json and study.jsonl, written by `llmperf tune`) gets its study files rebuilt from those
// two instead; a staged study's (study.json alone, listing --stage), each stage's study and then
// the path through the stages.
#include "app/offline/rebuild.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "metrics/metrics.h"
#include "metrics/recorded_scrapes.h"
#include "report/report.h"
#include "report/server/server_readback.h"
#include "report/study/stage_path.h"
#include "report/study/study_files.h"
#include "report/summary_file.h"
#include "store/evalscope_db.h"
#include "study/stages.h"
#include "study/study_file.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

struct RebuiltRun {
  SweepRow row;
  std::string text;  // the text summary
};

RebuiltRun rebuild_run(const fs::path& dir, const RebuildOptions& options) {
  SummaryFile saved = read_summary_file((dir / "summary.json").string());
  // --percentiles: the config block records the percentiles the summaries now give.
  if (!options.percentiles.empty() && saved.config.is_object()) {
    saved.config["percentiles"] = options.percentiles;
  }
  ReportOptions report = report_options(saved);
  if (!options.percentiles.empty()) report.percentiles = options.percentiles;
  if (!options.summary_format.empty()) report.summary_format = options.summary_format;
  RunInfo info = run_info_from_summary(saved, dir.string());

  MetricsOptions metrics;
  metrics.percentiles = report.percentiles;
  metrics.open_loop = info.rate >= 0;
  metrics.rate_segments = info.ramp.on() ? kRampSegments : 0;
  metrics.output_forced = report.output_forced;
  metrics.url_count = report.urls.size();
  read_json_field(saved.config, "include_cancelled", metrics.include_cancelled);
  SummaryBuilder builder(metrics);  // record times are relative to the run's anchor: origin 0
  ClientTotals client_totals;
  VllmArrays vllm(0, report.secrets);
  EvalScopeDb evalscope(dir.string(), report.secrets);
  bool anchored = false;
  read_records_file((dir / "requests.jsonl").string(), [&](RecordsLine& line) {
    builder.add(line.record);
    client_totals.add(line.record);
    vllm.add(line.record);
    evalscope.add(line.record, line.anchor_unix_ns.value_or(info.anchor_unix_ns));
    // The records count from the anchor (0); the first that can, gives its wall-clock reading.
    if (!anchored && line.anchor_unix_ns) {
      info.anchor_unix_ns = *line.anchor_unix_ns;
      anchored = true;
    }
  });

  // requests.jsonl is the source and stays as it is; every other file is rewritten.
  RunTrace trace;
  RebuiltRun out{SweepRow{info, builder.finish(&trace)}, ""};
  // The old "server" block as this always read it (keys sorted: identity details come back so).
  const nlohmann::json old_server(saved.server);
  out.row.info.server = identity_from_json(old_server);
  const std::optional<std::vector<RecordedScrape>> scrapes =
      read_recorded_scrapes((dir / "server_metrics.jsonl").string());
  ServerSummary& server = out.row.summary.server;
  server = scrapes ? summarize_recorded_scrapes(*scrapes, client_totals, report.metrics_interval_s)
                   : ServerSummary{};
  restore_server_context(server, old_server, scrapes.has_value());
  write_run_outputs(report, out.row.info, out.row.summary, trace, vllm);
  evalscope.commit();
  out.text = render_text_summary(report, out.row.info, out.row.summary) +
             render_server_text(out.row.info, out.row.summary);
  return out;
}

bool is_run_dir(const fs::path& dir) {
  return fs::exists(dir / "summary.json") && fs::exists(dir / "requests.jsonl");
}

// A study: its files from study.json and the ledger, the ledger's bad lines said first.
std::string rebuild_study(const fs::path& dir) {
  const StudyDir study = read_study_dir(dir.string());
  std::string text;
  for (const std::string& problem : study.ledger.problems) {
    text += fmt::format("warning: {}: line skipped\n", problem);
  }
  return text + write_study_outputs(dir.string(), study.info, study.ledger.trials);
}

// A staged study (llmperf tune --stage): each stage's study rebuilt, then the path through them.
std::string rebuild_staged_study(const fs::path& dir, const StudyInfo& info) {
  // The path follows the stages' ledgers, which rebuilding their files leaves as they are.
  const std::vector<StageOutcome> path = read_stage_path(dir.string(), info.spec);
  std::string text;
  for (const StageOutcome& stage : path) {
    text += fmt::format("== {}\n", stage.dir) + rebuild_study(dir / stage.dir) + "\n";
  }
  return text + write_stage_path_outputs(dir.string(), info, path);
}

bool is_staged_study_dir(const fs::path& dir) {
  return fs::exists(dir / kStudyFileName) && !fs::exists(dir / kLedgerFileName);
}

}  // namespace

std::string rebuild_reports(const RebuildOptions& options) {
  const fs::path dir(options.dir);
  if (!fs::is_directory(dir)) {
    throw std::runtime_error(fmt::format("{} is not a directory", options.dir));
  }
  if (is_study_dir(dir.string())) return rebuild_study(dir);
  if (is_staged_study_dir(dir)) {
    const StudyInfo info = read_study_info(dir.string());
    if (!info.spec.stages.empty()) return rebuild_staged_study(dir, info);
  }
  if (is_run_dir(dir)) return rebuild_run(dir, options).text;

  std::vector<fs::path> runs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && is_run_dir(entry.path())) runs.push_back(entry.path());
    // --num-runs: a run's repeats are run directories one level further down (repeat_<k>).
    if (entry.is_directory() && !is_run_dir(entry.path())) {
      for (const auto& repeat : fs::directory_iterator(entry.path())) {
        if (repeat.is_directory() && repeat.path().filename().string().starts_with("repeat_") &&
            is_run_dir(repeat.path())) {
          runs.push_back(repeat.path());
        }
      }
    }
  }
  if (runs.empty()) {
    throw std::runtime_error(
        fmt::format("{} holds no run: expected summary.json and requests.jsonl in it or in its "
                    "parallel_<p>_number_<n> subdirectories",
                    options.dir));
  }
  std::vector<RebuiltRun> rebuilt;
  for (const auto& run : runs) rebuilt.push_back(rebuild_run(run, options));
  std::stable_sort(rebuilt.begin(), rebuilt.end(), [](const RebuiltRun& a, const RebuiltRun& b) {
    const RunInfo& x = a.row.info;
    const RunInfo& y = b.row.info;
    return std::tie(x.rate, x.parallel, x.number) < std::tie(y.rate, y.parallel, y.number);
  });
  std::string text;
  std::vector<SweepRow> rows;
  for (auto& run : rebuilt) {
    text += run.text + "\n";
    rows.push_back(std::move(run.row));
  }
  if (rows.size() > 1) text += render_sweep_text(rows);
  write_sweep_outputs(dir.string(), rows);
  return text;
}

}  // namespace llmperf

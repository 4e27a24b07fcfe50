// How runs were controlled (see report/run_control.h): the text of a stopped run and of a
// repeated run, and the summary.json of a repeated run (kept in one file with the text).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "report/internal.h"
#include "report/run_control.h"
#include "report/summary_file.h"

namespace llmperf {
namespace {

// `value` to 6 significant digits, as a JSON number.
double repeats_rounded(double value) { return std::stod(fmt::format("{:.6g}", value)); }

}  // namespace

std::string repeats_json(const std::vector<RepeatedMetric>& metrics) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const RepeatedMetric& m : metrics) {
    out[m.key] = {{"n", m.interval.n},
                  {"mean", repeats_rounded(m.interval.mean)},
                  {"ci95_low", repeats_rounded(m.interval.ci95_low)},
                  {"ci95_high", repeats_rounded(m.interval.ci95_high)},
                  {"cv", repeats_rounded(m.interval.cv)},
                  {"noisy", m.noisy()},
                  {"values", m.values}};
  }
  return out.dump();
}

void write_repeats_summary(const ReportOptions& options, const std::string& dir,
                           const SweepRow& last, const std::vector<RepeatedMetric>& metrics) {
  RunInfo info = last.info;
  info.output_dir = dir;
  SummaryFile file = report_detail::summary_file(options, info, last.summary);
  file.repeats = nlohmann::ordered_json::parse(repeats_json(metrics));
  write_file_atomic((std::filesystem::path(dir) / "summary.json").string(),
                    summary_file_text(file));
}

namespace {

// "812.3 ± 4.1 (0.5%)": the mean, half the 95 % interval and the CV; " noisy" above 5 %.
std::string repeats_cell(const RepeatedMetric& m) {
  const MeanInterval& i = m.interval;
  return fmt::format("{:.4g} ± {:.2g} ({:.1f}%){}", i.mean, (i.ci95_high - i.ci95_low) / 2,
                     i.cv * 100, m.noisy() ? " noisy" : "");
}

// The key metrics' labels in the order the runs have them, each once.
std::vector<std::pair<std::string, std::string>> repeats_rows(const std::vector<RepeatedRun>& runs) {
  std::vector<std::pair<std::string, std::string>> rows;  // key, label
  for (const RepeatedRun& run : runs) {
    for (const RepeatedMetric& m : run.metrics) {
      const bool known = std::any_of(rows.begin(), rows.end(),
                                     [&](const auto& row) { return row.first == m.key; });
      if (!known) rows.emplace_back(m.key, m.label);
    }
  }
  return rows;
}

std::vector<std::vector<std::string>> repeats_table(const std::vector<RepeatedRun>& runs,
                                                    std::vector<std::string>& headers) {
  headers = {"Metric"};
  for (const RepeatedRun& run : runs) headers.push_back(run.name);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> count_row = {"repeats"};
  for (const RepeatedRun& run : runs) count_row.push_back(std::to_string(run.count));
  cells.push_back(std::move(count_row));
  for (const auto& [key_name, label] : repeats_rows(runs)) {
    const std::string& key = key_name;  // a lambda may not capture a structured binding (clang 14)
    std::vector<std::string> row = {label};
    for (const RepeatedRun& run : runs) {
      const auto it = std::find_if(run.metrics.begin(), run.metrics.end(),
                                   [&](const RepeatedMetric& m) { return m.key == key; });
      row.push_back(it == run.metrics.end() ? "-" : repeats_cell(*it));
    }
    cells.push_back(std::move(row));
  }
  return cells;
}

constexpr const char* kRepeatsSweepTitle =
    "Sweep over repeated runs: mean ± half the 95 % interval (Student t), CV in brackets";

}  // namespace

std::string render_repeats_sweep_text(const std::vector<RepeatedRun>& runs) {
  std::vector<std::string> headers;
  const auto cells = repeats_table(runs, headers);
  return fmt::format("\n{}\n", kRepeatsSweepTitle) + report_detail::render_table(headers, cells);
}

void write_repeats_sweep_outputs(const std::string& dir, const std::vector<RepeatedRun>& runs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string csv = "run,metric,n,mean,ci95_low,ci95_high,cv,noisy\n";
  for (const RepeatedRun& run : runs) {
    list.push_back({{"run", run.name},
                    {"output_dir", run.output_dir},
                    {"repeats", run.count},
                    {"metrics", nlohmann::ordered_json::parse(repeats_json(run.metrics))}});
    for (const RepeatedMetric& m : run.metrics) {
      const MeanInterval& i = m.interval;
      csv += fmt::format("{},{},{},{},{},{},{},{}\n", run.name, m.key, i.n, repeats_rounded(i.mean),
                         repeats_rounded(i.ci95_low), repeats_rounded(i.ci95_high),
                         repeats_rounded(i.cv), m.noisy() ? "true" : "false");
    }
  }
  std::vector<std::string> headers;
  const auto cells = repeats_table(runs, headers);
  std::string md = fmt::format("{}\n\n|", kRepeatsSweepTitle);
  for (const std::string& header : headers) md += " " + header + " |";
  md += "\n|";
  for (size_t c = 0; c < headers.size(); ++c) md += c == 0 ? " --- |" : " ---: |";
  md += "\n";
  for (const auto& row : cells) {
    md += "|";
    for (const std::string& cell : row) md += " " + cell + " |";
    md += "\n";
  }
  const std::filesystem::path base(dir);
  write_file_atomic((base / "sweep_repeats.json").string(), list.dump(2) + "\n");
  write_file_atomic((base / "sweep_repeats.csv").string(), csv);
  write_file_atomic((base / "sweep_repeats.md").string(), md);
}

std::string render_stopped_early_text(const RunInfo& info) {
  if (!info.stopped_early) return "";
  const EarlyStopDecision& stop = *info.stopped_early;
  return fmt::format(
      "\nStopped early ({}) after {} measured requests: {}. Requests still in flight were "
      "given the grace period of an interrupt (3 s), then cancelled; the figures above cover what "
      "finished.\n",
      stop.reason, stop.after_requests, stop.detail);
}

std::string render_repeats_text(const std::string& title, size_t repeats,
                                const std::vector<RepeatedMetric>& metrics) {
  std::string out = fmt::format(
      "\nRepeats of {}: {} runs, mean and 95 % confidence interval (Student t), CV = std/mean\n\n",
      title, repeats);
  out += fmt::format("{:<27} {:>12} {:>25} {:>8}\n", "metric", "mean", "95 % interval", "CV");
  for (const RepeatedMetric& m : metrics) {
    const MeanInterval& i = m.interval;
    out += fmt::format("{:<27} {:>12.4g} {:>25} {:>7.1f}%{}\n", m.label, i.mean,
                       fmt::format("[{:.4g}, {:.4g}]", i.ci95_low, i.ci95_high), i.cv * 100,
                       m.noisy() ? "  noisy" : "");
  }
  return out;
}

}  // namespace llmperf

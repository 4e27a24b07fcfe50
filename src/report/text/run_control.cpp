// How runs were controlled (see report/run_control.h): the text of a stopped run and of a
// repeated run, and the summary.json of a repeated run (kept in one file with the text).
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

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

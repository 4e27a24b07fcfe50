// `llmperf history`'s trend table and history.html (history_page.h). The charts are the reports'
// own svg::ChartSpecs (report/html/svg_chart.h), the page report.html's html_page().
#include "report/history/history_page.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "metrics/catalogue.h"
#include "report/html/svg_chart.h"
#include "report/internal.h"
#include "report/views.h"
#include "verdict/slo.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
constexpr double kHistoryNaN = std::numeric_limits<double>::quiet_NaN();

std::string history_tags_text(const HistoryEntry& run) {
  std::string text;
  for (const auto& [k, v] : run.tags) text += (text.empty() ? "" : ",") + k + "=" + v;
  return text.empty() ? "-" : text;
}

// The unit of `metric` across the runs (the first run that has it).
std::string history_unit(const std::vector<HistoryEntry>& runs, const std::string& metric) {
  for (const HistoryEntry& run : runs) {
    const auto it = run.figures.find(metric);
    if (it != run.figures.end()) return it->second.unit;
  }
  return "";
}

std::optional<double> history_value(const HistoryEntry& run, const std::string& metric) {
  const auto it = run.figures.find(metric);
  if (it == run.figures.end() || !it->second.value) return std::nullopt;
  return it->second.value;
}

// Seconds per unit of time, 0 for a unit that is not a time.
double history_seconds_per(const std::string& unit) {
  if (unit == "s") return 1;
  if (unit == "ms") return 1e-3;
  if (unit == "us") return 1e-6;
  return 0;
}

// The link of a run's point: its report.html, else its directory, relative to the page; "" when
// the directory is not there (a moved run, or a path that is not one).
std::string history_link(const HistoryEntry& run, const std::string& html_dir) {
  if (run.directory.empty()) return "";
  std::error_code ec;
  if (!fs::is_directory(run.directory, ec)) return "";
  fs::path target = fs::path(run.directory) / "report.html";
  if (!fs::is_regular_file(target, ec)) target = fs::path(run.directory);
  const fs::path absolute = fs::absolute(target, ec);
  const fs::path relative = fs::relative(absolute, fs::absolute(html_dir, ec), ec);
  return ec || relative.empty() ? absolute.string() : relative.string();
}

svg::Series history_series(std::string name) {
  svg::Series series;
  series.name = std::move(name);
  return series;
}

svg::ChartSpec history_chart(const std::vector<HistoryEntry>& runs, const std::string& metric,
                             const HistoryCommandOptions& options, const std::string& html_dir) {
  const std::string unit = history_unit(runs, metric);
  svg::ChartSpec chart;
  chart.title = metric;
  chart.x_label = "Run (oldest first)";
  chart.y_label = unit.empty() ? metric : fmt::format("{} ({})", metric, unit);
  chart.y_from_zero = false;
  chart.empty_text = "No run has this metric";
  svg::Series values = history_series("run");
  values.kind = svg::SeriesKind::kPoints;
  svg::Series median = history_series("rolling median");
  median.gaps = true;
  svg::Series upper = history_series(fmt::format("noise band (± {:g} × MAD)", options.band.k));
  upper.gaps = true;
  upper.dash = "4 3";
  svg::Series lower = history_series("");
  lower.gaps = true;
  lower.dash = "4 3";
  lower.color_index = 2;  // the band's two lines in one colour
  upper.color_index = 2;
  svg::Series slo = history_series("SLO limit");
  slo.kind = svg::SeriesKind::kStep;
  slo.gaps = true;
  slo.dash = "7 3";
  std::vector<HistoryValue> before;  // the runs before this one that have the metric
  bool any_slo = false;
  for (size_t i = 0; i < runs.size(); ++i) {
    const HistoryEntry& run = runs[i];
    const double x = static_cast<double>(i);
    chart.x_ticks.push_back(x);
    chart.x_tick_labels.push_back(run.started_at.substr(0, 16));
    const std::optional<double> value = history_value(run, metric);
    values.x.push_back(x);
    values.y.push_back(value.value_or(kHistoryNaN));
    values.links.push_back(history_link(run, html_dir));
    values.tips.push_back(fmt::format("{} · {} · {} · {} {}", run.run_id, run.started_at,
                                      run.run_label, value ? fmt::format("{:.4g}", *value) : "-",
                                      unit));
    const HistoryJudgement band = judge_against_history(metric, unit, before, value, options.band,
                                                        history_absolute_floor(metric));
    const bool judged = band.runs >= static_cast<size_t>(kMinHistoryRuns);
    for (svg::Series* s : {&median, &upper, &lower}) s->x.push_back(x);
    median.y.push_back(judged ? band.median : kHistoryNaN);
    upper.y.push_back(judged ? band.median + band.half_width : kHistoryNaN);
    lower.y.push_back(judged ? band.median - band.half_width : kHistoryNaN);
    const std::optional<double> limit = history_slo_limit(run.config, metric, unit);
    slo.x.push_back(x);
    slo.y.push_back(limit.value_or(kHistoryNaN));
    any_slo = any_slo || limit.has_value();
    if (value) before.push_back({run.run_id, run.started_at, *value});
  }
  chart.series.push_back(std::move(values));
  chart.series.push_back(std::move(median));
  chart.series.push_back(std::move(upper));
  chart.series.push_back(std::move(lower));
  if (any_slo) chart.series.push_back(std::move(slo));
  return chart;
}

// The runs as an HTML table: time, run id (linked), name, run, tags, then the metrics.
std::string history_runs_table(const std::vector<HistoryEntry>& runs,
                               const std::vector<std::string>& metrics,
                               const std::string& html_dir) {
  std::string out = "<div class=\"rows\"><table><thead><tr><th>Started (UTC)</th><th class=\"l\">"
                    "Run id</th><th class=\"l\">Name</th><th class=\"l\">Run</th><th class=\"l\">"
                    "Tags</th>";
  for (const std::string& metric : metrics) {
    const std::string unit = history_unit(runs, metric);
    out += "<th>" + xml_escape(unit.empty() ? metric : metric + " (" + unit + ")") + "</th>";
  }
  out += "</tr></thead><tbody>";
  for (const HistoryEntry& run : runs) {
    const std::string link = history_link(run, html_dir);
    const std::string id = link.empty() ? xml_escape(run.run_id)
                                        : fmt::format("<a href=\"{}\">{}</a>", xml_escape(link),
                                                      xml_escape(run.run_id));
    out += fmt::format(
        "<tr><th>{}</th><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td>"
        "<td class=\"l\">{}</td>",
        xml_escape(run.started_at), id, xml_escape(run.name), xml_escape(run.run_label),
        xml_escape(history_tags_text(run)));
    for (const std::string& metric : metrics) {
      out += "<td>" + report_detail::format_number(history_value(run, metric)) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

}  // namespace

const std::vector<std::string>& default_history_metrics() {
  static const std::vector<std::string> metrics = {
      figure_name({metric_info(Metric::kTtft).name, "p99"}),
      figure_name({metric_info(Metric::kTpot).name, "p99"}),
      figure_name({metric_info(Metric::kOutputThroughput).name, ""}),
      figure_name({metric_info(Metric::kErrorRate).name, ""})};
  return metrics;
}

std::optional<double> history_slo_limit(const std::string& config_json, const std::string& metric,
                                        const std::string& unit) {
  const nlohmann::json config = nlohmann::json::parse(config_json, nullptr, false);
  if (!config.is_object() || !config.contains("slo") || !config["slo"].is_array()) {
    return std::nullopt;
  }
  for (const nlohmann::json& expression : config["slo"]) {
    if (!expression.is_string()) continue;
    Slo slo;
    try {
      slo = parse_slo(expression.get<std::string>());
    } catch (const std::invalid_argument&) {
      continue;
    }
    if (slo.name() != metric) continue;
    if (slo.unit == unit) return slo.threshold;
    const double from = history_seconds_per(slo.unit);
    const double to = history_seconds_per(unit);
    if (from > 0 && to > 0) return slo.threshold * from / to;
    if (slo.unit == "%" && unit.empty()) return slo.threshold / 100;
  }
  return std::nullopt;
}

std::string render_history_table(const std::vector<HistoryEntry>& runs,
                                 const std::vector<std::string>& metrics) {
  if (runs.empty()) return "No run matches.\n";
  std::vector<std::string> headers = {"Started (UTC)", "Name", "Run", "Tags"};
  for (const std::string& metric : metrics) {
    const std::string unit = history_unit(runs, metric);
    headers.push_back(unit.empty() ? metric : fmt::format("{} ({})", metric, unit));
  }
  std::vector<std::vector<std::string>> rows;
  for (const HistoryEntry& run : runs) {
    std::vector<std::string> row = {run.started_at, run.name.empty() ? "-" : run.name,
                                    run.run_label.empty() ? "-" : run.run_label,
                                    history_tags_text(run)};
    for (const std::string& metric : metrics) {
      row.push_back(report_detail::format_number(history_value(run, metric)));
    }
    rows.push_back(std::move(row));
  }
  return report_detail::render_table(headers, rows, {1, 2, 3});
}

std::string render_history_html(const std::vector<HistoryEntry>& runs,
                                const HistoryCommandOptions& options,
                                const std::string& html_dir) {
  const std::vector<std::string>& metrics =
      options.metrics.empty() ? default_history_metrics() : options.metrics;
  std::string filter;
  if (options.name) filter += fmt::format(", name {}", *options.name);
  for (const auto& [k, v] : options.tags) filter += fmt::format(", {}={}", k, v);
  std::string body = "<h1>Run history</h1>";
  body += fmt::format(
      "<p class=\"meta\">{} · {} run(s){}{}</p>", xml_escape(options.db), runs.size(),
      xml_escape(filter),
      runs.empty() ? ""
                   : xml_escape(fmt::format(" · {} .. {}", runs.front().started_at,
                                            runs.back().started_at)));
  body += fmt::format(
      "<p class=\"note\">Each dot is a run (click it for its report). The rolling median and the "
      "noise band at each run are those <code>--baseline db:</code> would have judged it with: "
      "the median of the previous {} runs ± max({:g} × MAD, {:g} % of the median), MAD scaled "
      "by 1.4826; at least {} runs are needed. The SLO limit is the run's own --slo on the "
      "metric, when it had one.</p>",
      options.band.runs, options.band.k, kMinRelativeBand * 100, kMinHistoryRuns);
  std::vector<svg::ChartSpec> charts;
  for (const std::string& metric : metrics) {
    charts.push_back(history_chart(runs, metric, options, html_dir));
  }
  body += "<h2>Metrics over time</h2>" + report_detail::chart_grid(charts);
  body += "<h2>Runs</h2>" + history_runs_table(runs, metrics, html_dir);
  return report_detail::html_page("llmperf history", body);
}

}  // namespace llmperf

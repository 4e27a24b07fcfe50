// study.html (study_html.h). The charts are svg::ChartSpecs rendered by report.html's own chart
// code; trials sit on the x axis in label order as categories (ChartSpec::x_tick_labels), as in
// the chunked-prefill field report's line charts.
#include "report/study/study_html.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/text.h"
#include "report/html/svg_chart.h"
#include "report/internal.h"
#include "report/study/study_front.h"
#include "report/study/study_view.h"
#include "report/views.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr int kChartHeight = 360;  // px: room for turned trial labels under the plot

struct Stat {
  const char* name;      // the series' legend
  std::string_view key;  // the metric (study_metric)
  const char* dash;      // stroke-dasharray ("" solid)
};

// One chart of metrics (one series each) across the rows in label order.
svg::ChartSpec across_trials(const StudyView& view, const std::string& title,
                             const std::string& y_label, const std::vector<Stat>& stats) {
  svg::ChartSpec chart;
  chart.title = title;
  chart.x_label = "Trial";
  chart.y_label = y_label;
  chart.height = kChartHeight;
  for (size_t i = 0; i < view.rows.size(); ++i) {
    chart.x_ticks.push_back(static_cast<double>(i));
    chart.x_tick_labels.push_back(view.rows[i].label);
  }
  for (const Stat& stat : stats) {
    svg::Series series;
    series.name = stat.name;
    series.dash = stat.dash;
    series.gaps = true;  // a trial without the figure breaks the line
    bool any = false;
    for (size_t i = 0; i < view.rows.size(); ++i) {
      const TrialRecord& row = view.rows[i];
      std::optional<double> value;
      if (stat.key == "objective") {
        value = row.objective;
      } else if (stat.key == "gpu") {
        if (!row.gpu.empty()) {
          double used = 0;
          for (const GpuMemory& gpu : row.gpu) used += static_cast<double>(gpu.used_mib);
          value = used;
        }
      } else {
        value = study_metric_value(row, stat.key);
      }
      series.x.push_back(static_cast<double>(i));
      series.y.push_back(value.value_or(std::numeric_limits<double>::quiet_NaN()));
      any = any || value.has_value();
    }
    if (any) chart.series.push_back(std::move(series));
  }
  chart.empty_text = "No trial has these figures";
  return chart;
}

std::vector<svg::ChartSpec> metric_charts(const StudyView& view) {
  std::vector<svg::ChartSpec> charts;
  charts.push_back(
      across_trials(view, "TTFT across the trials", "TTFT (ms)",
                    {{"P50", study_metric::kTtftP50, ""}, {"P99", study_metric::kTtftP99, "4 3"}}));
  charts.push_back(
      across_trials(view, "ITL across the trials", "ITL (ms)",
                    {{"P50", study_metric::kItlP50, ""}, {"P99", study_metric::kItlP99, "4 3"}}));
  charts.push_back(
      across_trials(view, "TPOT across the trials", "TPOT (ms)",
                    {{"P50", study_metric::kTpotP50, ""}, {"P99", study_metric::kTpotP99, "4 3"}}));
  charts.push_back(across_trials(view, "Throughput across the trials", "Tokens/s",
                                 {{"Output tok/s", study_metric::kOutputThroughput, ""},
                                  {"Total tok/s", study_metric::kTotalThroughput, "4 3"}}));
  charts.push_back(across_trials(view, "The objective across the trials",
                                 objective_heading(view.info), {{"Objective", "objective", ""}}));
  if (view.gpu) {
    charts.push_back(across_trials(view, "GPU memory at its peak", "MiB in use (all GPUs)",
                                   {{"GPU memory", "gpu", ""}}));
  }
  return charts;
}

const ParamSpace* space_of(const StudyView& view, const std::string& name) {
  for (const ParamSpace& space : view.spaces) {
    if (space.name == name) return &space;
  }
  return nullptr;
}

bool as_number(const std::string& text, double& out) {
  const std::string_view trimmed = trim(text);
  if (trimmed.empty()) return false;
  const std::string copy(trimmed);
  char* end = nullptr;
  out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(out);
}

// The objective against parameter `name`: its value on x (a number for int, float and log
// parameters; a category, in the order of the choices, for the others), one point per row with
// an objective, rows that met every --slo apart from those that missed one. Nothing when the rows
// hold fewer than two values of it.
std::optional<svg::ChartSpec> objective_chart(const StudyView& view, const std::string& name) {
  const ParamSpace* space = space_of(view, name);
  std::vector<std::string> values;  // the values the rows hold, each once
  for (const TrialRecord& row : view.rows) {
    const std::string value = study_param_value(row, name);
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  if (values.size() < 2) return std::nullopt;
  bool numeric =
      space != nullptr && (space->kind == ParamKind::kInt || space->kind == ParamKind::kFloat ||
                           space->kind == ParamKind::kLog);
  if (space == nullptr) {  // unknown kind: numbers when every value is one
    double unused = 0;
    numeric = std::all_of(values.begin(), values.end(),
                          [&](const std::string& v) { return as_number(v, unused); });
  }
  std::vector<std::string> categories;  // the x axis's categories, in order
  if (!numeric) {
    if (space != nullptr) categories = grid_values(*space);  // choices in order; flag: on, off
    for (const std::string& value : values) {
      if (std::find(categories.begin(), categories.end(), value) == categories.end()) {
        categories.push_back(value);
      }
    }
  }
  svg::ChartSpec chart;
  chart.title = fmt::format("The objective against {}", name);
  chart.x_label = name;
  chart.y_label = objective_heading(view.info);
  chart.height = kChartHeight;
  chart.y_from_zero = false;
  if (numeric && space != nullptr && space->kind == ParamKind::kLog) {
    chart.x_axis = svg::AxisKind::kLog;
  }
  for (size_t i = 0; i < categories.size(); ++i) {
    chart.x_ticks.push_back(static_cast<double>(i));
    chart.x_tick_labels.push_back(study_param_text(view, name, categories[i]));
  }
  svg::Series met{"Met every --slo", {}, {}, svg::SeriesKind::kPoints, "", {}};
  svg::Series missed{"Missed an --slo", {}, {}, svg::SeriesKind::kPoints, "", {}};
  for (const TrialRecord& row : view.rows) {
    if (!row.objective) continue;
    const std::string value = study_param_value(row, name);
    double x = 0;
    if (numeric) {
      if (!as_number(value, x)) continue;
    } else {
      x = static_cast<double>(std::find(categories.begin(), categories.end(), value) -
                              categories.begin());
    }
    svg::Series& series = row.status == TrialStatus::kSloViolated ? missed : met;
    series.x.push_back(x);
    series.y.push_back(*row.objective);
  }
  if (!met.x.empty()) chart.series.push_back(std::move(met));
  if (!missed.x.empty()) chart.series.push_back(std::move(missed));
  chart.empty_text = "No trial has a value of the objective";
  return chart;
}

// A Pareto chart: every benchmarked row as a point, the front's rows joined and labelled.
svg::ChartSpec pareto_chart(const StudyView& view, const StudyFront& front,
                            const std::string& title, const std::string& x_label,
                            const std::string& y_label = "Output tok/s") {
  svg::ChartSpec chart;
  chart.title = title;
  chart.x_label = x_label;
  chart.y_label = y_label;
  chart.empty_text = "No benchmarked trial has both figures";
  svg::Series all{"Configurations", {}, {}, svg::SeriesKind::kPoints, "", {}};
  svg::Series line{"Pareto front", {}, {}, svg::SeriesKind::kLine, "", {}};
  for (size_t row : front.points) {
    all.x.push_back(*study_metric_value(view.rows[row], front.x_metric));
    all.y.push_back(*study_metric_value(view.rows[row], front.y_metric));
  }
  for (size_t row : front.front) {
    line.x.push_back(*study_metric_value(view.rows[row], front.x_metric));
    line.y.push_back(*study_metric_value(view.rows[row], front.y_metric));
    line.labels.push_back(view.rows[row].label);
  }
  if (!all.x.empty()) chart.series.push_back(std::move(all));
  if (!line.x.empty()) chart.series.push_back(std::move(line));
  return chart;
}

std::string front_labels(const StudyView& view, const StudyFront& front) {
  std::vector<std::string> labels;
  for (size_t row : front.front) labels.push_back(view.rows[row].label);
  return labels.empty() ? std::string("none") : fmt::format("{}", fmt::join(labels, ", "));
}

std::string best_html(const StudyView& view) {
  const StudyInfo& info = view.info;
  const char* direction = info.maximize ? "higher is better" : "lower is better";
  if (!view.best) {
    return fmt::format("<p>None ({}, {}): {}.</p>", xml_escape(info.objective), direction,
                       xml_escape(view.best_note));
  }
  const TrialRecord& best = view.rows[*view.best];
  std::string out = "<div class=\"cards\">";
  out +=
      fmt::format("<div class=\"card\"><b>{}</b><span>trial</span></div>", xml_escape(best.label));
  out += fmt::format("<div class=\"card\"><b>{}</b><span>{} ({})</span></div>",
                     xml_escape(objective_text(info, best.objective)), xml_escape(info.objective),
                     direction);
  if (!best.params.empty()) {
    out += fmt::format("<div class=\"card\"><b>{}</b><span>parameters</span></div>",
                       xml_escape(params_text(view, best)));
  }
  out += "</div>";
  if (!view.best_note.empty()) {
    out += "<p class=\"note\">" + xml_escape(view.best_note) + "</p>";
  }
  if (const std::vector<std::string> ties = ties_lines(view); !ties.empty()) {
    out += "<ul class=\"ties\">";
    for (const std::string& line : ties) out += "<li>" + xml_escape(line) + "</li>";
    out += "</ul>";
  }
  const std::string command = paste_command(best);
  out += command.find("{port}") != std::string::npos
             ? "<p>The server command (<code>{port}</code>: the port to serve on):</p>"
             : "<p>The server command:</p>";
  out += "<pre style=\"white-space:pre-wrap\">" + xml_escape(command) + "</pre>";
  return out;
}

// The rows that did not end ok: label, parameters, status, reason, the log's last lines.
std::string failed_html(const StudyView& view) {
  const auto reasons = study_reasons(view);
  if (reasons.empty()) return "<p>Every configuration ended ok.</p>";
  std::string out =
      "<div class=\"rows\"><table><thead><tr><th>Trial</th><th class=\"l\">Parameters</th>"
      "<th class=\"l\">Status</th><th class=\"l\">Reason</th>"
      "<th class=\"l\">Last lines of the server's log</th></tr></thead><tbody>";
  for (const auto& [index, reason] : reasons) {
    const TrialRecord& row = view.rows[index];
    std::string tail;
    for (const std::string& line : row.log_tail) tail += line + "\n";
    std::string log_cell = tail.empty() ? std::string("-")
                                        : "<pre style=\"white-space:pre-wrap;margin:0\">" +
                                              xml_escape(tail) + "</pre>";
    if (!row.server_log.empty()) {
      log_cell += "<span class=\"note\">" + xml_escape(row.server_log) + "</span>";
    }
    out += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"l\">{}</td><td class=\"l\">{}</td>"
        "<td class=\"l\">{}</td><td class=\"l\">{}</td></tr>",
        xml_escape(row.label), xml_escape(params_text(view, row)),
        xml_escape(trial_status_name(row.status)), xml_escape(row.reason), log_cell);
  }
  return out + "</tbody></table></div>";
}

}  // namespace

std::string render_study_html(const StudyView& view) {
  const StudyInfo& info = view.info;
  const std::string title = fmt::format("llmperf tune: {}", objective_heading(info));
  std::string body = "<h1>" + xml_escape(title) + "</h1>";
  std::vector<std::string> meta;
  if (!info.started.empty()) meta.push_back("started " + info.started);
  if (!info.version.empty()) meta.push_back(info.version);
  meta.push_back(study_headline(view));
  body += "<p class=\"meta\">" + xml_escape(fmt::format("{}", fmt::join(meta, " · "))) + "</p>";
  body += "<p class=\"meta\">" + xml_escape("--serve " + info.spec.serve) + "</p>";
  if (const std::string rungs = rungs_text(view); !rungs.empty()) {
    body += "<p class=\"meta\">" + xml_escape("successive halving: " + rungs) + "</p>";
  }

  if (info.objectives.empty()) {
    body += "<h2>Best configuration</h2>" + best_html(view);
  } else {  // several objectives: their Pareto front is the answer
    body += "<h2>The Pareto front of the objectives</h2>" + front_html(view);
    if (info.objectives.size() == 2) {
      const StudyFront& chart = view.objective_chart;
      body += chart_grid({pareto_chart(
          view, chart, fmt::format("{} against {}", chart.y_metric, chart.x_metric),
          objective_column(info.objectives[1]), objective_column(info.objectives[0]))});
    }
  }
  body += "<h2>Trials</h2><div class=\"rows\">" + html_table(study_table_cells(view)) + "</div>";
  body += "<h2>Metrics across the trials</h2>" + chart_grid(metric_charts(view));

  std::vector<svg::ChartSpec> by_param;
  for (const std::string& name : view.param_names) {
    if (auto chart = objective_chart(view, name)) by_param.push_back(std::move(*chart));
  }
  if (!by_param.empty()) {
    body += "<h2>The objective against each parameter</h2>" + chart_grid(by_param);
  }

  body += "<h2>Pareto fronts</h2>";
  body += chart_grid(
      {pareto_chart(view, view.per_user, "Output tok/s per user against output tok/s",
                    "Output tok/s per user (output tok/s / concurrency)"),
       pareto_chart(view, view.latency, "Output tok/s against TTFT p99", "TTFT p99 (ms)")});
  body += fmt::format(
      "<p class=\"note\">On the front of tokens/s per user against tokens/s (more is better on "
      "both): {}. On the front of output tok/s against TTFT p99 (less TTFT is better): {}. Only "
      "benchmarked trials (ok or slo_violated) are drawn.</p>",
      xml_escape(front_labels(view, view.per_user)), xml_escape(front_labels(view, view.latency)));

  if (view.per_gpu_figures) {
    body += "<h2>Per GPU</h2>";
    body += chart_grid({pareto_chart(view, view.per_gpu,
                                     "Output tok/s per GPU against output tok/s per user",
                                     "Output tok/s per user (output tok/s / concurrency)",
                                     "Output tok/s per GPU")});
    body += fmt::format(
        "<p class=\"note\">On the front of tokens/s per GPU against tokens/s per user (more is "
        "better on both), as InferenceX and vLLM draw it: {}. A configuration on N GPUs must give N "
        "times the tokens/s of one on a single GPU to stand level with it.</p>",
        xml_escape(front_labels(view, view.per_gpu)));
  }

  body += "<h2>Configurations that did not end ok</h2>" + failed_html(view);
  if (const auto lines = suggested_exclude_lines(view); !lines.empty()) {
    body += "<h2>Suggested exclusions</h2><p>These failed every time, for the same reason; give "
            "them to the next study:</p><pre style=\"white-space:pre-wrap\">";
    for (const std::string& line : lines) body += xml_escape(line) + "\n";
    body += "</pre>";
  }
  return html_page(title, body);
}

}  // namespace report_detail

std::string render_study_html(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  return report_detail::render_study_html(report_detail::study_view(info, trials));
}

}  // namespace llmperf

// The Pareto front of several objectives as the study's outputs show it (study_front.h).
#include "report/study/study_front.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html/xml_escape.h"

namespace llmperf::report_detail {
namespace {

const char* direction_text(bool maximize) {
  return maximize ? "higher is better" : "lower is better";
}

}  // namespace

std::string objectives_text(const StudyInfo& info) {
  std::vector<std::string> parts;
  for (const StudyObjective& objective : info.objectives) {
    parts.push_back(objective.unit.empty()
                        ? fmt::format("{} ({})", objective.name, direction_text(objective.maximize))
                        : fmt::format("{} ({}, {})", objective.name, objective.unit,
                                      direction_text(objective.maximize)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string objective_value_text(const StudyObjective& objective, std::optional<double> value) {
  const std::string number = format_number(value);
  return number == "-" || objective.unit.empty() ? number : number + " " + objective.unit;
}

std::string objective_column(const StudyObjective& objective) {
  return objective.unit.empty() ? objective.name
                                : fmt::format("{} ({})", objective.name, objective.unit);
}

std::vector<std::string> front_lines(const StudyView& view) {
  std::vector<std::string> lines;
  for (const size_t row : view.front) {
    const TrialRecord& record = view.rows[row];
    const std::vector<std::optional<double>> values =
        objective_values(record, view.info.objectives);
    std::vector<std::string> parts;
    for (size_t k = 0; k < values.size(); ++k) {
      parts.push_back(view.info.objectives[k].name + " " +
                      objective_value_text(view.info.objectives[k], values[k]));
    }
    std::string line = fmt::format("{}: {}", record.label, fmt::join(parts, ", "));
    if (!record.params.empty()) line += "; " + params_text(view, record);
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string front_heading(const StudyView& view) {
  const std::string what = fmt::format("Pareto front ({})", objectives_text(view.info));
  if (view.front.empty()) return fmt::format("{}: none: {}.", what, view.best_note);
  return fmt::format(
      "{}: {} configuration{} that met every --slo and that no other beats on "
      "one objective without losing on another; no single best",
      what, view.front.size(), view.front.size() == 1 ? "" : "s");
}

std::string front_block(const StudyView& view) {
  std::string out = front_heading(view) + "\n";
  const std::vector<std::string> lines = front_lines(view);
  for (size_t i = 0; i < lines.size(); ++i) {
    out += "  " + lines[i] + "\n    " + paste_command(view.rows[view.front[i]]) + "\n";
  }
  return out;
}

std::string front_html(const StudyView& view) {
  std::string out = "<p>" + xml_escape(front_heading(view)) + "</p>";
  const std::vector<std::string> lines = front_lines(view);
  if (lines.empty()) return out;
  out += "<ul class=\"ties\">";
  for (size_t i = 0; i < lines.size(); ++i) {
    out += "<li>" + xml_escape(lines[i]) + "<pre style=\"white-space:pre-wrap\">" +
           xml_escape(paste_command(view.rows[view.front[i]])) + "</pre></li>";
  }
  return out + "</ul>";
}

Json objectives_front_json(const StudyView& view) {
  Json objectives = Json::array();
  for (const StudyObjective& objective : view.info.objectives) {
    objectives.push_back(
        {{"name", objective.name}, {"unit", objective.unit}, {"maximize", objective.maximize}});
  }
  Json trials = Json::array();
  Json labels = Json::array();
  Json values = Json::array();
  for (const size_t row : view.front) {
    trials.push_back(view.rows[row].trial);
    labels.push_back(view.rows[row].label);
    Json point = Json::array();
    for (const std::optional<double>& value :
         objective_values(view.rows[row], view.info.objectives)) {
      point.push_back(number_or_null(value));
    }
    values.push_back(std::move(point));
  }
  return {{"objectives", std::move(objectives)},
          {"trials", std::move(trials)},
          {"labels", std::move(labels)},
          {"values", std::move(values)}};
}

}  // namespace llmperf::report_detail

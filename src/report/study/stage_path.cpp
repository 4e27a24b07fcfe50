// A staged study's path through its stages: stages.json, stages.md and study.html (stage_path.h).
#include "report/study/stage_path.h"

#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "report/html/xml_escape.h"
#include "report/internal.h"
#include "report/study/study_view.h"
#include "report/views.h"

namespace llmperf {
namespace report_detail {
namespace {

namespace fs = std::filesystem;

TextTable stage_table(const StudyInfo& info, const std::vector<StageOutcome>& stages) {
  TextTable table;
  table.headers = {"stage", "searched", "fixed before", "trials", "best", objective_heading(info),
                   "fixes"};
  for (size_t k = 0; k < stages.size(); ++k) {
    const StageOutcome& stage = stages[k];
    table.rows.push_back({fmt::format("{}", k + 1), stage.text, stage_choices_text(stage.fixed),
                          fmt::format("{}", stage.trials), stage.best_label.value_or("-"),
                          objective_text(info, stage.best_objective),
                          !stage.best_label ? stage.why_ended
                          : stage.tied > 0
                              ? stage_choices_text(stage.chosen) + " (tied within noise)"
                              : stage_choices_text(stage.chosen)});
  }
  return table;
}

// Where the path ended: the last stage's best, or why it ended before.
std::string path_end(const std::vector<StageOutcome>& stages, size_t planned) {
  if (stages.empty()) return "no stage ran";
  const StageOutcome& last = stages.back();
  if (!last.best_label) {
    return fmt::format("the path ended at stage {} of {}: {}", stages.size(), planned,
                       last.why_ended);
  }
  if (stages.size() < planned) {
    return fmt::format("the path stopped after stage {} of {}", stages.size(), planned);
  }
  StageChoices all;
  for (const StageOutcome& stage : stages) {
    all.insert(all.end(), stage.chosen.begin(), stage.chosen.end());
  }
  return fmt::format("best after {} stage(s): {} ({})", stages.size(), stage_choices_text(all),
                     last.dir);
}

nlohmann::ordered_json choices_json(const StageChoices& choices) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, values] : choices) out[name] = values;
  return out;
}

std::string stages_json(const StudyInfo& info, const std::vector<StageOutcome>& stages) {
  nlohmann::ordered_json out;
  out["schema"] = kStagesSchema;
  out["objective"] = info.objective;
  out["unit"] = info.unit;
  out["maximize"] = info.maximize;
  out["planned"] = info.spec.stages.size();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const StageOutcome& stage : stages) {
    nlohmann::ordered_json item;
    item["stage"] = stage.text;
    item["dir"] = stage.dir;
    item["fixed"] = choices_json(stage.fixed);
    item["trials"] = stage.trials;
    if (stage.best_label) {
      item["best"] = *stage.best_label;
      if (stage.best_objective) item["objective"] = *stage.best_objective;
      item["chosen"] = choices_json(stage.chosen);
      if (stage.tied > 0) item["tied"] = stage.tied;
    } else {
      item["best"] = nullptr;
      item["why_ended"] = stage.why_ended;
    }
    list.push_back(std::move(item));
  }
  out["stages"] = std::move(list);
  return out.dump(2) + "\n";
}

std::string stage_path_html(const StudyInfo& info, const std::vector<StageOutcome>& stages) {
  const std::string title = fmt::format("llmperf tune, in stages: {}", objective_heading(info));
  std::string body = "<h1>" + xml_escape(title) + "</h1>";
  body += "<p class=\"meta\">" + xml_escape("--serve " + info.spec.serve) + "</p>";
  body += "<p><b>" + xml_escape(path_end(stages, info.spec.stages.size())) + "</b></p>";
  body += "<h2>The path through the stages</h2><div class=\"rows\">" +
          html_table(stage_table(info, stages)) + "</div>";
  body +=
      "<p class=\"note\">Each stage searches its parameters with those of the stages before it "
      "fixed at their best, and the later stages' at their --param value (or their stage's "
      "first). Each stage's own page:</p><ul>";
  for (size_t k = 0; k < stages.size(); ++k) {
    const std::string page = stages[k].dir + "/study.html";
    body += fmt::format("<li><a href=\"{}\">stage {}: {}</a></li>", xml_escape(page), k + 1,
                        xml_escape(stages[k].text));
  }
  body += "</ul>";
  return html_page(title, body);
}

}  // namespace
}  // namespace report_detail

std::string stage_choices_text(const StageChoices& choices) {
  std::vector<std::string> parts;
  for (const auto& [name, values] : choices) {
    std::vector<std::string> shown;
    for (const std::string& value : values) shown.push_back(value.empty() ? "off" : value);
    parts.push_back(fmt::format("{}={}", name, fmt::join(shown, "|")));
  }
  return parts.empty() ? std::string("-") : fmt::format("{}", fmt::join(parts, ", "));
}

std::string stage_path_text(const StudyInfo& info, const std::vector<StageOutcome>& stages) {
  using namespace report_detail;
  const TextTable table = stage_table(info, stages);
  return "The path through the stages:\n" + render_table(table.headers, table.rows, {1, 2, 4, 6}) +
         path_end(stages, info.spec.stages.size()) + "\n";
}

std::string write_stage_path_outputs(const std::string& dir, const StudyInfo& info,
                                     const std::vector<StageOutcome>& stages) {
  using namespace report_detail;
  const fs::path root(dir);
  write_file_atomic((root / "stages.json").string(), stages_json(info, stages));
  write_file_atomic((root / "stages.md").string(),
                    "# The path through the stages\n\n" +
                        markdown_table(stage_table(info, stages)) + "\n" +
                        path_end(stages, info.spec.stages.size()) + "\n");
  write_file_atomic((root / "study.html").string(), stage_path_html(info, stages));
  return stage_path_text(info, stages);
}

}  // namespace llmperf

// The study's text (study_text.h) and the table, headline, rungs and reasons that the Markdown and
// the page share with it (study_view.h).
#include "report/study/study_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "report/internal.h"
#include "report/study/study_front.h"
#include "report/study/study_view.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr size_t kLineReasonLength = 200;  // the longest reason a trial's line shows

// The first line of `text`, cut to `limit` bytes (at a UTF-8 boundary) with "..." after.
std::string one_line(const std::string& text, size_t limit) {
  std::string line = text.substr(0, text.find_first_of("\r\n"));
  if (line.size() <= limit) return line;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "...";
}

std::string best_block(const StudyView& view) {
  const StudyInfo& info = view.info;
  const char* direction = info.maximize ? "higher is better" : "lower is better";
  if (!view.best) {
    return fmt::format("Best configuration ({}, {}): none: {}.\n", info.objective, direction,
                       view.best_note);
  }
  const TrialRecord& best = view.rows[*view.best];
  std::string out =
      fmt::format("Best configuration ({}, {}): {}\n", info.objective, direction, best.label);
  if (!best.params.empty()) out += "  parameters: " + params_text(view, best) + "\n";
  out += fmt::format("  {}: {}\n", info.objective, objective_text(info, best.objective));
  if (view.halving) out += fmt::format("  rung: {}\n", best.rung);
  if (!view.best_note.empty()) out += "  note: " + view.best_note + "\n";
  for (const std::string& line : ties_lines(view)) out += "  " + line + "\n";
  const std::string command = paste_command(best);
  out += fmt::format(
      "  server command{}:\n    {}\n",
      command.find("{port}") != std::string::npos ? " ({port}: the port to serve on)" : "",
      command);
  return out;
}

}  // namespace

std::string params_text(const StudyView& view, const TrialRecord& record) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : record.params) {
    parts.push_back(name + "=" + study_param_text(view, name, value));
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

TextTable study_table_cells(const StudyView& view) {
  TextTable table;
  table.headers.push_back("Trial");
  if (view.halving) table.headers.push_back("Rung");
  if (view.slots) table.headers.push_back("Slot");
  for (const std::string& name : view.param_names) table.headers.push_back(name);
  table.headers.push_back("Status");
  table.headers.push_back(objective_heading(view.info));
  if (view.repeats) table.headers.push_back("95 % CI");
  // Several objectives: the others' values, and whether the row is on their Pareto front.
  const std::vector<StudyObjective>& objectives = view.info.objectives;
  for (size_t k = 1; k < objectives.size(); ++k) {
    table.headers.push_back(objective_column(objectives[k]));
  }
  if (!objectives.empty()) table.headers.push_back("Front");
  std::vector<std::pair<const char*, std::string_view>> metrics = {
      {"TTFT p50 (ms)", study_metric::kTtftP50},         {"TTFT p99 (ms)", study_metric::kTtftP99},
      {"ITL p50 (ms)", study_metric::kItlP50},           {"ITL p99 (ms)", study_metric::kItlP99},
      {"TPOT p50 (ms)", study_metric::kTpotP50},         {"TPOT p99 (ms)", study_metric::kTpotP99},
      {"Output tok/s", study_metric::kOutputThroughput}};
  if (view.per_gpu_figures) metrics.emplace_back("Output tok/s/GPU", study_metric::kPerGpu);
  if (view.cost_figures) metrics.emplace_back("USD/Mtok", study_metric::kCostPerMtok);
  metrics.emplace_back("Failed", study_metric::kFailed);
  for (const auto& [heading, key] : metrics) table.headers.push_back(heading);
  if (view.gpu) table.headers.push_back("GPU MiB (peak)");
  for (const TrialRecord& row : view.rows) {
    std::vector<std::string> cells;
    cells.push_back(row.label.empty() ? fmt::format("{}", row.trial) : row.label);
    if (view.halving) cells.push_back(fmt::format("{}", row.rung));
    if (view.slots) {
      const bool busy = row.client && row.client->busy;
      cells.push_back(row.slot ? fmt::format("{}{}", *row.slot, busy ? " *" : "") : "-");
    }
    for (const std::string& name : view.param_names) {
      cells.push_back(study_param_text(view, name, study_param_value(row, name)));
    }
    cells.emplace_back(trial_status_name(row.status));
    cells.push_back(format_number(row.objective));
    if (view.repeats) cells.push_back(interval_text(row));
    if (!objectives.empty()) {
      const std::vector<std::optional<double>> values = objective_values(row, objectives);
      for (size_t k = 1; k < values.size(); ++k) cells.push_back(format_number(values[k]));
      const size_t index = table.rows.size();
      const bool on_front =
          std::find(view.front.begin(), view.front.end(), index) != view.front.end();
      cells.emplace_back(on_front ? "*" : "");
    }
    for (const auto& [heading, key] : metrics) {
      cells.push_back(format_number(study_metric_value(row, key)));
    }
    if (view.gpu) cells.push_back(gpu_text(row));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::string study_headline(const StudyView& view) {
  const StudyInfo& info = view.info;
  std::string text = fmt::format("{} trial{}", view.rows.size(), view.rows.size() == 1 ? "" : "s");
  if (!view.rows.empty()) text += " (" + status_counts(view.rows) + ")";
  if (info.objectives.empty()) {
    text += fmt::format("; objective {}, {}", objective_heading(info),
                        info.maximize ? "higher is better" : "lower is better");
  } else {
    text += fmt::format("; objectives {}", objectives_text(info));
  }
  if (const std::string note = objective_note(info); !note.empty()) text += " (" + note + ")";
  if (!info.strategy.empty()) text += "; strategy " + info.strategy;
  for (const char* seeded : {"random", "tpe", "cmaes", "nsga2"}) {
    if (info.strategy.rfind(seeded, 0) == 0) text += fmt::format(", seed {}", info.seed);
  }
  return text;
}

std::string rungs_text(const StudyView& view) {
  std::vector<std::string> parts;
  for (size_t r = 0; r < view.info.rungs.size(); ++r) {
    const HalvingRung& rung = view.info.rungs[r];
    std::string part = fmt::format("rung {}: {} configuration{} x {} requests", r, rung.configs,
                                   rung.configs == 1 ? "" : "s", rung.requests);
    if (rung.promoted > 0) part += fmt::format(", {} promoted", rung.promoted);
    parts.push_back(std::move(part));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<std::pair<size_t, std::string>> study_reasons(const StudyView& view) {
  std::vector<std::pair<size_t, std::string>> reasons;
  for (size_t i = 0; i < view.rows.size(); ++i) {
    const TrialRecord& row = view.rows[i];
    if (row.status == TrialStatus::kOk) continue;
    reasons.emplace_back(i, row.reason.empty()
                                ? std::string(trial_status_name(row.status))
                                : fmt::format("{}: {}", trial_status_name(row.status), row.reason));
  }
  return reasons;
}

std::string busy_client_note(const StudyView& view) {
  if (!view.busy_client) return "";
  return "* the benchmark's client was busy (client-bound, or late while the machine was busy: "
         "study.jsonl's \"client\" says why): the trial measured its client as much as its "
         "server; run it again alone, or with fewer --slots";
}

std::vector<std::string> suggested_exclude_lines(const StudyView& view) {
  std::vector<std::string> lines;
  for (const SuggestedExclude& suggested : view.suggested_excludes) {
    // Single quotes unless the expression quotes a word itself.
    std::string quoted = "'" + suggested.expression + "'";
    if (suggested.expression.find('\'') != std::string::npos) {
      quoted = "\"";
      for (char c : suggested.expression) {
        if (c == '"' || c == '\\' || c == '$' || c == '`') quoted += '\\';
        quoted += c;
      }
      quoted += "\"";
    }
    lines.push_back(fmt::format("--exclude {}  ({} configuration{}, {}: {})", quoted,
                                suggested.configurations, suggested.configurations == 1 ? "" : "s",
                                trial_status_name(suggested.status),
                                one_line(suggested.reason, kLineReasonLength)));
  }
  return lines;
}

}  // namespace report_detail

std::string trial_line(const TrialRecord& record, const StudyInfo& info) {
  using namespace report_detail;
  StudyView view;
  view.info = info;
  view.spaces = [&] {
    try {
      return parse_params(info.spec.params);
    } catch (const std::invalid_argument&) {
      return std::vector<ParamSpace>{};
    }
  }();
  std::string line = fmt::format("[{}] {}", record.trial, record.label);
  if (record.rung > 0 || !info.rungs.empty()) line += fmt::format(" rung {}", record.rung);
  if (record.slot) line += fmt::format(" slot {}", *record.slot);
  if (!record.params.empty()) line += " " + params_text(view, record);
  line += fmt::format(": {}", trial_status_name(record.status));
  if (!record.reason.empty()) line += " (" + one_line(record.reason, kLineReasonLength) + ")";
  if (record.objective) {
    line += fmt::format(", {} {}", info.objective, objective_text(info, record.objective));
  }
  // Several objectives: the others' values too.
  const std::vector<std::optional<double>> values = objective_values(record, info.objectives);
  for (size_t k = 1; k < values.size(); ++k) {
    if (values[k])
      line += ", " + info.objectives[k].name + " " +
              objective_value_text(info.objectives[k], values[k]);
  }
  if (record.duration_s) line += ", " + seconds_text(record.duration_s);
  if (record.ready_s) line += fmt::format(" (ready in {})", seconds_text(record.ready_s));
  if (record.client && record.client->busy) {
    line += "; client busy: " + one_line(record.client->why, kLineReasonLength);
  }
  return line;
}

std::string study_table(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  return report_detail::study_text(report_detail::study_view(info, trials));
}

namespace report_detail {

std::string study_text(const StudyView& view) {
  std::string out = "\nStudy: " + study_headline(view) + "\n";
  if (const std::string rungs = rungs_text(view); !rungs.empty()) {
    out += "Successive halving: " + rungs + "\n";
  }
  const TextTable table = study_table_cells(view);
  std::vector<size_t> left;  // the parameters and the status read as text
  const size_t first_param = 1 + (view.halving ? 1 : 0) + (view.slots ? 1 : 0);
  for (size_t c = first_param; c <= first_param + view.param_names.size(); ++c) left.push_back(c);
  out += "\n" + render_table(table.headers, table.rows, left);
  if (const std::string note = busy_client_note(view); !note.empty()) out += note + "\n";
  if (const auto reasons = study_reasons(view); !reasons.empty()) {
    out += "\nReasons:\n";
    for (const auto& [row, reason] : reasons) {
      out += fmt::format("  {}  {}\n", view.rows[row].label, one_line(reason, 400));
    }
  }
  if (const auto lines = suggested_exclude_lines(view); !lines.empty()) {
    out += "\nSuggested exclusions (these failed every time, for the same reason):\n";
    for (const std::string& line : lines) out += "  " + line + "\n";
  }
  return out + "\n" + (view.info.objectives.empty() ? best_block(view) : front_block(view));
}

}  // namespace report_detail
}  // namespace llmperf

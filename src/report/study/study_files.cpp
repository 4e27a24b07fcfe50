// The study's files (study_files.h), each drawn from one StudyView so that they agree with the
// terminal's table and with study.html.
#include "report/study/study_files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "metrics/catalogue.h"
#include "report/html/xml_escape.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/study/study_front.h"
#include "report/study/study_html.h"
#include "report/study/study_view.h"
#include "report/text/csv.h"

namespace llmperf {
namespace report_detail {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson record_json(const TrialRecord& record) {
  return OrderedJson::parse(trial_to_json(record));  // the ledger's own line
}

OrderedJson front_json(const StudyView& view, const StudyFront& front) {
  OrderedJson trials = OrderedJson::array();
  OrderedJson labels = OrderedJson::array();
  for (size_t row : front.front) {
    trials.push_back(view.rows[row].trial);
    labels.push_back(view.rows[row].label);
  }
  return {{"x", front.x_metric},
          {"y", front.y_metric},
          {"maximize_x", front.maximize_x},
          {"maximize_y", front.maximize_y},
          {"trials", std::move(trials)},
          {"labels", std::move(labels)}};
}

// "tied": the configurations tied within noise with the leader and the tie-break that named the
// best of them; null when nothing is tied.
OrderedJson tied_json(const StudyView& view) {
  if (!view.ties) return nullptr;
  const StudyTies& ties = *view.ties;
  OrderedJson trials = OrderedJson::array();
  OrderedJson labels = OrderedJson::array();
  for (size_t row : ties.rows) {
    trials.push_back(view.rows[row].trial);
    labels.push_back(view.rows[row].label);
  }
  return {{"by", ties.by},
          {"leader", view.rows[ties.leader].trial},
          {"trials", std::move(trials)},
          {"labels", std::move(labels)},
          {"tie_break", ties.tie_break},
          {"decided_by", ties.decided_by},
          {"best", view.rows[ties.rows.front()].trial}};
}

// "confirm": --confirm's reruns of the leader and the runner-up; null without them.
OrderedJson confirm_json(const StudyView& view) {
  if (!view.confirmation) return nullptr;
  const StudyConfirmation& c = *view.confirmation;
  return {{"leader", view.rows[c.leader].trial},
          {"runner_up", view.rows[c.runner_up].trial},
          {"leader_objective", number_or_null(view.rows[c.leader].objective)},
          {"runner_up_objective", number_or_null(view.rows[c.runner_up].objective)},
          {"leader_rerun", number_or_null(c.leader_rerun)},
          {"runner_up_rerun", number_or_null(c.runner_up_rerun)},
          {"held", c.held}};
}

std::string summary_json(const StudyView& view) {
  OrderedJson doc;
  doc["schema"] = kStudySummarySchema;
  doc["study"] = study_info_to_json(view.info);
  OrderedJson statuses = OrderedJson::object();
  for (const TrialRecord& row : view.rows) {
    const std::string name(trial_status_name(row.status));
    statuses[name] = statuses.value(name, 0) + 1;
  }
  doc["statuses"] = std::move(statuses);
  if (view.best) {
    const TrialRecord& best = view.rows[*view.best];
    OrderedJson params = OrderedJson::object();
    for (const auto& [name, value] : best.params) params[name] = value;
    doc["best"] = {{"trial", best.trial},
                   {"label", best.label},
                   {"rung", best.rung},
                   {"objective", number_or_null(best.objective)},
                   {"params", std::move(params)},
                   {"server_command", best.server_command},
                   // A ledger written before the template was recorded: the command as run.
                   {"server_command_template", best.server_command_template.empty()
                                                   ? best.server_command
                                                   : best.server_command_template}};
  } else {
    doc["best"] = nullptr;
  }
  if (!view.best_note.empty()) doc["best_note"] = view.best_note;
  if (!view.info.objectives.empty()) doc["front"] = objectives_front_json(view);  // several only
  doc["tied"] = tied_json(view);
  doc["confirm"] = confirm_json(view);
  std::string latency_front = view.latency.x_metric;  // `ttft.p99` as `ttft_p99`
  std::replace(latency_front.begin(), latency_front.end(), '.', '_');
  doc["pareto"] = {{"throughput_per_user", front_json(view, view.per_user)},
                   {latency_front, front_json(view, view.latency)},
                   {"per_gpu_per_user", front_json(view, view.per_gpu)}};
  OrderedJson suggested = OrderedJson::array();
  for (const SuggestedExclude& exclude : view.suggested_excludes) {
    suggested.push_back({{"exclude", exclude.expression},
                         {"configurations", exclude.configurations},
                         {"status", trial_status_name(exclude.status)},
                         {"reason", exclude.reason}});
  }
  doc["suggested_excludes"] = std::move(suggested);
  OrderedJson trials = OrderedJson::array();
  for (const TrialRecord& row : view.rows) trials.push_back(record_json(row));
  doc["trials"] = std::move(trials);
  OrderedJson superseded = OrderedJson::array();
  for (const TrialRecord& record : view.superseded) superseded.push_back(record_json(record));
  doc["superseded"] = std::move(superseded);
  return doc.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string csv_number(std::optional<double> value) {
  return value && std::isfinite(*value) ? fmt::format("{}", *value) : "";
}

// The figures of the ledger the CSV gives, in its columns' order (study_view.h).
constexpr std::string_view kCsvMetrics[] = {
    study_metric::kTtftP50,         study_metric::kTtftP99,    study_metric::kItlP50,
    study_metric::kItlP99,          study_metric::kTpotP50,    study_metric::kTpotP99,
    study_metric::kLatencyP50,      study_metric::kLatencyP99, study_metric::kOutputThroughput,
    study_metric::kTotalThroughput, study_metric::kPerUser,    study_metric::kPerGpu,
    study_metric::kCostPerMtok,     study_metric::kQps,        study_metric::kCompleted,
    study_metric::kFailed,          study_metric::kConcurrency,
};

// A figure's CSV column: a catalogue figure's key with a time in ms, as the ledger holds it
// (`ttft.p50`: `ttft_p50_ms`), and no other unit (`output_throughput`); the study's own figures
// (`output_throughput_per_user`, `completed`) by their names.
std::string csv_column(std::string_view key) {
  const std::optional<KeyFigure> figure = figure_named(key);
  if (!figure) return std::string(key);
  const MetricInfo& metric = figure_metric(*figure);
  return metric_key_in(metric.id, figure->stat, metric.kind == MetricKind::kTime ? "ms" : "");
}

std::string summary_csv(const StudyView& view) {
  std::vector<std::string> fixed = {"trial",     "label",         "rung",          "status",
                                    "reason",    "objective",     "objective_ci95_low",
                                    "objective_ci95_high"};
  for (const std::string_view key : kCsvMetrics) fixed.push_back(csv_column(key));
  for (const char* column : {"gpu_used_mib", "gpu_total_mib", "ready_s", "duration_s", "port",
                             "dir", "server_command"}) {
    fixed.emplace_back(column);
  }
  // --slots: the slot each trial ran in and its client's health, last (absent without --slots,
  // so that a study's file is as it was).
  if (view.slots) fixed.insert(fixed.end(), {"slot", "client_cpu_share", "client_busy"});
  std::vector<std::string> header = {"trial", "label", "rung"};
  for (const std::string& name : view.param_names) {
    const bool taken = std::find(fixed.begin(), fixed.end(), name) != fixed.end();
    header.push_back(taken ? "param." + name : name);
  }
  header.insert(header.end(), fixed.begin() + 3, fixed.end());
  auto line = [](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) out += (c ? "," : "") + csv_field(cells[c]);
    return out + "\n";
  };
  std::string csv = line(header);
  for (const TrialRecord& row : view.rows) {
    std::vector<std::string> cells = {fmt::format("{}", row.trial), row.label,
                                      fmt::format("{}", row.rung)};
    for (const std::string& name : view.param_names) cells.push_back(study_param_value(row, name));
    cells.emplace_back(trial_status_name(row.status));
    cells.push_back(row.reason);
    cells.push_back(csv_number(row.objective));
    cells.push_back(csv_number(row.ci95_low));
    cells.push_back(csv_number(row.ci95_high));
    for (const std::string_view key : kCsvMetrics) {
      cells.push_back(csv_number(study_metric_value(row, key)));
    }
    int64_t used = 0;
    int64_t total = 0;
    for (const GpuMemory& gpu : row.gpu) used += gpu.used_mib, total += gpu.total_mib;
    cells.push_back(row.gpu.empty() ? "" : fmt::format("{}", used));
    cells.push_back(row.gpu.empty() ? "" : fmt::format("{}", total));
    cells.push_back(csv_number(row.ready_s));
    cells.push_back(csv_number(row.duration_s));
    cells.push_back(row.port ? fmt::format("{}", *row.port) : "");
    cells.push_back(row.dir);
    cells.push_back(row.server_command);
    if (view.slots) {
      cells.push_back(row.slot ? fmt::format("{}", *row.slot) : "");
      cells.push_back(row.client ? csv_number(row.client->cpu_share) : "");
      cells.push_back(row.client ? (row.client->busy ? "true" : "false") : "");
    }
    csv += line(cells);
  }
  return csv;
}

// Text for Markdown prose: HTML's special characters as entities (a server's log line must not
// become markup) and the characters that would start code, emphasis or a link escaped ('_' inside
// words, as in start_failed, emphasises nothing and stays as it is).
std::string markdown_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
      case '<':
      case '>':
        out += xml_entity(c);
        break;
      case '`':
      case '*':
      case '[':
      case ']':
      case '\\':
        out += '\\';
        out += c;
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A fenced code block holding `text`, its fence longer than any run of backticks inside.
std::string code_block(const std::string& text) {
  size_t longest = 0;
  size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<size_t>(3, longest + 1), '`');
  return fence + "sh\n" + text + "\n" + fence + "\n";
}

// Several objectives: the Pareto front in place of the best configuration.
std::string front_markdown(const StudyView& view) {
  std::string md = "\n## Pareto front\n\n" + markdown_text(front_heading(view)) + "\n";
  const std::vector<std::string> lines = front_lines(view);
  for (size_t i = 0; i < lines.size(); ++i) {
    md += "\n- " + markdown_text(lines[i]) + "\n\n" +
          code_block(paste_command(view.rows[view.front[i]]));
  }
  return md;
}

std::string summary_markdown(const StudyView& view) {
  const StudyInfo& info = view.info;
  std::string md = fmt::format("# llmperf tune: {}\n\n", markdown_text(objective_heading(info)));
  md += markdown_text(study_headline(view)) + "\n\n";
  if (const std::string rungs = rungs_text(view); !rungs.empty()) {
    md += "Successive halving: " + markdown_text(rungs) + "\n\n";
  }
  TextTable table = study_table_cells(view);
  for (auto& row : table.rows) {
    for (std::string& cell : row) cell = markdown_text(cell);
  }
  md += markdown_table(table);
  if (const std::string note = busy_client_note(view); !note.empty()) {
    md += "\n" + markdown_text(note) + "\n";
  }
  if (const auto reasons = study_reasons(view); !reasons.empty()) {
    md += "\n## Reasons\n\n";
    for (const auto& [row, reason] : reasons) {
      md += fmt::format("- {}: {}\n", markdown_text(view.rows[row].label), markdown_text(reason));
    }
  }
  if (const auto lines = suggested_exclude_lines(view); !lines.empty()) {
    md += "\n## Suggested exclusions\n\nThese failed every time, for the same reason:\n\n";
    for (const std::string& line : lines) md += "- " + markdown_text(line) + "\n";
  }
  if (!info.objectives.empty()) return md + front_markdown(view);  // several: no single best
  md += "\n## Best configuration\n\n";
  const char* direction = info.maximize ? "higher is better" : "lower is better";
  if (!view.best) {
    return md + fmt::format("None ({}, {}): {}.\n", markdown_text(info.objective), direction,
                            markdown_text(view.best_note));
  }
  const TrialRecord& best = view.rows[*view.best];
  md += fmt::format("**{}**: {} {} ({})", markdown_text(best.label), markdown_text(info.objective),
                    markdown_text(objective_text(info, best.objective)), direction);
  if (!best.params.empty()) md += "; " + markdown_text(params_text(view, best));
  md += "\n\n";
  if (!view.best_note.empty()) md += "Note: " + markdown_text(view.best_note) + "\n\n";
  for (const std::string& line : ties_lines(view)) md += "- " + markdown_text(line) + "\n";
  if (view.ties || view.confirmation) md += "\n";
  const std::string command = paste_command(best);
  md += command.find("{port}") != std::string::npos
            ? "The server command (`{port}`: the port to serve on):\n\n"
            : "The server command:\n\n";
  md += code_block(command);
  return md;
}

}  // namespace
}  // namespace report_detail

std::string study_summary_json(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  return report_detail::summary_json(report_detail::study_view(info, trials));
}

std::string study_summary_csv(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  return report_detail::summary_csv(report_detail::study_view(info, trials));
}

std::string study_summary_markdown(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  return report_detail::summary_markdown(report_detail::study_view(info, trials));
}

std::string write_study_outputs(const std::string& dir, const StudyInfo& info,
                                const std::vector<TrialRecord>& trials) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    throw std::runtime_error(fmt::format("cannot create directory {}: {}", dir, error.message()));
  }
  const report_detail::StudyView view = report_detail::study_view(info, trials);
  const fs::path base(dir);
  write_file_atomic((base / "study_summary.json").string(), report_detail::summary_json(view));
  write_file_atomic((base / "study_summary.csv").string(), report_detail::summary_csv(view));
  write_file_atomic((base / "study_summary.md").string(), report_detail::summary_markdown(view));
  write_file_atomic((base / "study.html").string(), report_detail::render_study_html(view));
  return report_detail::study_text(view);
}

}  // namespace llmperf

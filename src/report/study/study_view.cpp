// The view of a study (study_view.h): the table's rows from the ledger, the best row and the
// sentence that explains its absence, the Pareto fronts, and the texts of values.
#include "report/study/study_view.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/text.h"
#include "report/internal.h"
#include "study/best.h"
#include "study/multi_objective.h"
#include "study/pareto.h"
#include "study/prefer.h"

namespace llmperf::report_detail {
namespace {

// Every status, in TrialStatus's order.
constexpr TrialStatus kStatuses[] = {TrialStatus::kOk,          TrialStatus::kExcluded,
                                     TrialStatus::kStartFailed, TrialStatus::kReadyTimeout,
                                     TrialStatus::kBenchFailed, TrialStatus::kSloViolated,
                                     TrialStatus::kInterrupted};

std::vector<ParamSpace> parsed_spaces(const StudySpec& spec) {
  try {
    return parse_params(spec.params);
  } catch (const std::invalid_argument&) {
    return {};  // a study.json from another version: values read as plain text
  }
}

std::vector<std::string> param_names(const StudySpec& spec,
                                     const std::vector<TrialRecord>& trials) {
  std::vector<std::string> names;
  auto add = [&](std::string name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(std::move(name));
    }
  };
  for (const std::string& param : spec.params) {
    add(std::string(trim(std::string_view(param).substr(0, param.find('=')))));
  }
  for (const TrialRecord& trial : trials) {
    for (const auto& [name, value] : trial.params) add(name);
  }
  return names;
}

// A record as the ledger keeps it: what a study's outputs show is then the same whether drawn from
// the records in memory or read back from study.jsonl (non-finite numbers dropped, invalid UTF-8
// repaired).
TrialRecord as_ledger_keeps_it(const TrialRecord& record) {
  return trial_from_json(trial_to_json(record), "study.jsonl");
}

StudyFront front_of(const std::vector<TrialRecord>& rows, std::string_view x_metric,
                    bool maximize_x, std::string_view y_metric = study_metric::kOutputThroughput) {
  StudyFront front;
  front.x_metric = x_metric;
  front.y_metric = y_metric;
  front.maximize_x = maximize_x;
  std::vector<ParetoPoint> points;
  for (size_t i = 0; i < rows.size(); ++i) {
    const TrialRecord& row = rows[i];
    // Only benchmarked configurations: a partial run's figures would mislead.
    if (row.status != TrialStatus::kOk && row.status != TrialStatus::kSloViolated) continue;
    const auto x = study_metric_value(row, x_metric);
    const auto y = study_metric_value(row, front.y_metric);
    if (!x || !y) continue;
    front.points.push_back(i);
    points.push_back({*x, *y});
  }
  for (size_t k : pareto_front(points, maximize_x, true)) front.front.push_back(front.points[k]);
  return front;
}

// Why the view has no best row: the sentence for `best.why_none`.
std::string no_best_text(const StudyView& view, const StudyBest& best,
                         const std::vector<TrialRecord>& lines) {
  switch (best.why_none) {
    case NoBestReason::kNone:
    case NoBestReason::kNoTrials:
      break;
    case NoBestReason::kNoObjective:
      return fmt::format("no trial that met every --slo has a value of the objective {}",
                         view.info.objective);
    case NoBestReason::kNoneMetSlo: {
      std::string text = fmt::format("no trial met every --slo ({})", status_counts(view.rows));
      if (best.closest) {
        const TrialRecord& row = lines[*best.closest];
        text += fmt::format("; the closest was {} ({} {}{})", row.label, view.info.objective,
                            objective_text(view.info, row.objective),
                            row.reason.empty() ? "" : ": " + row.reason);
      }
      return text;
    }
    case NoBestReason::kNoneBenchmarked:
      return fmt::format("no trial finished its benchmark ({})", status_counts(view.rows));
  }
  return "no trial has finished yet";
}

// The best row (study/best.h's rule) and its note: a caveat when it was measured short of the full
// benchmark, or why there is none. `lines`: the ledger's lines the rows were drawn from; `rows`:
// the position in `lines` of each row.
void choose_best(StudyView& view, const std::vector<TrialRecord>& lines,
                 const std::vector<size_t>& rows) {
  Preference prefer;
  try {
    prefer = parse_prefer(view.info.spec.prefer);
  } catch (const std::invalid_argument&) {
    prefer = parse_prefer("");  // a study.json from another version
  }
  const StudyBest best = study_best(lines, view.info.rungs.size(), view.info.maximize, prefer);
  if (!best.trial) {
    view.best_note = no_best_text(view, best, lines);
    return;
  }
  const auto row_of = [&](size_t line) {
    return static_cast<size_t>(std::find(rows.begin(), rows.end(), line) - rows.begin());
  };
  view.best = row_of(*best.trial);
  if (!best.tied.empty()) {
    StudyTies ties;
    for (size_t line : best.tied) ties.rows.push_back(row_of(line));
    ties.leader = row_of(*best.leader);
    ties.by = best.tied_by;
    ties.tie_break = best.tie_break;
    ties.decided_by = best.decided_by;
    view.ties = std::move(ties);
  }
  if (best.confirmation) {
    const StudyBest::Confirmation& c = *best.confirmation;
    view.confirmation = StudyConfirmation{row_of(*best.leader), row_of(c.runner_up),
                                          lines[c.leader_rerun].objective,
                                          lines[c.runner_up_rerun].objective, c.held};
  }
  if (!best.short_of_full()) return;
  const size_t rung_index = static_cast<size_t>(best.rung);
  const std::string requests =
      rung_index < view.info.rungs.size()
          ? fmt::format(" ({} requests)", view.info.rungs[rung_index].requests)
          : "";
  const std::string why =
      best.rung < best.deepest_rung
          ? fmt::format("no configuration of rung {} ended ok", best.deepest_rung)
          : fmt::format("the study did not reach rung {}", best.full_rung);
  view.best_note =
      fmt::format("measured at rung {}{}, not the full benchmark: {}", best.rung, requests, why);
}

// Several objectives: the Pareto front over them instead of a best (study/multi_objective.h), and
// with two, its chart; when the front is empty, why, in the words of the one-objective rule.
void choose_front(StudyView& view, const std::vector<TrialRecord>& lines,
                  const std::vector<size_t>& rows) {
  const auto row_of = [&](size_t line) {
    return static_cast<size_t>(std::find(rows.begin(), rows.end(), line) - rows.begin());
  };
  for (const size_t line : study_front(lines, view.info.objectives)) {
    view.front.push_back(row_of(line));
  }
  if (view.front.empty()) {
    const StudyBest best = study_best(lines, view.info.rungs.size(), view.info.maximize);
    view.best_note = best.trial ? "no trial that met every --slo has a value of every --objective"
                                : no_best_text(view, best, lines);
  }
  if (view.info.objectives.size() != 2) return;
  StudyFront& chart = view.objective_chart;
  chart.x_metric = view.info.objectives[1].name;
  chart.maximize_x = view.info.objectives[1].maximize;
  chart.y_metric = view.info.objectives[0].name;
  chart.maximize_y = view.info.objectives[0].maximize;
  for (size_t i = 0; i < view.rows.size(); ++i) {
    if (view.rows[i].status == TrialStatus::kOk &&
        study_metric_value(view.rows[i], chart.x_metric) &&
        study_metric_value(view.rows[i], chart.y_metric)) {
      chart.points.push_back(i);
    }
  }
  chart.front = view.front;
  std::sort(chart.front.begin(), chart.front.end(), [&](size_t a, size_t b) {
    const double xa = *study_metric_value(view.rows[a], chart.x_metric);
    const double xb = *study_metric_value(view.rows[b], chart.x_metric);
    return xa != xb ? xa < xb : a < b;
  });
}

}  // namespace

StudyView study_view(const StudyInfo& info, const std::vector<TrialRecord>& trials) {
  StudyView view;
  view.info = info;
  std::vector<TrialRecord> kept;
  kept.reserve(trials.size());
  for (const TrialRecord& trial : trials) kept.push_back(as_ledger_keeps_it(trial));
  view.spaces = parsed_spaces(info.spec);
  view.param_names = param_names(info.spec, kept);
  const std::vector<size_t> rows = study_row_lines(kept);
  std::vector<bool> shown(kept.size(), false);
  for (size_t line : rows) {
    view.rows.push_back(kept[line]);
    shown[line] = true;
  }
  // The lines not shown as rows: every line but the last at each trial's highest rung.
  for (size_t i = 0; i < kept.size(); ++i) {
    if (!shown[i]) view.superseded.push_back(kept[i]);
  }
  view.halving = !info.rungs.empty() || info.strategy.rfind("halving", 0) == 0;
  for (const TrialRecord& row : view.rows) {
    view.halving = view.halving || row.rung > 0;
    view.gpu = view.gpu || !row.gpu.empty();
    view.per_gpu_figures = view.per_gpu_figures || study_metric_value(row, study_metric::kPerGpu);
    view.cost_figures = view.cost_figures || study_metric_value(row, study_metric::kCostPerMtok);
    view.repeats = view.repeats || (row.ci95_low && row.ci95_high);
    view.slots = view.slots || row.slot.has_value();
    view.busy_client = view.busy_client || (row.client && row.client->busy);
  }
  if (info.objectives.empty()) {
    choose_best(view, kept, rows);
  } else {
    choose_front(view, kept, rows);
  }
  view.per_user = front_of(view.rows, study_metric::kPerUser, true);
  view.latency = front_of(view.rows, study_metric::kTtftP99, false);
  view.suggested_excludes = suggest_excludes(view.rows, view.spaces);
  view.per_gpu = front_of(view.rows, study_metric::kPerUser, true, study_metric::kPerGpu);
  return view;
}

std::optional<double> study_metric_value(const TrialRecord& record, std::string_view key) {
  const auto found = record.metrics.find(std::string(key));
  if (found != record.metrics.end() && std::isfinite(found->second)) return found->second;
  if (key == study_metric::kPerUser) {
    const auto output = study_metric_value(record, study_metric::kOutputThroughput);
    const auto users = study_metric_value(record, study_metric::kConcurrency);
    if (output && users && *users > 0) return *output / *users;
  }
  return std::nullopt;
}

std::string interval_text(const TrialRecord& record) {
  if (!record.ci95_low || !record.ci95_high) return "-";
  return fmt::format("[{}, {}]", format_number(record.ci95_low), format_number(record.ci95_high));
}

std::vector<std::string> ties_lines(const StudyView& view) {
  std::vector<std::string> lines;
  const auto label = [&](size_t row) { return view.rows[row].label; };
  if (view.confirmation) {
    const StudyConfirmation& c = *view.confirmation;
    lines.push_back(fmt::format(
        "--confirm: {} and {} ran once more: {} then {} ({} {} against {}): {}", label(c.leader),
        label(c.runner_up), objective_text(view.info, c.leader_rerun),
        objective_text(view.info, c.runner_up_rerun), view.info.objective,
        objective_text(view.info, view.rows[c.leader].objective),
        objective_text(view.info, view.rows[c.runner_up].objective),
        c.held ? "their order held" : "their order did not hold"));
  }
  if (view.ties) {
    const StudyTies& ties = *view.ties;
    std::vector<std::string> labels;
    for (size_t row : ties.rows) labels.push_back(label(row));
    const TrialRecord& leader = view.rows[ties.leader];
    const std::string why =
        ties.by == "repeats"
            ? fmt::format("their 95 % intervals of {} overlap {}'s {}", view.info.objective,
                          leader.label, interval_text(leader))
            : "the order of the leader and the runner-up did not hold when run again";
    lines.push_back(fmt::format("tied within noise: {} ({})", fmt::join(labels, ", "), why));
    const TrialRecord& best = view.rows[ties.rows.front()];
    std::string decided;
    if (ties.decided_by == "objective") {
      decided = "the better " + view.info.objective;
    } else if (ties.decided_by == "trial") {
      decided = "the lower trial index";
    } else {
      decided = prefer_value_text(best, ties.decided_by);
    }
    lines.push_back(fmt::format("tie-break {}: {} ({}){}", ties.tie_break, best.label, decided,
                                ties.rows.front() == ties.leader
                                    ? ""
                                    : fmt::format(", over the leader {}", leader.label)));
  }
  return lines;
}

std::string study_param_value(const TrialRecord& record, const std::string& name) {
  for (const auto& [param, value] : record.params) {
    if (param == name) return value;
  }
  return "";
}

std::string study_param_text(const StudyView& view, const std::string& name,
                             const std::string& value) {
  for (const ParamSpace& space : view.spaces) {
    if (space.name == name && space.kind == ParamKind::kFlag) return value.empty() ? "off" : "on";
  }
  return value.empty() ? "-" : value;
}

std::string objective_heading(const StudyInfo& info) {
  return info.unit.empty() ? info.objective : fmt::format("{} ({})", info.objective, info.unit);
}

std::string objective_note(const StudyInfo& info) {
  if (!is_search_objective(info.objective)) return "";
  const std::string axis = info.objective.substr(info.objective.find('.') + 1);
  const std::string value = axis == "rate" ? "rate" : "concurrency";
  return fmt::format(
      "each trial's --search {} answer: the highest {} that met every --slo; the other figures "
      "are those of the probe at that {}",
      axis, value, value);
}

std::string paste_command(const TrialRecord& record) {
  if (!record.server_command_template.empty()) return record.server_command_template;
  return record.server_command.empty() ? "(not recorded)" : record.server_command;
}

std::string objective_text(const StudyInfo& info, std::optional<double> value) {
  const std::string number = format_number(value);
  return number == "-" || info.unit.empty() ? number : number + " " + info.unit;
}

std::string seconds_text(std::optional<double> seconds) {
  if (!seconds || !std::isfinite(*seconds)) return "-";
  if (std::fabs(*seconds) >= 100) return fmt::format("{:.0f} s", *seconds);
  return fmt::format("{:.1f} s", *seconds);
}

std::string gpu_text(const TrialRecord& record) {
  if (record.gpu.empty()) return "-";
  int64_t used = 0;
  int64_t total = 0;
  for (const GpuMemory& gpu : record.gpu) {
    used += gpu.used_mib;
    total += gpu.total_mib;
  }
  return fmt::format("{}/{}", used, total);
}

std::string status_counts(const std::vector<TrialRecord>& rows) {
  std::vector<std::string> parts;
  for (TrialStatus status : kStatuses) {
    const auto count = std::count_if(rows.begin(), rows.end(),
                                     [&](const TrialRecord& row) { return row.status == status; });
    if (count > 0) parts.push_back(fmt::format("{} {}", count, trial_status_name(status)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace llmperf::report_detail

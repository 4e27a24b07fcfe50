// A study with several --objective shows the Pareto front over them where a study with one
// shows its best configuration (study/multi_objective.h): the same lines in the terminal, the
// Markdown and the page, and study_summary.json's "front". Private to src/report/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/internal.h"
#include "report/study/study_view.h"

namespace llmperf::report_detail {

// "output_throughput (tok/s, higher is better), ttft.p99 (ms, lower is better)".
std::string objectives_text(const StudyInfo& info);

// "2.447 ms": a value of the objective with its unit, "-" when absent.
std::string objective_value_text(const StudyObjective& objective, std::optional<double> value);

// The heading of the table's column of objective k ("ttft.p99 (ms)").
std::string objective_column(const StudyObjective& objective);

// One line per row on the front, by trial index: "1-1024-enable: output_throughput 5080.1 tok/s,
// ttft.p99 310.2 ms; B=1024 cp=true".
std::vector<std::string> front_lines(const StudyView& view);

// The front's first line: "Pareto front (output_throughput ..., ttft.p99 ...): 2 configurations,
// no single best" or "...: none: <why>".
std::string front_heading(const StudyView& view);

// The closing block of the terminal's text: the heading, then each row on the front with its
// server command to paste.
std::string front_block(const StudyView& view);

// The block of study.html (the chart of two objectives is drawn beside it by study_html.cpp).
std::string front_html(const StudyView& view);

// study_summary.json's "front": the objectives, and the rows on it (trials, labels, and each
// one's values of the objectives, in the objectives' order).
Json objectives_front_json(const StudyView& view);

}  // namespace llmperf::report_detail

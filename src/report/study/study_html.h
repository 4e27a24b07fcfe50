// study.html: a study on one self-contained page (inline CSS and SVG, no scripts, nothing fetched),
// drawn with report.html's chart code (report/html/svg_chart.h) and page shell: the best
// configuration, the table, each metric across the trials in label order, the objective against
// each parameter, the Pareto fronts (output tok/s per user against output tok/s, as vLLM's
// plot_pareto; output tok/s against TTFT p99) and the configurations that did not end ok with
// their reasons and log tails. All text is escaped.
#pragma once

#include <string>
#include <vector>

#include "study/study_file.h"
#include "study/trial.h"

namespace llmperf {

// The page of a study whose ledger holds `trials` (every rung and rerun included).
std::string render_study_html(const StudyInfo& info, const std::vector<TrialRecord>& trials);

namespace report_detail {
struct StudyView;
// The page of a study's view (study_view.h).
std::string render_study_html(const StudyView& view);
}  // namespace report_detail

}  // namespace llmperf

// A study's results as its tables, files and page show them (study_text.h, study_files.h,
// study_html.h): one row per configuration taken from the ledger, the best configuration and why
// there is none, the two Pareto fronts, and how parameters and metrics read. Built once from
// StudyInfo and the ledger's records; every output of a study is drawn from it, so the terminal,
// the files and the page agree. Private to src/report/.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/views.h"
#include "study/space.h"
#include "study/study_file.h"
#include "study/suggest_exclude.h"
#include "study/trial.h"

namespace llmperf::report_detail {

// The metric keys of TrialRecord::metrics that the study's outputs show (the study driver fills
// them from each trial's summary; any may be absent).
namespace study_metric {
inline constexpr std::string_view kTtftP50 = "ttft.p50";                    // ms
inline constexpr std::string_view kTtftP99 = "ttft.p99";                    // ms
inline constexpr std::string_view kItlP50 = "itl.p50";                      // ms
inline constexpr std::string_view kItlP99 = "itl.p99";                      // ms
inline constexpr std::string_view kTpotP50 = "tpot.p50";                    // ms
inline constexpr std::string_view kTpotP99 = "tpot.p99";                    // ms
inline constexpr std::string_view kLatencyP50 = "latency.p50";              // ms
inline constexpr std::string_view kLatencyP99 = "latency.p99";              // ms
inline constexpr std::string_view kOutputThroughput = "output_throughput";  // tok/s
inline constexpr std::string_view kTotalThroughput = "total_throughput";    // tok/s
// Output tok/s per user: output_throughput / concurrency, as vLLM's plot_pareto defines it.
inline constexpr std::string_view kPerUser = "output_throughput_per_user";
inline constexpr std::string_view kQps = "qps";                  // req/s
inline constexpr std::string_view kFailed = "failed";            // failed requests
inline constexpr std::string_view kCompleted = "completed";      // successful requests
inline constexpr std::string_view kConcurrency = "concurrency";  // the benchmark's concurrency
// Per GPU and per dollar (study/gpu_cost.h): output tok/s per GPU and USD per million output
// tokens, with the trial's GPU count (--gpus-per-trial) and --gpu-hour-cost.
inline constexpr std::string_view kPerGpu = "output_throughput_per_gpu";
inline constexpr std::string_view kCostPerMtok = "cost_per_mtok";
}  // namespace study_metric

// The configurations tied within noise with the leader, and how the best was named among them
// (study/best.h's rule, rows instead of ledger lines).
struct StudyTies {
  std::vector<size_t> rows;  // the tied rows, the best first (indices into StudyView::rows);
                             // empty when nothing is tied
  size_t leader = 0;         // the row with the best objective
  std::string by;            // "repeats" (overlapping 95 % intervals) or "confirm"
  std::string tie_break;     // the rule applied: "gpus:min,gpu_memory:min", "np:min"
  std::string decided_by;    // the key that named the best: a --prefer key, "objective", "trial"
};

// --confirm's outcome: the leader and the runner-up, each measured once more.
struct StudyConfirmation {
  size_t leader = 0;                 // rows
  size_t runner_up = 0;
  std::optional<double> leader_rerun;  // the reruns' objectives
  std::optional<double> runner_up_rerun;
  bool held = true;  // the leader's rerun was at least as good as the runner-up's
};

// A Pareto front over the study's rows.
struct StudyFront {
  std::string x_metric;        // the metric on x ("output_throughput_per_user", "ttft.p99")
  std::string y_metric;        // the metric on y ("output_throughput")
  bool maximize_x = true;      // whether more is better on x
  bool maximize_y = true;      // whether more is better on y
  std::vector<size_t> points;  // the rows that have both metrics (indices into StudyView::rows)
  std::vector<size_t> front;   // the rows on the front, by x ascending (indices into rows)
};

struct StudyView {
  StudyInfo info;
  std::vector<ParamSpace> spaces;        // info.spec.params parsed (empty when they do not parse)
  std::vector<std::string> param_names;  // the parameters, in --param order (then any other name
                                         // a record holds)
  // One row per configuration, by trial index: its record at the highest rung it reached (the
  // last ledger line among equals, so a resumed trial's rerun replaces its interrupted line:
  // study/best.h's study_row_lines).
  std::vector<TrialRecord> rows;
  std::vector<TrialRecord> superseded;  // the other ledger lines (earlier rungs, interrupted runs
                                        // done again), in ledger order
  bool halving = false;                 // the study ran successive halving (rungs shown)
  bool gpu = false;                     // some row has GPU memory figures
  std::optional<size_t> best;           // the best row (index into rows), if any qualifies
  std::string best_note;  // with a best row: a caveat ("" when none); without: why there is none
  StudyFront per_user;    // output tok/s per user (x, more is better) against output tok/s (y)
  StudyFront latency;     // TTFT p99 (x, less is better) against output tok/s (y)
  // What failed every time for the same reason, as --exclude expressions (study/suggest_exclude.h)
  std::vector<SuggestedExclude> suggested_excludes;
  // Output tok/s per user (x) against output tok/s per GPU (y), InferenceX's and vLLM's axes;
  // no points without GPU counts.
  StudyFront per_gpu;
  bool per_gpu_figures = false;  // some row has output tok/s per GPU (--gpus-per-trial)
  bool cost_figures = false;     // some row has a cost per million tokens (--gpu-hour-cost)
  bool repeats = false;          // some row has a 95 % interval (--num-runs K >= 2)
  bool slots = false;            // some row ran in a --slots slot (the Slot column)
  bool busy_client = false;      // some row's benchmark client was busy (TrialClient::busy)
  std::optional<StudyTies> ties;                  // with tied rows only
  std::optional<StudyConfirmation> confirmation;  // --confirm ran both reruns
  // Several --objective (study/multi_objective.h): the rows on the Pareto front over them, by
  // trial index: the study's answer instead of a best (`best` is then none, and `best_note` says
  // why the front is empty). With two objectives, `objective_chart` draws it: the second
  // objective on x, the first on y, the rows that ended ok as points.
  std::vector<size_t> front;
  StudyFront objective_chart;
};

// "tied within noise (95 % intervals of 3 repeats overlap): 0-a, 1-b; tie-break
// gpus:min,gpu_memory:min: 1-b (gpus 1)": the ties and the confirmation in words, one line
// each, for the text, the Markdown and the page; empty when there are none.
std::vector<std::string> ties_lines(const StudyView& view);

// "[85.2, 134.8]": a row's 95 % interval of its objective, "-" without one.
std::string interval_text(const TrialRecord& record);

// The view of a study. Records pass through their ledger line first (trial_to_json,
// trial_from_json), so a study's outputs are the same whether drawn from the records in memory or
// read back from study.jsonl. The rows and the best row are study/best.h's (study_row_lines,
// study_best): the rule the tune command's exit code follows too.
StudyView study_view(const StudyInfo& info, const std::vector<TrialRecord>& trials);

// A metric of a record, when present and finite; output_throughput_per_user falls back to
// output_throughput / concurrency.
std::optional<double> study_metric_value(const TrialRecord& record, std::string_view key);

// How a parameter's value reads in tables: a flag parameter's as "on" or "off", any other value as
// it is ("-" when empty).
std::string study_param_text(const StudyView& view, const std::string& name,
                             const std::string& value);

// The record's value of parameter `name` ("" when it has none).
std::string study_param_value(const TrialRecord& record, const std::string& name);

// "output_throughput (tok/s)": the objective with its unit.
std::string objective_heading(const StudyInfo& info);

// For a study whose objective is a --search answer (is_search_objective): what it is and whose
// metrics the table shows, e.g. "each trial's --search answer: the highest rate that met every
// --slo; the other figures are those of the probe at that rate". "" for any other objective.
std::string objective_note(const StudyInfo& info);

// The server command of `record` to paste: server_command_template (with {port}, or the --url's
// port), else (a ledger written before it was recorded) the command as run; "(not recorded)"
// when there is neither.
std::string paste_command(const TrialRecord& record);

// "1234.5 tok/s", "-" when absent.
std::string objective_text(const StudyInfo& info, std::optional<double> value);

// "12.3 s", "95 s", "-" when absent.
std::string seconds_text(std::optional<double> seconds);

// The GPU memory at its peak: the MiB in use on all GPUs over their total ("19344/46068"), "-"
// without GPU figures.
std::string gpu_text(const TrialRecord& record);

// "9 ok, 3 start_failed, 2 slo_violated": the rows by status, in the status's order.
std::string status_counts(const std::vector<TrialRecord>& rows);

// --- the study's table and blocks (study_text.cpp), shared by the text, Markdown and HTML ---

// The table: one row per StudyView::rows, the trial's label first; then its rung (halving only),
// each parameter, the status, the objective, TTFT/ITL/TPOT p50 and p99 (ms), output tok/s, failed
// requests and, when any row has them, the GPU memory at its peak (MiB in use/total). "-" where a
// value is absent.
TextTable study_table_cells(const StudyView& view);

// "14 trials (9 ok, 3 start_failed, 2 slo_violated); objective output_throughput, higher is
// better; strategy grid": the study in one line.
std::string study_headline(const StudyView& view);

// For successive halving: "rung 0: 27 configurations x 30 requests, 9 promoted; ..." ("" for other
// strategies or when study.json has no rungs).
std::string rungs_text(const StudyView& view);

// The rows that did not end ok and have a reason: (row index, "start_failed: ValueError: ...").
std::vector<std::pair<size_t, std::string>> study_reasons(const StudyView& view);

// The study's closing text (study_table in study_text.h).
std::string study_text(const StudyView& view);

// With --slots, when some row's client was busy: the note under the table that says what its
// mark in the Slot column means ("" otherwise).
std::string busy_client_note(const StudyView& view);

// The suggested exclusions as lines: "--exclude 'B<=1024 and cp==false'  (3 configurations,
// start_failed: ValueError: ...)", the expression quoted for a shell.
std::vector<std::string> suggested_exclude_lines(const StudyView& view);

// "mnbt=512 cp=true": the row's parameters as the table reads them.
std::string params_text(const StudyView& view, const TrialRecord& record);

}  // namespace llmperf::report_detail

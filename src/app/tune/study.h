// `llmperf tune` as a function: run_study starts the server under test once per configuration
// (or per rung of successive halving), benchmarks it with run_benchmark, appends each trial's
// outcome to the ledger study.jsonl as it ends, and writes the study's tables and charts. It
// prints only through StudyOptions::print and chooses no exit code (app/tune/tune_command.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "study/space.h"
#include "study/study_spec.h"
#include "study/trial.h"
#include "verdict/slo.h"

namespace llmperf {

// `--objective METRIC[.STAT][:max|:min]`.
struct Objective {
  Slo metric;             // the metric, in its natural unit (verdict/slo.h's parse_metric); for
                          // a per-GPU figure, output_throughput, which it is drawn from
  bool maximize = true;   // more is better
  // study/gpu_cost.h's kPerGpuMetric or kCostPerMtokMetric: the objective is that figure of the
  // metric, per the trial's GPUs and --gpu-hour-cost; "" for a metric of the run itself.
  std::string figure;
  std::string name() const;  // "output_throughput", "cost_per_mtok"
  std::string unit() const;  // "tok/s", "tok/s/GPU", "USD/Mtok"
  std::string text() const;  // "output_throughput:max"
};

// Parses --objective; rates and throughputs (and output_throughput_per_gpu) default to max, the
// rest (cost_per_mtok too) to min. Throws std::invalid_argument naming --objective.
Objective parse_objective(const std::string& text);

// A trial's GPU count from --gpus-per-trial's text, its templates filled in. Throws
// std::invalid_argument naming --gpus-per-trial unless it is a positive integer.
int gpu_count(const std::string& text);

// The objective's value from its metric's value in a run: the metric's itself, or its per-GPU
// figure for the trial's `gpus` and the spec's --gpu-hour-cost.
std::optional<double> objective_value(const Objective& objective, std::optional<double> metric,
                                      std::optional<int> gpus, const StudySpec& spec);

// Parses a trial's benchmark flags as `llmperf` would (cli/tune.h's tune_bench_config, which the
// caller passes in: the app stage does not read flags). Throws std::invalid_argument with the flags'
// error; `warnings` (when not null) receives the ignored-flag warnings.
using BenchFlagsParser =
    std::function<Config(const std::vector<std::string>& args, std::vector<std::string>* warnings)>;

struct StudyOptions {
  BenchFlagsParser parse_bench_flags;  // required
  std::string study_dir;  // where the study goes ("" = <--outputs-dir>/<timestamp>/tune)
  bool resume = false;    // study_dir holds a study to finish: keep its finished trials
  bool dry_run = false;   // print every trial's commands; start nothing, write nothing
  // Receives the study's lines for stdout as they come (one per trial as it ends, the dry run's
  // commands, the closing table). May be empty.
  std::function<void(const std::string&)> print;
  int stage = 0;  // the --stage this study is, from 1, recorded in its ledger (0: not staged)
};

struct StudyResult {
  std::string dir;                  // the study's directory
  std::vector<TrialRecord> trials;  // every trial (and rung), in ledger order
  // The index in `trials` of the best configuration: study/best.h's study_best, the rule the
  // study's text, files and page follow.
  std::optional<size_t> best;
  // Several --objective: the indices in `trials` of the Pareto front (study/multi_objective.h's
  // study_front), the study's answer instead of a best; empty with one objective.
  std::vector<size_t> front;
  std::string text;                 // the closing table and the best configuration
  bool interrupted = false;         // Ctrl-C cut the study short: it can be resumed
};

// Runs (or resumes) the study `spec` describes. Throws std::invalid_argument for flags the user
// must fix (a bad --param, template, --exclude, --objective or benchmark flag), found before any
// server starts, and std::runtime_error when the study's directory cannot be written.
StudyResult run_study(const StudySpec& spec, const StudyOptions& options);

// Where a study goes when --study-dir is not given: <--outputs-dir>/<timestamp>/tune, from the
// benchmark's flags (as run_study would, and with its errors).
std::string default_study_dir(const StudySpec& spec, const BenchFlagsParser& parse_bench_flags);

}  // namespace llmperf

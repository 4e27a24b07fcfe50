// What `llmperf tune` was asked to do: its own flags and the benchmark's, as given (templates not
// yet expanded). The study's directory keeps it as study.json, so that `--resume` and
// `llmperf report STUDYDIR` work from the directory alone.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace llmperf {

struct StudySpec {
  std::string serve;        // --serve: the server's command template, run through `sh -c`
  std::string stop_cmd;     // --stop-cmd: run (through `sh -c`) to stop it; "" = signals only
  std::string between_cmd;  // --between-cmd: run between repeated runs; "" = reset the cache
  std::vector<std::string> params;    // --param name=SPEC, in order
  std::string strategy = "grid";      // --strategy grid | random:N | halving[:ETA]
  std::string objective = "output_throughput";  // --objective METRIC[.STAT][:max|:min]
  // --objective given more than once: the second and later ones, in order. With any, the study
  // has several objectives and its answer is their Pareto front (study/multi_objective.h).
  std::vector<std::string> more_objectives;
  std::vector<std::string> excludes;  // --exclude EXPR
  int num_runs = 1;                   // --num-runs: benchmarks per trial (the median is kept)
  bool reset_cache = true;            // between repeats, POST the server's cache-reset endpoint
  double ready_timeout_s = 900;       // --ready-timeout
  double stop_timeout_s = 30;         // --stop-timeout: SIGTERM to SIGKILL
  std::vector<std::string> bench_args;  // the benchmark's flags, in order, templates unexpanded
  std::vector<std::string> stages;      // --stage, in order (stages.h); empty: one study
  std::string python;  // --python: the Python of the learned searches' Optuna bridge ("" = look)

  // A winner only when it is one, and per GPU and per dollar (issue 39, items 3 and 6).
  std::string prefer;         // --prefer: the tie-break among tied configurations (prefer.h);
                              // "" = fewer GPUs, then less GPU memory
  bool confirm = false;       // --confirm: without repeats, rerun the leader and the runner-up
  // --gpus-per-trial: each trial's GPU count, a number or a template ("{tp}": a parameter's
  // value, so that tensor parallelism 1 and 2 count 1 and 2 GPUs); "" = not given.
  std::string gpus_per_trial;
  double gpu_hour_cost = 0;   // --gpu-hour-cost: the price of one GPU-hour; 0 = not given

  // --slots: what each trial run side by side gets (slots.h), as given; "" = one trial at a time.
  std::string slots;
};

// Every --objective, in order: `objective`, then `more_objectives`.
std::vector<std::string> spec_objectives(const StudySpec& spec);

// study.json's "spec" object, and back. The reader throws std::invalid_argument naming the field.
nlohmann::json to_json(const StudySpec& spec);
StudySpec study_spec_from_json(const nlohmann::json& json);

}  // namespace llmperf

// Staged studies (`llmperf tune --stage`): the parameters searched stage by stage, in the order
// given, each stage fixing what the one before found best. This is vLLM's tuning recipes' order:
// the parallel layout first, then the concurrency, then the scheduler's settings, so that a study
// of three 3-value parameters runs 3 + 3 + 3 trials instead of 27. Pure: app/tune/staged_study.cpp
// runs the stages, each as a study of its own.
//
// A --stage lists the parameters it searches as --param writes them, separated by ';':
//   --stage 'tp=1,2,4'  --stage 'mns=64,128,256;mnbt=2048,8192'
// Until its own stage, a parameter takes its --param value (which must then be a single one:
// --param mnbt=2048), or else the first value its stage lists. A --param in no stage must have a
// single value: it is the same in every stage.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "study/space.h"
#include "study/study_spec.h"

namespace llmperf {

// One --stage.
struct Stage {
  std::string text;                // as given
  std::vector<ParamSpace> params;  // what it searches, in its order
};

// Parses every --stage against --param's spaces (`params`, parse_params'). Throws
// std::invalid_argument naming the flag and the text: a stage with no parameter or a malformed one,
// a parameter in two stages, a --param of several values that a stage also lists or that no stage
// lists.
std::vector<Stage> parse_stages(const std::vector<std::string>& texts,
                                const std::vector<ParamSpace>& params);

// What the stages before one chose: for each of their parameters, in stage order, the values it
// is fixed to (the best configuration's value).
using StageChoices = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The --param texts of stage `k`'s study (0-based): the parameters of the stages before it fixed
// to `chosen`, stage k's as it lists them, later stages' at their --param value or else the first
// value their stage lists, then the --params in no stage; in that order. A fixed flag parameter
// reads flag-on:TEXT or flag-off:TEXT (space.h).
std::vector<std::string> stage_param_texts(const std::vector<Stage>& stages, size_t k,
                                           const std::vector<ParamSpace>& params,
                                           const StageChoices& chosen);

// The names a stage searches, joined: "mns, mnbt".
std::string stage_names(const Stage& stage);

// A stage's directory in the study's: "stage_1_tp", "stage_2_mns_mnbt" (k 0-based).
std::string stage_dir_name(const Stage& stage, size_t k);

// How one stage went, for the path through the stages (report/study/stage_path.h).
struct StageOutcome {
  std::string text;       // the --stage as given
  std::string dir;        // its study's directory, relative to the staged study's
  StageChoices fixed;     // what the stages before it fixed
  size_t trials = 0;      // its trials (rungs counted once)
  std::optional<std::string> best_label;  // its best configuration's label; none: the path ends
  std::optional<double> best_objective;
  StageChoices chosen;    // what it fixes for the stages after it (its parameters' best values)
  std::string why_ended;  // when the path ends here: "no configuration met every --slo", ...
};

// The path as a staged study's directory `dir` holds it: each stage's study read back in turn
// (study_file.h) and its best found by study/best.h's rule, until a stage whose directory is not
// there yet or that has no best. `spec` is the staged study's (its --param and --stage). Throws
// as read_study_dir does.
std::vector<StageOutcome> read_stage_path(const std::string& dir, const StudySpec& spec);

}  // namespace llmperf

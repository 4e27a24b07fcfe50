// A staged study's own files (`llmperf tune --stage`), beside its stages' directories (each a
// study with its usual files): stages.json (schema "llmperf.study.stages/1"), stages.md and
// study.html, each the path through the stages: what each searched, what the stages before it had
// fixed, its best configuration and what it fixed in turn, and where the path ended early.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "study/stages.h"
#include "study/study_file.h"

namespace llmperf {

inline constexpr std::string_view kStagesSchema = "llmperf.study.stages/1";

// What stages fixed, as the path and each stage's heading show it: "tp=2, mns=64|128" (a tied
// set's values joined by |, a flag off as "off"); "-" when nothing is fixed.
std::string stage_choices_text(const StageChoices& choices);

// The path as text for the terminal (and stages.md, as a Markdown table).
std::string stage_path_text(const StudyInfo& info, const std::vector<StageOutcome>& stages);

// Writes stages.json, stages.md and study.html into `dir`, each atomically, and returns the
// terminal text. `info` is the staged study's (its spec lists the stages; its objective is each
// stage's). Throws std::runtime_error naming the file that cannot be written.
std::string write_stage_path_outputs(const std::string& dir, const StudyInfo& info,
                                     const std::vector<StageOutcome>& stages);

}  // namespace llmperf

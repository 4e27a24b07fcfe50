// `llmperf tune --stage ...`: the stages run in order, each a study of its own in a directory of
// the staged study's (stage_1_tp/, ...), whose parameters are fixed by the stages before it
// (study/stages.h). The staged study's directory holds study.json (the whole spec, for --resume)
// and the path through the stages (report/study/stage_path.h).
#pragma once

#include "app/tune/study.h"

namespace llmperf {

// Runs (or, with options.resume, resumes) the stages of `spec` (spec.stages not empty). Each stage
// prints as a study does, then a line says what it fixed; the path closes the output. The result
// is the last stage run's, with `dir` the staged study's: its best is the path's end. Stops at a
// stage that found no best configuration or was interrupted. Throws as run_study does, and
// std::invalid_argument for --stage and --param that do not fit together.
StudyResult run_staged_study(const StudySpec& spec, const StudyOptions& options);

}  // namespace llmperf

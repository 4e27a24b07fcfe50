// `llmperf tune`: runs the study (app/tune/study.h), prints its lines as they come, and chooses
// the exit code.
#pragma once

#include "app/tune/study.h"

namespace llmperf {

// Runs `llmperf tune` and returns the process exit code: 0 when a best configuration was found
// (or --dry-run), 3 when trials were benchmarked but none met every --slo, 1 when no trial could
// be benchmarked, 2 for flags to fix, 130 when interrupted. With options.resume, `spec` is read
// from options.study_dir's study.json. options.print is set here (stdout).
int tune_command(StudySpec spec, StudyOptions options);

// The exit code of a finished study, as above.
int study_exit_code(const StudyResult& result);

}  // namespace llmperf

// `llmperf tune`: its own flags (CLI11), with every other argument kept, in order, as the
// benchmark's flags of each trial. The study itself is app/tune/.
#pragma once

#include <string>
#include <vector>

#include "core/command_outcome.h"
#include "core/config.h"
#include "study/study_spec.h"

namespace llmperf {

struct TuneCli {
  bool proceed = false;       // true: run (or --dry-run) the study
  CommandOutcome outcome;     // when !proceed: help (exit 0) or a usage error (exit 2)
  StudySpec spec;             // the study (from study.json with --resume)
  std::string resume_dir;     // --resume DIR: the study directory to finish
  std::string study_dir;      // --study-dir DIR ("" = <--outputs-dir>/<timestamp>/tune)
  bool dry_run = false;       // --dry-run: print every trial's commands, start nothing
};

// Parses `llmperf tune ...` (argv[1] is "tune").
TuneCli parse_tune(int argc, const char* const* argv);

// Parses one trial's benchmark flags as `llmperf` would (parse_cli). Throws std::invalid_argument
// with the flags' error; `warnings` (when not null) receives the ignored-flag warnings.
Config tune_bench_config(const std::vector<std::string>& args, std::vector<std::string>* warnings);

}  // namespace llmperf

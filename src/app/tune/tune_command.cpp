// `llmperf tune`'s front: --resume reads the study's flags back, the study runs, its lines go to
// stdout as they come, and the outcome picks the exit code.
#include "app/tune/tune_command.h"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "app/tune/server_process.h"
#include "app/tune/staged_study.h"
#include "core/exit_codes.h"
#include "study/study_file.h"

namespace llmperf {

int study_exit_code(const StudyResult& result) {
  if (result.interrupted) {
    spdlog::warn("interrupted: the study so far is in {}; finish it with llmperf tune --resume {}",
                 result.dir, result.dir);
    return kExitInterrupted;
  }
  if (result.best || !result.front.empty()) return kExitOk;  // a best, or several objectives' front
  bool benchmarked = false;
  for (const TrialRecord& trial : result.trials) {
    benchmarked = benchmarked || trial.status == TrialStatus::kOk ||
                  trial.status == TrialStatus::kSloViolated;
  }
  if (benchmarked) {
    spdlog::error("no configuration met every --slo");
    return kExitVerdict;
  }
  if (!result.trials.empty()) spdlog::error("no configuration could be benchmarked");
  return result.trials.empty() ? kExitOk : kExitCannotProceed;
}

int tune_command(StudySpec spec, StudyOptions options) {
  options.print = [](const std::string& text) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  };
  try {
    if (options.resume) {
      // --python and --slots may be given again: the machine that resumes may keep Optuna
      // elsewhere, or have other GPUs free.
      const std::string python = spec.python;
      const std::string slots = spec.slots;
      spec = read_study_info(options.study_dir).spec;
      if (!python.empty()) spec.python = python;
      if (!slots.empty()) spec.slots = slots;
    }
    const StudyResult result =
        spec.stages.empty() ? run_study(spec, options) : run_staged_study(spec, options);
    if (options.dry_run) return kExitOk;
    return study_exit_code(result);
  } catch (const std::invalid_argument& error) {
    stop_all_servers();
    spdlog::error("{}", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    stop_all_servers();
    spdlog::error("{}", error.what());
    return kExitCannotProceed;
  }
}

}  // namespace llmperf

// The stages of a staged study, one study each (staged_study.h).
#include "app/tune/staged_study.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "core/clock.h"
#include "core/version.h"
#include "report/study/stage_path.h"
#include "study/stages.h"
#include "study/study_file.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

// Why a stage that ran gave no best, when it was cut short.
constexpr const char* kStageInterrupted = "interrupted (--resume goes on from here)";

}  // namespace

StudyResult run_staged_study(const StudySpec& spec, const StudyOptions& options) {
  const std::vector<ParamSpace> params = parse_params(spec.params);
  if (!spec.more_objectives.empty()) {
    throw std::invalid_argument(
        "--stage fixes each stage's best for the next, and several --objective give a Pareto "
        "front instead of a best: give one --objective with --stage");
  }
  const std::vector<Stage> stages = parse_stages(spec.stages, params);
  const auto print = [&](const std::string& text) {
    if (options.print) options.print(text);
  };

  // Stage 1's study, which every later one is like but for its parameters.
  StudySpec first = spec;
  first.stages.clear();
  first.params = stage_param_texts(stages, 0, params, {});
  const std::string dir = options.study_dir.empty()
                              ? default_study_dir(first, options.parse_bench_flags)
                              : options.study_dir;

  if (options.dry_run) {
    std::string out =
        fmt::format("llmperf tune --dry-run: {} stage(s), in order:\n", stages.size());
    for (size_t k = 0; k < stages.size(); ++k) {
      out += fmt::format("  stage {}: {} ({})\n", k + 1, stages[k].text,
                         k == 0 ? "the other parameters at their --param value or their stage's "
                                  "first"
                                : "the stages before it fixed at their best");
    }
    print(out + "Stage 1:\n");
    StudyOptions stage_options = options;
    stage_options.study_dir = (fs::path(dir) / stage_dir_name(stages[0], 0)).string();
    StudyResult result = run_study(first, stage_options);
    result.dir = dir;
    return result;
  }

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", dir, ec.message()));
  StudyInfo info;
  if (options.resume && fs::exists(fs::path(dir) / kStudyFileName)) {
    info = read_study_info(dir);
  } else {
    info.spec = spec;
    info.version = std::string("llmperf ") + kLlmperfVersion;
    info.started = wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
  }

  std::vector<StageOutcome> path;  // the stages so far, read back from their directories
  StudyResult result;
  for (size_t k = 0; k < stages.size(); ++k) {
    StageChoices chosen;
    for (const StageOutcome& done : path) {
      chosen.insert(chosen.end(), done.chosen.begin(), done.chosen.end());
    }
    StudySpec stage_spec = first;
    stage_spec.params = stage_param_texts(stages, k, params, chosen);
    StudyOptions stage_options = options;
    stage_options.study_dir = (fs::path(dir) / stage_dir_name(stages[k], k)).string();
    stage_options.resume = fs::exists(fs::path(stage_options.study_dir) / kStudyFileName);
    stage_options.stage = static_cast<int>(k + 1);
    print(fmt::format(
        "{}== stage {} of {}: {}{}\n", k == 0 ? "" : "\n", k + 1, stages.size(), stages[k].text,
        chosen.empty() ? std::string()
                       : fmt::format(" (the stages before fixed {})", stage_choices_text(chosen))));
    result = run_study(stage_spec, stage_options);
    // The staged study's objective is its stages' (the same flags give the same one).
    const StudyInfo stage_info = read_study_info(stage_options.study_dir);
    info.objective = stage_info.objective;
    info.unit = stage_info.unit;
    info.maximize = stage_info.maximize;
    info.strategy = stage_info.strategy;
    info.seed = stage_info.seed;
    path = read_stage_path(dir, spec);
    if (result.interrupted && path.size() > k) {
      path[k].best_label.reset();
      path[k].why_ended = kStageInterrupted;
    }
    if (result.interrupted || path.size() <= k || !path[k].best_label) break;
  }
  write_study_file(dir, info);
  const std::string text = write_stage_path_outputs(dir, info, path);
  print("\n" + text);
  result.dir = dir;
  result.text += text;
  return result;
}

}  // namespace llmperf

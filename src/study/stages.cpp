// --stage parsed, and each stage's parameters (stages.h).
#include "study/stages.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "study/best.h"
#include "study/study_file.h"

namespace llmperf {
namespace {

const ParamSpace* find_space(const std::vector<ParamSpace>& spaces, std::string_view name) {
  for (const ParamSpace& space : spaces) {
    if (space.name == name) return &space;
  }
  return nullptr;
}

// The --param text fixing `space` to `values` (one, or a tied set): choices, or for a flag
// flag-on/flag-off when one value, flag when both.
std::string fixed_param_text(const ParamSpace& space, const std::vector<std::string>& values) {
  if (space.kind == ParamKind::kFlag) {
    const bool on = std::find(values.begin(), values.end(), space.flag) != values.end();
    const bool off = std::find(values.begin(), values.end(), "") != values.end();
    const char* kind = on && off ? "flag" : on ? "flag-on" : "flag-off";
    return fmt::format("{}={}:{}", space.name, kind, space.flag);
  }
  return fmt::format("{}={}", space.name, fmt::join(values, ","));
}

// Why a stage has no best, as `llmperf tune`'s exit code says it.
std::string why_no_best(NoBestReason why) {
  switch (why) {
    case NoBestReason::kNone:
      return "";
    case NoBestReason::kNoTrials:
      return "no trial has finished";
    case NoBestReason::kNoObjective:
      return "no trial has a value of the objective";
    case NoBestReason::kNoneMetSlo:
      return "no configuration met every --slo";
    case NoBestReason::kNoneBenchmarked:
      return "no configuration could be benchmarked";
  }
  return "";
}

}  // namespace

std::vector<Stage> parse_stages(const std::vector<std::string>& texts,
                                const std::vector<ParamSpace>& params) {
  std::vector<Stage> stages;
  for (const std::string& text : texts) {
    Stage stage;
    stage.text = text;
    for (std::string_view part : split_text(text, ';')) {
      part = trim(part);
      if (part.empty()) continue;
      ParamSpace space;
      try {
        space = parse_param(part);
      } catch (const std::invalid_argument& error) {
        std::string why = error.what();
        if (why.starts_with("--param ")) why.erase(0, 8);
        throw std::invalid_argument(fmt::format("--stage '{}': {}", text, why));
      }
      if (grid_value_count(space) < 2) {
        throw std::invalid_argument(fmt::format(
            "--stage '{}': '{}' has one value: a stage searches several (give one value with "
            "--param)",
            text, space.name));
      }
      for (const Stage& earlier : stages) {
        if (find_space(earlier.params, space.name)) {
          throw std::invalid_argument(fmt::format("--stage '{}': '{}' is already in --stage '{}'",
                                                  text, space.name, earlier.text));
        }
      }
      if (find_space(stage.params, space.name)) {
        throw std::invalid_argument(
            fmt::format("--stage '{}': '{}' is listed twice", text, space.name));
      }
      if (const ParamSpace* given = find_space(params, space.name);
          given && grid_value_count(*given) != 1) {
        throw std::invalid_argument(fmt::format(
            "--param '{}={}': '{}' is searched by --stage '{}', so --param may only give the one "
            "value it takes until then",
            given->name, given->spec, given->name, text));
      }
      stage.params.push_back(std::move(space));
    }
    if (stage.params.empty()) {
      throw std::invalid_argument(fmt::format(
          "--stage '{}': no parameter (write NAME=SPEC as --param does, several separated by "
          "';')",
          text));
    }
    stages.push_back(std::move(stage));
  }
  for (const ParamSpace& given : params) {
    bool staged = false;
    for (const Stage& stage : stages) staged = staged || find_space(stage.params, given.name);
    if (!staged && grid_value_count(given) != 1) {
      throw std::invalid_argument(fmt::format(
          "--param '{}={}': with --stage, a parameter that no stage searches takes one value "
          "(add it to a --stage to search it)",
          given.name, given.spec));
    }
  }
  return stages;
}

std::vector<std::string> stage_param_texts(const std::vector<Stage>& stages, size_t k,
                                           const std::vector<ParamSpace>& params,
                                           const StageChoices& chosen) {
  std::vector<std::string> texts;
  for (size_t s = 0; s < stages.size(); ++s) {
    for (const ParamSpace& space : stages[s].params) {
      if (s == k) {
        texts.push_back(fmt::format("{}={}", space.name, space.spec));
        continue;
      }
      if (s < k) {
        const auto it = std::find_if(chosen.begin(), chosen.end(),
                                     [&](const auto& choice) { return choice.first == space.name; });
        if (it != chosen.end()) {
          texts.push_back(fixed_param_text(space, it->second));
          continue;
        }
      }
      const ParamSpace* given = find_space(params, space.name);
      texts.push_back(given ? fmt::format("{}={}", given->name, given->spec)
                            : fixed_param_text(space, {grid_values(space).front()}));
    }
  }
  for (const ParamSpace& given : params) {
    bool staged = false;
    for (const Stage& stage : stages) staged = staged || find_space(stage.params, given.name);
    if (!staged) texts.push_back(fmt::format("{}={}", given.name, given.spec));
  }
  return texts;
}

std::string stage_names(const Stage& stage) {
  std::vector<std::string> names;
  for (const ParamSpace& space : stage.params) names.push_back(space.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string stage_dir_name(const Stage& stage, size_t k) {
  std::string dir = fmt::format("stage_{}", k + 1);
  for (const ParamSpace& space : stage.params) dir += "_" + space.name;
  return dir;
}

std::vector<StageOutcome> read_stage_path(const std::string& dir, const StudySpec& spec) {
  const std::vector<ParamSpace> params = parse_params(spec.params);
  const std::vector<Stage> stages = parse_stages(spec.stages, params);
  std::vector<StageOutcome> path;
  StageChoices chosen;
  for (size_t k = 0; k < stages.size(); ++k) {
    StageOutcome outcome;
    outcome.text = stages[k].text;
    outcome.dir = stage_dir_name(stages[k], k);
    outcome.fixed = chosen;
    const std::string stage_dir = (std::filesystem::path(dir) / outcome.dir).string();
    if (!is_study_dir(stage_dir)) break;
    const StudyDir study = read_study_dir(stage_dir);
    const std::vector<TrialRecord>& trials = study.ledger.trials;
    std::vector<int64_t> seen;  // each configuration once (halving's rungs are one trial)
    for (const TrialRecord& trial : trials) {
      if (std::find(seen.begin(), seen.end(), trial.trial) == seen.end()) seen.push_back(trial.trial);
    }
    outcome.trials = seen.size();
    const StudyBest best = study_best(trials, study.info.rungs.size(), study.info.maximize);
    if (!best.trial) {
      outcome.why_ended = why_no_best(best.why_none);
      path.push_back(std::move(outcome));
      break;
    }
    const TrialRecord& record = trials[*best.trial];
    outcome.best_label = record.label;
    outcome.best_objective = record.objective;
    for (const ParamSpace& space : stages[k].params) {
      for (const auto& [name, value] : record.params) {
        if (name == space.name) outcome.chosen.emplace_back(name, std::vector<std::string>{value});
      }
    }
    chosen.insert(chosen.end(), outcome.chosen.begin(), outcome.chosen.end());
    path.push_back(std::move(outcome));
  }
  return path;
}

}  // namespace llmperf

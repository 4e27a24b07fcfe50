// study.json's "spec" object: every field by name, so that an older or newer llmperf can read it.
#include "study/study_spec.h"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

template <typename T>
void read(const nlohmann::json& json, const char* key, T& field) {
  const auto it = json.find(key);
  if (it == json.end()) return;  // absent: the default
  try {
    field = it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(fmt::format("study.json: \"{}\" has the wrong type", key));
  }
}

}  // namespace

std::vector<std::string> spec_objectives(const StudySpec& spec) {
  std::vector<std::string> all = {spec.objective};
  all.insert(all.end(), spec.more_objectives.begin(), spec.more_objectives.end());
  return all;
}

nlohmann::json to_json(const StudySpec& spec) {
  nlohmann::json json = {{"serve", spec.serve},
          {"stop_cmd", spec.stop_cmd},
          {"between_cmd", spec.between_cmd},
          {"params", spec.params},
          {"strategy", spec.strategy},
          {"objective", spec.objective},
          {"excludes", spec.excludes},
          {"num_runs", spec.num_runs},
          {"reset_cache", spec.reset_cache},
          {"ready_timeout_s", spec.ready_timeout_s},
          {"stop_timeout_s", spec.stop_timeout_s},
          {"bench_args", spec.bench_args}};
  // Several objectives: all of them, in order ("objective" keeps the first, as older llmperfs
  // read it); one objective writes the study.json it did before.
  if (!spec.more_objectives.empty()) json["objectives"] = spec_objectives(spec);
  if (!spec.stages.empty()) json["stages"] = spec.stages;  // only a staged study's
  if (!spec.python.empty()) json["python"] = spec.python;  // only when given: older studies match
  // Only when given, so that a study that uses none of them writes the study.json it did before.
  if (!spec.prefer.empty()) json["prefer"] = spec.prefer;
  if (spec.confirm) json["confirm"] = spec.confirm;
  if (!spec.gpus_per_trial.empty()) json["gpus_per_trial"] = spec.gpus_per_trial;
  if (spec.gpu_hour_cost > 0) json["gpu_hour_cost"] = spec.gpu_hour_cost;
  if (!spec.slots.empty()) json["slots"] = spec.slots;
  return json;
}

StudySpec study_spec_from_json(const nlohmann::json& json) {
  if (!json.is_object()) throw std::invalid_argument("study.json: \"spec\" is not an object");
  StudySpec spec;
  read(json, "serve", spec.serve);
  read(json, "stop_cmd", spec.stop_cmd);
  read(json, "between_cmd", spec.between_cmd);
  read(json, "params", spec.params);
  read(json, "strategy", spec.strategy);
  read(json, "objective", spec.objective);
  read(json, "excludes", spec.excludes);
  std::vector<std::string> objectives;
  read(json, "objectives", objectives);
  if (!objectives.empty()) {
    spec.objective = objectives.front();
    spec.more_objectives.assign(objectives.begin() + 1, objectives.end());
  }
  read(json, "num_runs", spec.num_runs);
  read(json, "reset_cache", spec.reset_cache);
  read(json, "ready_timeout_s", spec.ready_timeout_s);
  read(json, "stop_timeout_s", spec.stop_timeout_s);
  read(json, "bench_args", spec.bench_args);
  read(json, "stages", spec.stages);
  read(json, "python", spec.python);
  read(json, "prefer", spec.prefer);
  read(json, "confirm", spec.confirm);
  read(json, "gpus_per_trial", spec.gpus_per_trial);
  read(json, "gpu_hour_cost", spec.gpu_hour_cost);
  read(json, "slots", spec.slots);
  if (spec.serve.empty()) throw std::invalid_argument("study.json: \"serve\" is missing");
  return spec;
}

}  // namespace llmperf

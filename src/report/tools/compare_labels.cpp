// The column names of `llmperf compare`: each deployment's --label, else its run name or model.
// Two deployments of one model would share a column name, so colliding names are told apart by
// what differs between them, in this order: --name, the server's identity ("llama.cpp b4719",
// "vLLM 0.11.0"), the config values that differ ("in 300 out 64" against "in 100 out 32"), and
// last the directory. What still collides is warned about.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/views.h"

namespace llmperf::report_detail {
namespace {

using nlohmann::json;

// Config keys that say nothing about the deployment or its load (where outputs went, how the
// results are judged or printed), or that another step shows (the name).
const std::set<std::string> kNotTellingKeys = {"outputs_dir",
                                               "name",
                                               "api_key",
                                               "headers",
                                               "log_every_n_query",
                                               "debug",
                                               "junit",
                                               "baseline",
                                               "start_at_unix_ns",
                                               "percentiles",
                                               "percentile_metrics",
                                               "metric_percentiles",
                                               "slo",
                                               "goodput",
                                               "tolerance"};

// At most this many differing config values in a label.
constexpr size_t kMaxConfigValues = 3;

std::string config_value_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "none";
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const json& item : value) items.push_back(config_value_text(item));
    return fmt::format("{}", fmt::join(items, ","));
  }
  return value.dump();
}

// "in 300 out 64", "dataset sharegpt": the members' config values where they differ from the
// others' in `group`; input and output lengths first, then the other keys alphabetically.
std::vector<std::string> config_differences(const std::vector<DeploymentFacts>& facts,
                                            const std::vector<size_t>& group) {
  std::set<std::string> keys;
  for (const size_t i : group) {
    if (!facts[i].config.is_object()) continue;
    for (const auto& [key, value] : facts[i].config.items()) {
      if (!kNotTellingKeys.contains(key)) keys.insert(key);
    }
  }
  std::vector<std::string> ordered;
  for (const char* first : {"input_tokens", "output_tokens"}) {
    if (keys.erase(first) > 0) ordered.push_back(first);
  }
  ordered.insert(ordered.end(), keys.begin(), keys.end());
  const auto value_of = [&](size_t i, const std::string& key) {
    const json& config = facts[i].config;
    return config.is_object() && config.contains(key) ? config.at(key) : json();
  };
  std::vector<std::string> differing;
  for (const std::string& key : ordered) {
    const json first = value_of(group.front(), key);
    const bool differs = std::any_of(group.begin(), group.end(),
                                     [&](size_t i) { return value_of(i, key) != first; });
    if (differs) differing.push_back(key);
  }
  if (differing.size() > kMaxConfigValues) differing.resize(kMaxConfigValues);
  std::vector<std::string> texts;
  for (const size_t i : group) {
    std::vector<std::string> parts;
    for (const std::string& key : differing) {
      const std::string name = key == "input_tokens" ? "in" : key == "output_tokens" ? "out" : key;
      parts.push_back(name + " " + config_value_text(value_of(i, key)));
    }
    texts.push_back(fmt::format("{}", fmt::join(parts, " ")));
  }
  return texts;
}

std::string compose(const std::string& base, const std::vector<std::string>& parts) {
  if (parts.empty()) return base;
  return fmt::format("{} ({})", base, fmt::join(parts, ", "));
}

// The indices of each group of deployments whose current labels are equal (groups of two or more).
std::vector<std::vector<size_t>> collisions(const std::vector<std::string>& labels) {
  std::map<std::string, std::vector<size_t>> by_label;
  for (size_t i = 0; i < labels.size(); ++i) by_label[labels[i]].push_back(i);
  std::vector<std::vector<size_t>> groups;
  for (auto& [label, group] : by_label) {
    if (group.size() > 1) groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace

std::vector<std::string> deployment_labels(const std::vector<DeploymentFacts>& facts,
                                           std::vector<std::string>* warnings) {
  std::vector<std::vector<std::string>> parts(facts.size());
  std::vector<std::string> labels;
  for (const auto& f : facts) labels.push_back(f.label);
  // Each step gives every member of a colliding group its text; it is used when they differ.
  using Step = std::function<std::vector<std::string>(const std::vector<size_t>&)>;
  const auto each = [&](std::function<std::string(const DeploymentFacts&)> text) -> Step {
    return [&facts, text](const std::vector<size_t>& group) {
      std::vector<std::string> texts;
      for (const size_t i : group) texts.push_back(text(facts[i]));
      return texts;
    };
  };
  const std::vector<Step> steps = {
      each([](const DeploymentFacts& f) { return f.name; }),
      each([](const DeploymentFacts& f) {
        return f.server.empty() ? std::string("server unknown") : f.server;
      }),
      [&facts](const std::vector<size_t>& group) { return config_differences(facts, group); },
      each([](const DeploymentFacts& f) { return f.dir; }),
  };
  for (const Step& step : steps) {
    for (const auto& group : collisions(labels)) {
      const std::vector<std::string> texts = step(group);
      if (std::all_of(texts.begin(), texts.end(),
                      [&](const std::string& t) { return t == texts.front(); })) {
        continue;
      }
      for (size_t k = 0; k < group.size(); ++k) {
        const size_t i = group[k];
        if (!texts[k].empty()) parts[i].push_back(texts[k]);
        labels[i] = compose(facts[i].label, parts[i]);
      }
    }
  }
  for (const auto& group : collisions(labels)) {
    std::vector<std::string> dirs;
    for (const size_t i : group) dirs.push_back(facts[i].dir);
    warnings->push_back(fmt::format(
        "{} deployments cannot be told apart (same name, server, config and directory): {}; "
        "their columns are all labelled \"{}\" (give --label)",
        group.size(), fmt::join(dirs, ", "), labels[group.front()]));
  }
  return labels;
}

}  // namespace llmperf::report_detail

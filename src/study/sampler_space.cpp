// The learned searches' pure parts (sampler_space.h): the encoding of parameters for Optuna, the
// bridge's JSON lines, and the search budget.
#include "study/sampler_space.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "study/numbers.h"

namespace llmperf {
namespace {

using BridgeJson = nlohmann::json;  // not `json`: in a unity build it would shadow parameters named so
using study_detail::parse_finite_double;
using study_detail::parse_int64;

// The numbers of a list, if every value is one.
std::optional<std::vector<double>> list_numbers(const std::vector<std::string>& values) {
  std::vector<double> numbers;
  for (const std::string& value : values) {
    double number = 0;
    if (!parse_finite_double(value, number)) return std::nullopt;
    numbers.push_back(number);
  }
  return numbers;
}

bool is_ordered(const ParamSpace& space) {
  switch (space.kind) {
    case ParamKind::kInt:
    case ParamKind::kFloat:
    case ParamKind::kLog:
      return true;
    case ParamKind::kChoices:
      return list_numbers(space.choices).has_value();
    case ParamKind::kFlag:
      return false;
  }
  return false;
}

// Largest over smallest of positive magnitudes; infinity when one is 0.
double irregularity(const std::vector<double>& steps) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0;
  for (double step : steps) {
    lo = std::min(lo, std::fabs(step));
    hi = std::max(hi, std::fabs(step));
  }
  return lo > 0 ? hi / lo : std::numeric_limits<double>::infinity();
}

BridgeJson parse_line(std::string_view line) {
  BridgeJson answer;
  try {
    answer = BridgeJson::parse(line);
  } catch (const BridgeJson::exception& error) {
    throw std::invalid_argument(fmt::format("the Optuna bridge's answer is not JSON ({}): {}",
                                            error.what(), line.substr(0, 200)));
  }
  if (!answer.is_object()) {
    throw std::invalid_argument(fmt::format("the Optuna bridge's answer is not a JSON object: {}",
                                            line.substr(0, 200)));
  }
  if (const auto error = answer.find("error"); error != answer.end() && error->is_string()) {
    throw std::invalid_argument("the Optuna bridge: " + error->get<std::string>());
  }
  return answer;
}

BridgeJson outcome_json(const SamplerOutcome& outcome) {
  BridgeJson request = {{"feasible", outcome.feasible}};
  if (!outcome.values.empty()) request["values"] = outcome.values;
  if (!outcome.feasible) request["reason"] = outcome.reason;
  return request;
}

}  // namespace

NumberSpacing number_spacing(const std::vector<double>& values) {
  if (values.size() < 3) return NumberSpacing::kLinear;
  std::vector<double> differences;
  std::vector<double> log_ratios;
  for (size_t i = 1; i < values.size(); ++i) {
    if (!(values[i - 1] > 0) || !(values[i] > 0)) return NumberSpacing::kLinear;
    differences.push_back(values[i] - values[i - 1]);
    log_ratios.push_back(std::log(values[i] / values[i - 1]));
  }
  const bool rising = differences.front() > 0;
  for (double difference : differences) {
    if (difference == 0 || (difference > 0) != rising) return NumberSpacing::kLinear;
  }
  return irregularity(log_ratios) < irregularity(differences) ? NumberSpacing::kLog
                                                              : NumberSpacing::kLinear;
}

std::string SamplerParam::describe() const {
  if (!ordered) return fmt::format("{}: {} values, categorical", name, choices.size());
  return fmt::format("{}: {} numbers, {}, an index 0..{}", name, count,
                     spacing == NumberSpacing::kLog ? "log-spaced" : "linear", count - 1);
}

std::vector<SamplerParam> sampler_params(const std::vector<ParamSpace>& spaces) {
  std::vector<SamplerParam> params;
  for (const ParamSpace& space : spaces) {
    SamplerParam param;
    param.name = space.name;
    param.ordered = is_ordered(space);
    param.count = grid_value_count(space);
    if (!param.ordered) {
      param.choices = grid_values(space);
    } else if (space.kind == ParamKind::kLog) {
      param.spacing = NumberSpacing::kLog;
    } else if (space.kind == ParamKind::kChoices) {
      param.spacing = number_spacing(*list_numbers(space.choices));
    }
    params.push_back(std::move(param));
  }
  return params;
}

std::string sampler_value(const ParamSpace& space, uint64_t index) {
  const uint64_t count = grid_value_count(space);
  if (index >= count) {
    throw std::invalid_argument(fmt::format("the Optuna bridge: index {} of '{}' is out of range "
                                            "(0..{})",
                                            index, space.name, count - 1));
  }
  if (space.kind == ParamKind::kInt) {
    return fmt::format("{}", static_cast<int64_t>(static_cast<uint64_t>(space.int_lo) +
                                                  index * static_cast<uint64_t>(space.int_step)));
  }
  return grid_values(space)[index];
}

std::optional<uint64_t> sampler_index(const ParamSpace& space, const std::string& value) {
  if (space.kind == ParamKind::kInt) {
    int64_t number = 0;
    if (!parse_int64(value, number) || number < space.int_lo || number > space.int_hi) {
      return std::nullopt;
    }
    const uint64_t offset = static_cast<uint64_t>(number) - static_cast<uint64_t>(space.int_lo);
    if (offset % static_cast<uint64_t>(space.int_step) != 0) return std::nullopt;
    return offset / static_cast<uint64_t>(space.int_step);
  }
  const std::vector<std::string> values = grid_values(space);
  const auto at = std::find(values.begin(), values.end(), value);
  if (at == values.end()) return std::nullopt;
  return static_cast<uint64_t>(at - values.begin());
}

std::string_view sampler_name(SamplerKind kind) {
  switch (kind) {
    case SamplerKind::kTpe:
      return "tpe";
    case SamplerKind::kCmaes:
      return "cmaes";
    case SamplerKind::kNsga2:
      return "nsga2";
  }
  return "";
}

void check_sampler_space(SamplerKind kind, const std::vector<ParamSpace>& spaces) {
  if (kind != SamplerKind::kCmaes) return;
  for (const SamplerParam& param : sampler_params(spaces)) {
    if (!param.ordered) {
      throw std::invalid_argument(fmt::format(
          "--strategy cmaes: CMA-ES searches numbers only, and --param {} has {} (a word or a "
          "flag); use --strategy tpe:N, which takes both",
          param.name,
          param.choices.empty() ? std::string("no values")
                                : fmt::format("the value '{}'", param.choices.front())));
    }
  }
}

int sampler_startup_trials(size_t budget) {
  return static_cast<int>(std::clamp<size_t>((budget + 2) / 3, 2, 10));
}

std::string bridge_init_request(SamplerKind kind, const std::vector<ParamSpace>& spaces,
                                const std::vector<bool>& maximize, uint64_t seed, int startup) {
  BridgeJson params = BridgeJson::array();
  for (const SamplerParam& param : sampler_params(spaces)) {
    if (param.ordered) {
      params.push_back({{"name", param.name}, {"type", "int"}, {"low", 0},
                        {"high", param.count - 1}});
    } else {
      params.push_back({{"name", param.name}, {"type", "categorical"},
                        {"choices", param.choices}});
    }
  }
  BridgeJson directions = BridgeJson::array();
  for (bool more : maximize) directions.push_back(more ? "maximize" : "minimize");
  // Optuna's seeds are 32-bit (numpy's RandomState).
  return BridgeJson{{"op", "init"},         {"sampler", sampler_name(kind)},
              {"seed", seed % 4294967296u}, {"startup", startup},
              {"directions", directions}, {"params", params}}
      .dump();
}

std::string bridge_ask_request() { return BridgeJson{{"op", "ask"}}.dump(); }

SamplerOutcome sampler_outcome(const TrialRecord& record) {
  SamplerOutcome outcome;
  outcome.feasible = record.status == TrialStatus::kOk && record.objective.has_value();
  if (record.objective && std::isfinite(*record.objective)) outcome.values = {*record.objective};
  if (!outcome.feasible) {
    outcome.reason = std::string(trial_status_name(record.status));
    if (!record.reason.empty()) outcome.reason += ": " + record.reason;
  }
  if (outcome.feasible && outcome.values.empty()) outcome.feasible = false;
  return outcome;
}

std::string bridge_tell_request(int64_t number, const SamplerOutcome& outcome) {
  BridgeJson request = outcome_json(outcome);
  request["op"] = "tell";
  request["number"] = number;
  return request.dump(-1, ' ', false, BridgeJson::error_handler_t::replace);
}

std::string bridge_add_request(const std::vector<ParamSpace>& spaces, const Assignment& params,
                               const SamplerOutcome& outcome) {
  BridgeJson request = outcome_json(outcome);
  request["op"] = "add";
  BridgeJson encoded = BridgeJson::object();
  const std::vector<SamplerParam> sampler = sampler_params(spaces);
  for (size_t i = 0; i < spaces.size(); ++i) {
    std::string value;
    for (const auto& [name, text] : params) {
      if (name == spaces[i].name) value = text;
    }
    if (sampler[i].ordered) {
      const std::optional<uint64_t> index = sampler_index(spaces[i], value);
      if (!index) {
        throw std::invalid_argument(fmt::format("'{}={}' is not a value of --param '{}={}'",
                                                spaces[i].name, value, spaces[i].name,
                                                spaces[i].spec));
      }
      encoded[spaces[i].name] = *index;
    } else {
      encoded[spaces[i].name] = value;
    }
  }
  request["params"] = std::move(encoded);
  return request.dump(-1, ' ', false, BridgeJson::error_handler_t::replace);
}

BridgeHello parse_bridge_hello(std::string_view line) {
  BridgeJson answer;
  try {
    answer = BridgeJson::parse(line);
  } catch (const BridgeJson::exception&) {
    throw std::invalid_argument(
        fmt::format("the Optuna bridge's first line is not JSON: {}", line.substr(0, 200)));
  }
  if (!answer.is_object()) {
    throw std::invalid_argument(
        fmt::format("the Optuna bridge's first line is not a JSON object: {}", line.substr(0, 200)));
  }
  BridgeHello hello;
  const auto text = [&](const char* key) {
    const auto it = answer.find(key);
    return it != answer.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const auto ready = answer.find("ready");
  hello.ready = ready != answer.end() && ready->is_boolean() && ready->get<bool>();
  hello.optuna = text("optuna");
  hello.python = text("python");
  hello.error = text("error");
  return hello;
}

BridgeAsk parse_bridge_ask(std::string_view line, const std::vector<ParamSpace>& spaces) {
  const BridgeJson answer = parse_line(line);
  BridgeAsk ask;
  const auto number = answer.find("number");
  const auto params = answer.find("params");
  if (number == answer.end() || !number->is_number_integer() || params == answer.end() ||
      !params->is_object()) {
    throw std::invalid_argument(fmt::format(
        "the Optuna bridge's answer to ask has no number and params: {}", line.substr(0, 200)));
  }
  ask.number = number->get<int64_t>();
  const std::vector<SamplerParam> sampler = sampler_params(spaces);
  for (size_t i = 0; i < spaces.size(); ++i) {
    const auto value = params->find(spaces[i].name);
    if (value == params->end()) {
      throw std::invalid_argument(
          fmt::format("the Optuna bridge's answer to ask lacks '{}'", spaces[i].name));
    }
    if (sampler[i].ordered) {
      if (!value->is_number_unsigned()) {
        throw std::invalid_argument(fmt::format(
            "the Optuna bridge: '{}' is not an index: {}", spaces[i].name, value->dump()));
      }
      ask.params.emplace_back(spaces[i].name, sampler_value(spaces[i], value->get<uint64_t>()));
    } else {
      if (!value->is_string() ||
          std::find(sampler[i].choices.begin(), sampler[i].choices.end(),
                    value->get<std::string>()) == sampler[i].choices.end()) {
        throw std::invalid_argument(fmt::format(
            "the Optuna bridge: '{}' is not one of its values: {}", spaces[i].name, value->dump()));
      }
      ask.params.emplace_back(spaces[i].name, value->get<std::string>());
    }
  }
  return ask;
}

void parse_bridge_ok(std::string_view line) { parse_line(line); }

bool reached_benchmark(TrialStatus status) {
  return status == TrialStatus::kOk || status == TrialStatus::kSloViolated ||
         status == TrialStatus::kBenchFailed;
}

void SearchBudget::count(TrialStatus status) {
  ++drawn;
  if (reached_benchmark(status)) ++benchmarked;
}

}  // namespace llmperf

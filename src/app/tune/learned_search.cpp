// The learned searches' loop (learned_search.h).
#include "app/tune/learned_search.h"

#include <map>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "app/signals.h"
#include "app/tune/optuna_bridge.h"
#include "study/sampler_space.h"

namespace llmperf {
namespace {

// Asks in a row that gave configurations already tried, before the search ends: the sampler
// has converged or the space is exhausted.
constexpr size_t kMaxRepeatedAsks = 100;

SamplerKind sampler_kind(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::kCmaes:
      return SamplerKind::kCmaes;
    case StrategyKind::kNsga2:
      return SamplerKind::kNsga2;
    default:
      return SamplerKind::kTpe;
  }
}

// The sampler's directions: one per objective.
std::vector<bool> directions(const LearnedSearchOptions& options) {
  if (options.objectives.empty()) return {options.maximize};
  std::vector<bool> maximize;
  for (const StudyObjective& objective : options.objectives) maximize.push_back(objective.maximize);
  return maximize;
}

std::vector<std::string> values_of(const Assignment& params) {
  std::vector<std::string> values;
  for (const auto& param : params) values.push_back(param.second);
  return values;
}

}  // namespace

LearnedSearch::LearnedSearch(const LearnedSearchOptions& options) : options_(options) {
  check_sampler_space(sampler_kind(options.strategy.kind), *options.spaces);
  bridge_ = std::make_unique<OptunaBridge>(options.python);
  parse_bridge_ok(bridge_->request(
      bridge_init_request(sampler_kind(options.strategy.kind), *options.spaces, directions(options),
                          options.seed, sampler_startup_trials(options.strategy.samples))));
}

LearnedSearch::~LearnedSearch() = default;

SamplerOutcome LearnedSearch::outcome_of(const TrialRecord& record) const {
  return options_.objectives.empty() ? sampler_outcome(record)
                                     : multi_objective_outcome(record, options_.objectives);
}

std::string LearnedSearch::describe() const {
  const OptunaBridge& bridge = *bridge_;
  std::string text = fmt::format(
      "--strategy {}: Optuna {} under {}{}; up to {} configurations benchmarked, {} drawn in all "
      "(start failures and exclusions do not count as benchmarked); seed {}",
      options_.strategy.text(), bridge.optuna(), bridge.python(),
      bridge.passed_over().empty() ? std::string()
                                   : fmt::format(" (passed over: {})", bridge.passed_over()),
      options_.strategy.samples, 3 * options_.strategy.samples, options_.seed);
  if (!options_.objectives.empty()) {
    std::vector<std::string> names;
    for (const StudyObjective& objective : options_.objectives) {
      names.push_back(objective.name + (objective.maximize ? ":max" : ":min"));
    }
    text += fmt::format(
        "; {} objectives ({}): a multi-objective study, whose answer is their "
        "Pareto front",
        names.size(), fmt::join(names, ", "));
  }
  for (const SamplerParam& param : sampler_params(*options_.spaces)) {
    text += "\n  " + param.describe();
  }
  return text;
}

std::vector<TrialRecord> LearnedSearch::run(const std::vector<TrialRecord>& previous,
                                            const RunConfig& run_config) {
  OptunaBridge& bridge = *bridge_;
  const std::vector<ParamSpace>& spaces = *options_.spaces;
  SearchBudget budget;
  budget.benchmarks = options_.strategy.samples;
  std::map<std::vector<std::string>, SamplerOutcome> tried;
  std::vector<TrialRecord> records;
  size_t next_index = 0;

  // The ledger's configurations, retold (an interrupted one is run again first).
  for (const TrialRecord& earlier : previous) {
    if (interrupt_requested()) return records;
    TrialRecord record = run_config(static_cast<size_t>(earlier.trial), earlier.params);
    next_index = std::max(next_index, static_cast<size_t>(earlier.trial) + 1);
    if (record.status == TrialStatus::kInterrupted) {
      records.push_back(std::move(record));
      return records;
    }
    const SamplerOutcome outcome = outcome_of(record);
    parse_bridge_ok(bridge.request(bridge_add_request(spaces, record.params, outcome)));
    tried[values_of(record.params)] = outcome;
    budget.count(record.status);
    records.push_back(std::move(record));
  }

  size_t repeated = 0;
  const uint64_t space_size = grid_size(spaces);
  while (!budget.done() && !interrupt_requested()) {
    if (tried.size() >= space_size) {
      spdlog::info("--strategy {}: every configuration of the space has been tried",
                   options_.strategy.text());
      break;
    }
    const BridgeAsk ask = parse_bridge_ask(bridge.request(bridge_ask_request()), spaces);
    if (const auto known = tried.find(values_of(ask.params)); known != tried.end()) {
      // Drawn before: told the same again, not run twice.
      parse_bridge_ok(bridge.request(bridge_tell_request(ask.number, known->second)));
      if (++repeated >= kMaxRepeatedAsks) {
        spdlog::info("--strategy {}: the sampler offered only configurations already tried {} "
                     "times in a row; the search ends",
                     options_.strategy.text(), kMaxRepeatedAsks);
        break;
      }
      continue;
    }
    repeated = 0;
    TrialRecord record = run_config(next_index++, ask.params);
    if (record.status == TrialStatus::kInterrupted) {
      records.push_back(std::move(record));
      break;
    }
    const SamplerOutcome outcome = outcome_of(record);
    parse_bridge_ok(bridge.request(bridge_tell_request(ask.number, outcome)));
    tried[values_of(ask.params)] = outcome;
    budget.count(record.status);
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace llmperf

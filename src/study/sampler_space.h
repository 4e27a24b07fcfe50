// The learned searches of `llmperf tune` (`--strategy tpe:N`, `cmaes:N`, `nsga2:N`) as pure
// parts: how each parameter is told to Optuna, the messages of the ask/tell bridge
// (share/llmperf/optuna_bridge.py, spoken by app/tune/optuna_bridge.h), what a finished trial
// tells the sampler, and the budget that ends the search. Pure.
//
// Numbers are ordered. A parameter whose values are all numbers (a list such as 512,1024,2048, an
// int:, float: or log: range) is told as an integer index 0..n-1 into its values in order
// (suggest_int), so that the sampler's model sees 1024 between 512 and 2048; only a list with a
// word in it, or a flag, is categorical. Where the values grow geometrically (512,1024,2048, a
// log: range) equal index steps are equal ratios: the index is their log scale; where they are
// evenly spaced it is their linear scale. float: and log: ranges are searched at their grid's N
// points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "study/space.h"
#include "study/trial.h"

namespace llmperf {

// How the values of a numeric parameter are spaced.
enum class NumberSpacing {
  kLinear,  // evenly spaced, or fewer than three values (the default)
  kLog,     // growing geometrically: the ratios between neighbours vary less than the differences
};

// The spacing of `values` (in their order): kLog when they are all positive, strictly monotone,
// at least three, and the logs of their neighbour ratios vary less (largest over smallest) than
// their neighbour differences do; kLinear otherwise.
NumberSpacing number_spacing(const std::vector<double>& values);

// How one parameter is told to the sampler.
struct SamplerParam {
  std::string name;
  bool ordered = false;   // an integer index 0..count-1 (numbers); else categorical (words, flags)
  uint64_t count = 0;     // how many values
  NumberSpacing spacing = NumberSpacing::kLinear;  // ordered only
  std::vector<std::string> choices;                // categorical only: the values, in order

  // "B: 8 numbers, log-spaced, an index 0..7", "cp: 2 words, categorical".
  std::string describe() const;
};

// The parameters as the sampler sees them, in --param order. A numeric list, int:, float: and
// log: range is ordered (an int: range of any size: its index is computed, not listed).
std::vector<SamplerParam> sampler_params(const std::vector<ParamSpace>& spaces);

// The value of `space` at `index` of its sampler encoding (the index-th grid value). Throws
// std::invalid_argument when index is out of range.
std::string sampler_value(const ParamSpace& space, uint64_t index);

// The index of `value` in `space`'s values, if it is one of them (an int: range by arithmetic).
std::optional<uint64_t> sampler_index(const ParamSpace& space, const std::string& value);

// The sampler's kind and which --strategy names it.
enum class SamplerKind { kTpe, kCmaes, kNsga2 };
std::string_view sampler_name(SamplerKind kind);  // "tpe", "cmaes", "nsga2"

// Throws std::invalid_argument naming --strategy when `kind` cannot search `spaces`: cmaes:N
// needs every parameter ordered (numbers), since CMA-ES models a continuous space.
void check_sampler_space(SamplerKind kind, const std::vector<ParamSpace>& spaces);

// The random draws before the model takes over (Optuna's n_startup_trials, 10 by default, too
// many for a budget of a few benchmarks): a third of the budget rounded up, at least 2 and at
// most 10.
int sampler_startup_trials(size_t budget);

// The bridge's requests, one JSON object each (no newline).
std::string bridge_init_request(SamplerKind kind, const std::vector<ParamSpace>& spaces,
                                const std::vector<bool>& maximize, uint64_t seed, int startup);
std::string bridge_ask_request();

// What a finished trial tells the sampler.
struct SamplerOutcome {
  bool feasible = false;  // ok: benchmarked and met every --slo
  // The objective's values, when it has them (an slo_violated trial does); none: the bridge
  // tells the worst value so far.
  std::vector<double> values;
  std::string reason;  // why it is infeasible: "start_failed: ValueError: ..."
};
SamplerOutcome sampler_outcome(const TrialRecord& record);

// `tell` for the trial the sampler numbered `number`, and `add` (a ledger's finished trial,
// retold on --resume; also a configuration drawn again: it is told without running twice).
std::string bridge_tell_request(int64_t number, const SamplerOutcome& outcome);
std::string bridge_add_request(const std::vector<ParamSpace>& spaces, const Assignment& params,
                               const SamplerOutcome& outcome);

// The bridge's first line: whether Optuna imported, and where.
struct BridgeHello {
  bool ready = false;
  std::string optuna;  // Optuna's version
  std::string python;  // sys.executable
  std::string error;   // why not ready: "ModuleNotFoundError: No module named 'optuna'"
};

// An answer to `ask`: the sampler's number for the trial and the configuration.
struct BridgeAsk {
  int64_t number = 0;
  Assignment params;  // decoded to values, in --param order
};

// Parse the bridge's lines. Throw std::invalid_argument saying what is wrong (not JSON, an
// {"error": ...} answer, a missing parameter, an index out of range, an unknown choice).
BridgeHello parse_bridge_hello(std::string_view line);
BridgeAsk parse_bridge_ask(std::string_view line, const std::vector<ParamSpace>& spaces);
void parse_bridge_ok(std::string_view line);

// The budget of a learned search: `benchmarks` configurations that reached a benchmark (ok,
// slo_violated, bench_failed), and at most 3x that many configurations drawn in all, so that a
// space whose every configuration fails still ends. Start failures, ready timeouts and
// exclusions are cheap next to a benchmark: they are drawn but not benchmarked.
struct SearchBudget {
  size_t benchmarks = 0;
  size_t benchmarked = 0;
  size_t drawn = 0;
  size_t max_draws() const { return 3 * benchmarks; }
  bool done() const { return benchmarked >= benchmarks || drawn >= max_draws(); }
  void count(TrialStatus status);
};

// Whether a trial with this status reached its benchmark: ok, slo_violated, bench_failed.
bool reached_benchmark(TrialStatus status);

}  // namespace llmperf

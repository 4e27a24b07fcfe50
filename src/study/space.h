// Parameter spaces and search strategies of `llmperf tune`: `--param NAME=SPEC` parsed into a
// ParamSpace, `--strategy grid|random:N|halving[:ETA]|tpe:N|cmaes:N|nsga2:N` into a Strategy, the trials (assignments of
// a value to every parameter) each strategy visits, and the rungs of successive halving. Pure.
//
// SPEC grammar (spaces around the parts are trimmed):
//   a,b,c               choices, kept in order; no value may be empty or listed twice
//   int:LO:HI[:STEP]    integers LO, LO+STEP, ... <= HI on a grid (STEP >= 1, default 1);
//                       drawn uniformly in [LO, HI] by random
//   float:LO:HI[:N]     N evenly spaced points from LO to HI, both included (2 <= N <= 1000,
//                       default 4);
//                       drawn uniformly in [LO, HI] by random
//   log:LO:HI[:N]       N log-spaced points (0 < LO < HI, N as float's); log-uniform draws
//   flag:TEXT           TEXT (e.g. --enable-prefix-caching) or nothing: the values TEXT and ""
//   flag-on:TEXT        TEXT alone; flag-off:TEXT: nothing alone (how a --stage fixes a flag)
// A value is text: integers print without ".0", floats as the shortest text that reads back the
// same double. Grid points are rounded to 12 significant digits (so float:0:0.3 gives 0.1, not
// 0.09999999999999999; points that are not distinct so are refused) and random draws to 4, so
// commands and labels stay readable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmperf {

// The kind of a parameter's SPEC.
enum class ParamKind { kChoices, kInt, kFloat, kLog, kFlag };

// A flag parameter fixed to one of its values (flag-on:TEXT, flag-off:TEXT), or not (flag:TEXT).
enum class FlagFixed { kNo, kOn, kOff };

// One `--param NAME=SPEC`.
struct ParamSpace {
  std::string name;  // [A-Za-z_][A-Za-z0-9_]*, not a builtin (port, trial, outdir)
  std::string spec;  // the SPEC as given (after '='), trimmed
  ParamKind kind = ParamKind::kChoices;
  std::vector<std::string> choices;  // kChoices: the values, in order
  int64_t int_lo = 0;                // kInt: lowest value
  int64_t int_hi = 0;                // kInt: highest value (>= int_lo)
  int64_t int_step = 1;              // kInt: grid step (>= 1)
  double lo = 0;                     // kFloat, kLog: lowest value
  double hi = 0;                     // kFloat, kLog: highest value (> lo)
  int points = 4;                    // kFloat, kLog: grid points, both ends included (2..1000)
  std::string flag;                  // kFlag: the text put in when present (trimmed, not empty)
  FlagFixed flag_fixed = FlagFixed::kNo;  // kFlag: both values, or only one
};

// The names a template knows besides the parameters: {port}, {trial}, {outdir}.
inline constexpr std::string_view kBuiltinNames[] = {"port", "trial", "outdir"};
// The names a template knows with --slots (slots.h): the slot's index and its GPUs.
inline constexpr std::string_view kSlotNames[] = {"slot", "gpus"};

// The most trials a study may have: a grid or a random:N beyond it is refused.
inline constexpr uint64_t kMaxTrials = 100000;

// Parses one `--param NAME=SPEC`. Throws std::invalid_argument with a message naming --param and
// the text, e.g. "--param 'mnbt=int:64:8': LO (64) is above HI (8)".
ParamSpace parse_param(std::string_view text);

// Parses every `--param`, in order, and refuses a name given twice.
std::vector<ParamSpace> parse_params(const std::vector<std::string>& texts);

// The values a grid takes for one parameter, in order (flag: TEXT, then ""). Throws
// std::invalid_argument when there are more than kMaxTrials.
std::vector<std::string> grid_values(const ParamSpace& space);

// How many values the grid takes for one parameter (its count, without listing them).
uint64_t grid_value_count(const ParamSpace& space);

// How many configurations the grid has: the product of grid_value_count, saturated at
// UINT64_MAX. 1 for no parameters.
uint64_t grid_size(const std::vector<ParamSpace>& spaces);

// A value for every parameter, in --param order: {{"mnbt", "64"}, {"cp", "true"}}.
using Assignment = std::vector<std::pair<std::string, std::string>>;

// The grid's configurations: the Cartesian product, the first parameter varying slowest (the
// last fastest). Throws std::invalid_argument naming --param when there are more than kMaxTrials.
std::vector<Assignment> grid_assignments(const std::vector<ParamSpace>& spaces);

// `n` configurations drawn at random, reproducible from `seed` on every platform (mt19937_64,
// whose output the C++ standard fixes, mapped to values by this file's own arithmetic). A draw
// equal to an earlier one is skipped; drawing stops early when the space is exhausted (every
// configuration of a finite space drawn, or 1000 draws in a row found nothing new).
std::vector<Assignment> random_assignments(const std::vector<ParamSpace>& spaces, size_t n,
                                           uint64_t seed);

// The kind of a `--strategy`.
// kTpe, kCmaes and kNsga2 are Optuna's samplers, asked for each configuration as the study goes
// (sampler_space.h); the others are planned before any trial.
enum class StrategyKind { kGrid, kRandom, kHalving, kTpe, kCmaes, kNsga2 };

// One `--strategy`.
struct Strategy {
  StrategyKind kind = StrategyKind::kGrid;
  size_t samples = 0;        // kRandom: the configurations to draw (1..kMaxTrials); kTpe, kCmaes,
                             // kNsga2: the configurations to benchmark (sampler_space.h's budget)
  int eta = 3;               // kHalving: the fraction 1/eta goes on to runs eta times longer (>= 2)
  std::string text() const;  // "grid", "random:20", "halving:3", "tpe:8"
  bool learned() const;      // kTpe, kCmaes or kNsga2: an Optuna sampler chooses the trials
};

// Parses `--strategy grid|random:N|halving[:ETA]|tpe:N|cmaes:N|nsga2:N`. Throws std::invalid_argument naming
// --strategy and the text.
Strategy parse_strategy(std::string_view text);

// One rung of successive halving.
struct HalvingRung {
  size_t configs = 0;    // configurations benchmarked at this rung
  int64_t requests = 0;  // requests per benchmark run at this rung
  size_t promoted = 0;   // the best configurations that go on to the next rung (0 at the last)
};

// Successive halving's rungs for `configs` configurations: rung r (0-based, of R) runs
// max(1, floor(configs / eta^r)) configurations with floor(full_requests / eta^(R-1-r)) requests
// each, so the last rung runs the full benchmark. R is the most rungs that keep at least one
// configuration at the last rung and at least `min_requests` (the benchmark's concurrency)
// requests at the first; 1 when full_requests itself is below min_requests. Empty for no
// configurations. Throws std::invalid_argument when eta < 2 or full_requests < 1.
std::vector<HalvingRung> halving_plan(size_t configs, int64_t full_requests, int eta,
                                      int64_t min_requests);

// The requests a halving plan sends in all: the sum of configs * requests over its rungs.
int64_t halving_total_requests(const std::vector<HalvingRung>& rungs);

}  // namespace llmperf

// The search strategies of space.h: `--strategy` parsing, the grid's configurations, seeded random
// draws and successive halving's rungs. Random draws map mt19937_64's output to values with this
// file's own arithmetic (std::uniform_*_distribution's output differs between standard libraries),
// so a seed gives the same trials on every platform.
#include "study/space.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/text.h"
#include "study/numbers.h"

namespace llmperf {
namespace {

using study_detail::format_number;
using study_detail::parse_int64;
using study_detail::round_significant;

constexpr int kDrawDigits = 4;               // significant digits of a random float draw
constexpr size_t kMaxDuplicateDraws = 1000;  // draws in a row without a new configuration
constexpr int64_t kMaxEta = 100;             // the largest halving:ETA

[[noreturn]] void fail_strategy(std::string_view text, const std::string& what) {
  throw std::invalid_argument(fmt::format("--strategy '{}': {}", text, what));
}

// A uniform integer in [0, n), n == 0 meaning 2^64: draws below 2^64 mod n are rejected, so
// that every result is equally likely.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  if (n == 0) return rng();
  const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: the draws below it would bias
  while (true) {
    const uint64_t draw = rng();
    if (draw >= threshold) return draw % n;
  }
}

// A uniform double in [0, 1) from the top 53 bits of one draw.
double uniform_unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::string draw_value(const ParamSpace& space, std::mt19937_64& rng) {
  switch (space.kind) {
    case ParamKind::kChoices:
      return space.choices[uniform_below(rng, space.choices.size())];
    case ParamKind::kInt: {
      // A point of the STEP lattice from LO (every integer of [LO, HI] for STEP 1).
      const uint64_t steps =
          (static_cast<uint64_t>(space.int_hi) - static_cast<uint64_t>(space.int_lo)) /
          static_cast<uint64_t>(space.int_step);
      const uint64_t k = uniform_below(rng, steps + 1);  // steps + 1 wraps to 0 for 2^64 values
      return fmt::format("{}", static_cast<int64_t>(static_cast<uint64_t>(space.int_lo) +
                                                    k * static_cast<uint64_t>(space.int_step)));
    }
    case ParamKind::kFloat:
    case ParamKind::kLog: {
      const double u = uniform_unit(rng);
      const double value =
          space.kind == ParamKind::kFloat
              ? space.lo + (space.hi - space.lo) * u
              : std::exp(std::log(space.lo) + (std::log(space.hi) - std::log(space.lo)) * u);
      return format_number(std::clamp(round_significant(value, kDrawDigits), space.lo, space.hi));
    }
    case ParamKind::kFlag:
      if (space.flag_fixed != FlagFixed::kNo) return grid_values(space).front();
      return uniform_below(rng, 2) == 0 ? space.flag : std::string();
  }
  return {};
}

// How many configurations a random search can find: the grid's size where every parameter has
// finitely many values, 0 where some range is continuous (float, log).
uint64_t finite_size(const std::vector<ParamSpace>& spaces) {
  for (const ParamSpace& space : spaces) {
    if (space.kind == ParamKind::kFloat || space.kind == ParamKind::kLog) return 0;
  }
  return grid_size(spaces);
}

}  // namespace

std::string Strategy::text() const {
  switch (kind) {
    case StrategyKind::kGrid:
      return "grid";
    case StrategyKind::kRandom:
      return fmt::format("random:{}", samples);
    case StrategyKind::kHalving:
      return fmt::format("halving:{}", eta);
  }
  return {};
}

Strategy parse_strategy(std::string_view text) {
  const std::string_view trimmed = trim(text);
  const size_t colon = trimmed.find(':');
  const std::string_view kind = trim(trimmed.substr(0, colon));
  const bool has_arg = colon != std::string_view::npos;
  const std::string_view arg = has_arg ? trim(trimmed.substr(colon + 1)) : std::string_view();
  Strategy strategy;
  int64_t number = 0;
  if (kind == "grid") {
    if (has_arg) fail_strategy(text, "grid takes no argument");
    strategy.kind = StrategyKind::kGrid;
  } else if (kind == "random") {
    if (!has_arg) fail_strategy(text, "random needs a count of configurations: random:N");
    if (!parse_int64(arg, number) || number < 1 || number > int64_t{kMaxTrials}) {
      fail_strategy(text, fmt::format("N '{}' must be an integer from 1 to {}", arg, kMaxTrials));
    }
    strategy.kind = StrategyKind::kRandom;
    strategy.samples = static_cast<size_t>(number);
  } else if (kind == "halving") {
    strategy.kind = StrategyKind::kHalving;
    if (has_arg) {
      if (!parse_int64(arg, number) || number < 2 || number > kMaxEta) {
        fail_strategy(text, fmt::format("ETA '{}' must be an integer from 2 to {}", arg, kMaxEta));
      }
      strategy.eta = static_cast<int>(number);
    }
  } else {
    fail_strategy(text, "expected grid, random:N or halving[:ETA]");
  }
  return strategy;
}

std::vector<Assignment> grid_assignments(const std::vector<ParamSpace>& spaces) {
  const uint64_t size = grid_size(spaces);
  if (size > kMaxTrials) {
    std::string factors;
    for (const ParamSpace& space : spaces) {
      if (!factors.empty()) factors += " x ";
      factors += fmt::format("{} ({})", grid_value_count(space), space.name);
    }
    throw std::invalid_argument(fmt::format(
        "--param: the grid has {} configurations ({}), more than {}; narrow the ranges or use "
        "--strategy random:N",
        size == UINT64_MAX ? std::string("over 2^64") : fmt::format("{}", size), factors,
        kMaxTrials));
  }
  std::vector<std::vector<std::string>> values;
  for (const ParamSpace& space : spaces) values.push_back(grid_values(space));
  std::vector<Assignment> out;
  if (size == 0) return out;
  out.reserve(size);
  // An odometer: the last parameter turns fastest.
  std::vector<size_t> at(spaces.size(), 0);
  while (true) {
    Assignment assignment;
    for (size_t i = 0; i < spaces.size(); ++i) {
      assignment.emplace_back(spaces[i].name, values[i][at[i]]);
    }
    out.push_back(std::move(assignment));
    size_t i = spaces.size();
    while (i > 0) {
      --i;
      if (++at[i] < values[i].size()) break;
      at[i] = 0;
      if (i == 0) return out;
    }
    if (spaces.empty()) return out;
  }
}

std::vector<Assignment> random_assignments(const std::vector<ParamSpace>& spaces, size_t n,
                                           uint64_t seed) {
  if (n > kMaxTrials) {
    throw std::invalid_argument(
        fmt::format("--strategy random:{}: at most {} configurations", n, kMaxTrials));
  }
  const uint64_t finite = finite_size(spaces);
  if (finite != 0 && finite < n) n = static_cast<size_t>(finite);
  std::mt19937_64 rng(seed);
  std::set<std::vector<std::string>> seen;
  std::vector<Assignment> out;
  size_t duplicates_in_a_row = 0;
  while (out.size() < n && duplicates_in_a_row < kMaxDuplicateDraws) {
    Assignment assignment;
    std::vector<std::string> key;
    for (const ParamSpace& space : spaces) {
      std::string value = draw_value(space, rng);
      key.push_back(value);
      assignment.emplace_back(space.name, std::move(value));
    }
    if (seen.insert(std::move(key)).second) {
      out.push_back(std::move(assignment));
      duplicates_in_a_row = 0;
    } else if (finite == 0) {
      ++duplicates_in_a_row;  // a finite space is drawn until exhausted (n was capped above)
    }
  }
  return out;
}

std::vector<HalvingRung> halving_plan(size_t configs, int64_t full_requests, int eta,
                                      int64_t min_requests) {
  if (eta < 2)
    throw std::invalid_argument(fmt::format("halving: ETA ({}) must be at least 2", eta));
  if (full_requests < 1) {
    throw std::invalid_argument(
        fmt::format("halving: the benchmark's requests ({}) must be at least 1", full_requests));
  }
  std::vector<HalvingRung> rungs;
  if (configs == 0) return rungs;
  min_requests = std::max<int64_t>(min_requests, 1);
  const uint64_t factor = static_cast<uint64_t>(eta);
  // powers[r] = eta^r while eta^r <= configs and full_requests / eta^r >= min_requests.
  std::vector<uint64_t> powers = {1};
  while (powers.back() <= UINT64_MAX / factor) {
    const uint64_t next = powers.back() * factor;
    if (next > configs) break;
    if (static_cast<uint64_t>(full_requests) / next < static_cast<uint64_t>(min_requests)) break;
    powers.push_back(next);
  }
  const size_t count = powers.size();
  for (size_t r = 0; r < count; ++r) {
    HalvingRung rung;
    rung.configs = std::max<size_t>(1, configs / powers[r]);
    rung.requests =
        static_cast<int64_t>(static_cast<uint64_t>(full_requests) / powers[count - 1 - r]);
    rungs.push_back(rung);
  }
  for (size_t r = 0; r + 1 < count; ++r) rungs[r].promoted = rungs[r + 1].configs;
  return rungs;
}

int64_t halving_total_requests(const std::vector<HalvingRung>& rungs) {
  int64_t total = 0;
  for (const HalvingRung& rung : rungs) total += static_cast<int64_t>(rung.configs) * rung.requests;
  return total;
}

}  // namespace llmperf

// Bisection for --search (see search.h).
#include "verdict/search.h"

#include <algorithm>
#include <cmath>

namespace llmperf {

SearchOutcome bisect_search(const SearchSpec& spec,
                            const std::function<std::optional<bool>(double)>& probe) {
  SearchOutcome outcome;
  const auto run = [&](double value) -> std::optional<bool> {
    const std::optional<bool> passed = probe(value);
    if (!passed) {
      outcome.interrupted = true;
      return std::nullopt;
    }
    outcome.probes.push_back({value, *passed});
    return passed;
  };
  const auto converged = [&](double pass, double fail) {
    return spec.integer ? fail - pass <= 1 : fail - pass <= spec.relative_precision * fail;
  };

  const std::optional<bool> lo_passed = run(spec.lo);
  if (!lo_passed || !*lo_passed) return outcome;
  double pass = spec.lo;
  double fail = spec.hi;
  if (spec.doubling) {
    // EvalScope's way: double from LO until a value fails or HI is reached.
    bool failed = false;
    while (pass < spec.hi && static_cast<int>(outcome.probes.size()) < spec.max_probes) {
      const double next = std::min(spec.hi, pass * 2);
      const std::optional<bool> passed = run(next);
      if (!passed) {
        outcome.best = pass;
        return outcome;
      }
      if (!*passed) {
        fail = next;
        failed = true;
        break;
      }
      pass = next;
    }
    if (!failed) {
      outcome.best = pass;
      return outcome;
    }
  } else {
    const std::optional<bool> hi_passed = run(spec.hi);
    if (!hi_passed) {
      outcome.best = pass;
      return outcome;
    }
    if (*hi_passed) {
      outcome.best = spec.hi;
      return outcome;
    }
  }
  while (!converged(pass, fail) && static_cast<int>(outcome.probes.size()) < spec.max_probes) {
    double mid = (pass + fail) / 2;
    if (spec.integer) mid = std::floor(mid);
    const std::optional<bool> passed = run(mid);
    if (!passed) break;
    if (*passed) {
      pass = mid;
    } else {
      fail = mid;
    }
  }
  outcome.best = pass;
  return outcome;
}

}  // namespace llmperf

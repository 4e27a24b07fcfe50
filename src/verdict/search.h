// --search: the highest concurrency or rate whose run meets every --slo, found by bisection with
// full runs as probes. The search logic is pure; the runner supplies a probe that runs the load.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace llmperf {

struct SearchProbe {
  double value = 0;     // the parallel or rate value tried
  bool passed = false;  // the run met every SLO
};

struct SearchOutcome {
  std::vector<SearchProbe> probes;  // in the order they ran
  std::optional<double> best;       // highest passing value; empty when even LO fails
  bool interrupted = false;         // a probe asked to stop (e.g. Ctrl-C)
};

struct SearchSpec {
  double lo = 1;                     // lower bound (tried first)
  double hi = 2;                     // upper bound (tried second)
  bool integer = true;               // parallel: integer steps; rate: continuous
  double relative_precision = 0.02;  // rate: stop when hi - lo <= precision x hi
  int max_probes = 16;               // hard limit on full runs
  // Double from LO until a value fails (or HI passes), then bisect (EvalScope's --sla-auto-tune),
  // instead of trying HI second: better when HI is only a far upper bound.
  bool doubling = false;
};

// `probe(value)` runs the load at `value` and returns whether it met every SLO; it returns
// std::nullopt to abort the search. Assumes passing is monotone: if v passes, every lower value
// passes. Tries LO, then HI (or, with `doubling`, 2 LO, 4 LO, ... up to HI), then bisects the
// interval between the highest pass and lowest fail.
SearchOutcome bisect_search(const SearchSpec& spec,
                            const std::function<std::optional<bool>(double)>& probe);

}  // namespace llmperf

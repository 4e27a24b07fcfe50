// Several replicas' /metrics as one server's: the expositions of each replica summed series by
// series (same sample name and labels), so that the reductions and the reconciliation built for
// one server read the whole set of replicas. Pure: no I/O.
#pragma once

#include <vector>

#include "protocol/prometheus.h"

namespace llmperf {

// The sum of `parts`, in the order series are first met. Counters, gauges of counts (requests
// running or waiting) and histograms (every _bucket, _sum and _count sample, so bucket-wise) are
// added up. Gauges that are fractions (the family is not a counter or histogram and its name
// contains "usage", or ends in "_perc" or "_ratio": KV-cache usage) are averaged over the
// replicas that have them instead, since a sum of fractions means nothing. A series that only
// some replicas expose is summed over those. `types` is the union, `bad_lines` the total.
Exposition sum_expositions(const std::vector<Exposition>& parts);

// True when samples of family `name` (TYPE `type`, "" when not declared) are averaged rather
// than summed by sum_expositions.
bool averaged_across_replicas(const std::string& name, const std::string& type);

}  // namespace llmperf

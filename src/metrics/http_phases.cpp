// HttpPhaseTally: the HTTP phases of a run's requests (see http_phases.h).
#include "metrics/http_phases.h"

#include <utility>

namespace llmperf {

namespace {
constexpr size_t kHttpPhaseCount = 7;  // six phases and their total
}  // namespace

HttpPhaseTally::HttpPhaseTally() {
  fresh_.phases.assign(kHttpPhaseCount, PooledSamples(kExactLimit));
  reused_.phases.assign(kHttpPhaseCount, PooledSamples(kExactLimit));
}

void HttpPhaseTally::add(const RequestRecord& r) {
  const HttpPhases& p = r.phases;
  if (!p.measured) return;
  ++(p.new_connection ? summary_.new_connections : summary_.reused_connections);
  if (p.version != HttpVersion::kUnknown) {
    ++summary_.protocols[std::string(http_version_name(p.version))];
  }
  if (!r.ok()) return;
  Pools& pools = p.new_connection ? fresh_ : reused_;
  ++pools.requests;
  const int64_t values[kHttpPhaseCount] = {p.dns_ns,  p.connect_ns, p.tls_ns,    p.send_ns,
                                           p.wait_ns, p.receive_ns, p.total_ns()};
  for (size_t i = 0; i < kHttpPhaseCount; ++i) pools.phases[i].add(values[i]);
}

HttpPhaseStats HttpPhaseTally::describe_pools(const Pools& pools,
                                              const std::vector<double>& percentiles) {
  HttpPhaseStats s;
  s.requests = pools.requests;
  Distribution* out[kHttpPhaseCount] = {&s.dns_ns,  &s.connect_ns, &s.tls_ns,  &s.send_ns,
                                        &s.wait_ns, &s.receive_ns, &s.total_ns};
  for (size_t i = 0; i < kHttpPhaseCount; ++i) *out[i] = pools.phases[i].describe(percentiles);
  return s;
}

HttpPhaseSummary HttpPhaseTally::finish(const std::vector<double>& percentiles) {
  HttpPhaseSummary s = std::move(summary_);
  s.fresh = describe_pools(fresh_, percentiles);
  s.reused = describe_pools(reused_, percentiles);
  return s;
}

}  // namespace llmperf

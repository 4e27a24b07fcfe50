// The HTTP phases of a run's requests (RequestRecord::phases): a distribution per phase, apart for
// requests that opened a new connection and for those that reused one (a new connection pays DNS,
// TCP connect and TLS; a reused one none of them), the connections the run opened, and the HTTP
// versions the responses came back with.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "metrics/stats/pooled_samples.h"
#include "metrics/stats/stats.h"

namespace llmperf {

// The phases of the successful requests of one kind of connection (ns).
struct HttpPhaseStats {
  int64_t requests = 0;
  Distribution dns_ns, connect_ns, tls_ns, send_ns, wait_ns, receive_ns;
  Distribution total_ns;  // the sum of the phases: curl's total time of the transfer
};

struct HttpPhaseSummary {
  // Measured requests curl finished (failed ones included) that opened a connection, and that
  // reused one: with HTTP/2 the connections opened is the first, however many streams they carried.
  int64_t new_connections = 0;
  int64_t reused_connections = 0;
  // Measured requests by the HTTP version of their response ("http/1.1", "h2"); failed ones
  // included when a response came back.
  std::map<std::string, int64_t> protocols;
  HttpPhaseStats fresh;   // successful requests on a new connection
  HttpPhaseStats reused;  // successful requests on a reused connection
  bool any() const { return new_connections + reused_connections > 0; }
};

// Folds measured records (warm-up excluded by the caller; failed ones included) into an
// HttpPhaseSummary. Memory stays bounded: past kExactLimit samples of a phase its percentiles
// come from PooledSamples' histogram.
class HttpPhaseTally {
 public:
  static constexpr size_t kExactLimit = 200'000;
  HttpPhaseTally();
  void add(const RequestRecord& record);
  HttpPhaseSummary finish(const std::vector<double>& percentiles);

 private:
  struct Pools {
    int64_t requests = 0;
    std::vector<PooledSamples> phases;  // dns, connect, tls, send, wait, receive, total
  };
  static HttpPhaseStats describe_pools(const Pools& pools, const std::vector<double>& percentiles);
  HttpPhaseSummary summary_;
  Pools fresh_;
  Pools reused_;
};

}  // namespace llmperf

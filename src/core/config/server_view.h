// The server's own view: its /metrics, identity and profiler, read on side channels beside the
// measured requests.
// A section of core/config.h's Config (Config::server); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <string>

namespace llmperf {

struct ServerViewConfig {
  bool server_metrics = true;     // --no-server-metrics turns the /metrics probe and scrapes off
  std::string metrics_url;        // --metrics-url (default: --url's base + "/metrics")
  double metrics_interval_s = 1;  // --metrics-interval: seconds between scrapes during a run
  bool profile = false;           // --profile: POST /start_profile and /stop_profile around runs
};

}  // namespace llmperf

// What the server's own view of a benchmark takes: where its side channels go (the server's base
// URL, each replica's), what they are sent with, and what is read on them (/metrics, the
// profiler). plan's server_view_options (plan/side_channels.h) fills it from the target and
// server-view sections; the app's ServerWatch takes it, never the sections.
#pragma once

#include <string>
#include <vector>

#include "http/http_pool.h"

namespace llmperf {

struct ServerViewOptions {
  // The server's base URL (--url's, side_channel.h's base_url_of): its identity, its profiler and
  // the default /metrics
  std::string base_url;
  std::vector<std::string> urls;  // several --url: every replica's URL, whose /metrics are summed
  HttpPoolOptions http;           // every side channel's: --url's credentials, timeouts and TLS
  bool server_metrics = true;     // --no-server-metrics turns the /metrics probe and scrapes off
  std::string metrics_url;        // --metrics-url ("": base_url + "/metrics")
  double metrics_interval_s = 1;  // --metrics-interval: seconds between scrapes during a run
  bool profile = false;           // --profile: POST /start_profile and /stop_profile around runs
};

}  // namespace llmperf

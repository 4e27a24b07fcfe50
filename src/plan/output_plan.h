// What a benchmark writes besides each run's files, worked out from the output section before the
// first run: --junit, --results-db, --log-every-n-query and what --push-gateway pushes with. The
// app's ResultsDb, LivePusher (through push_gateway_options), progress display and the end of the
// series take it, never the sections. Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmperf {

struct OutputConfig;  // core/config/output.h
struct TargetConfig;  // core/config/target.h: the sections the plan is made from

// --push-gateway: what every run of the benchmark pushes with (app/push_gateway.h makes a run's
// options, its grouping key included, from it).
struct PushGatewayPlan {
  std::string url;          // the gateway's base URL, credentials allowed (never logged)
  double interval_s = 5;    // --push-interval
  bool insecure = false;    // --insecure
  std::string cacert;       // --cacert
  std::string name;         // the grouping key's name: --name, else the model
  std::string outputs_dir;  // --outputs-dir: a run's run_id is its directory relative to this
  std::vector<std::pair<std::string, std::string>> tags;  // --tag, in the order given
};

struct OutputPlan {
  std::string junit_path;               // --junit FILE: JUnit XML of the verdicts ("" = none)
  std::string results_db;               // --results-db FILE: every run appended to it ("" = off)
  bool results_db_requests = false;     // --results-db-requests: requests.jsonl's lines stored too
  int64_t log_every_n_query = 10;       // --log-every-n-query: the progress display's step
  std::optional<PushGatewayPlan> push;  // --push-gateway (nullopt: no pushes)
};

// The output plan of a benchmark against `model` (--model, or the one the server lists): the
// output section, and the target's TLS settings for the Pushgateway.
OutputPlan output_plan(const OutputConfig& output, const TargetConfig& target,
                       const std::string& model);

}  // namespace llmperf

// --push-gateway: a run's live figures pushed to a Prometheus Pushgateway every --push-interval
// seconds, on a thread of its own, and its final figures once the run has ended. The figures come
// from the records as they finish (added on the collector thread, one lock per batch) and from the
// engine's progress counters; nothing touches the measured requests. A gateway that is down or
// slow never slows or fails the run: short timeouts, one warning, failed pushes counted.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "core/record.h"
#include "core/record_consumer.h"
#include "engine/engine.h"
#include "http/http_pool.h"
#include "metrics/live_figures.h"
#include "plan/output_plan.h"
#include "report/formats/push_exposition.h"
#include "report/report.h"

namespace llmperf {

// A run's pushes: the benchmark's gateway, and the run's grouping key.
struct PushGatewayOptions {
  PushGatewayPlan gateway;  // the URL (credentials allowed, never logged), interval and TLS
  // The grouping key after job="llmperf": name and run_id, then the run's tags.
  PushLabels labels;
};

// The options of the run in `output_dir`: grouped by the plan's name (--name, else the model) and
// the run's directory under --outputs-dir as its run id, then the run's --tags but those named as
// the grouping key's own labels.
PushGatewayOptions push_gateway_options(const PushGatewayPlan& plan,
                                        const std::string& output_dir);

// One of a run's RecordConsumers: begin_run() starts the pushing thread, end_run() stops it and
// pushes the final figures.
class LivePusher : public RecordConsumer {
 public:
  // `progress` (the engine's counters) must outlive the pusher.
  LivePusher(PushGatewayOptions options, const LoadProgress& progress);
  ~LivePusher() override;  // stops the thread (no final push unless end_run() ran)
  LivePusher(const LivePusher&) = delete;
  LivePusher& operator=(const LivePusher&) = delete;

  void begin_run() override;
  // Finished records (the record sink's batch): counted, and their samples added to the window.
  void add(std::span<const RequestRecord> records) override;
  void end_run() override;
  // What summary.json reports: the gateway, the interval, the pushes and those that failed.
  RunInfo::PushGateway outcome() const;

 private:
  void loop();
  void push(bool final);  // one push; failures counted and warned about once

  PushGatewayOptions options_;
  const LoadProgress& progress_;
  std::string target_;  // <url>/metrics/job/llmperf/...
  std::string shown_;   // the same without credentials, for messages
  HttpPool pool_;
  std::mutex mutex_;  // guards window_ and stop_
  LiveWindow window_;
  bool stop_ = false;
  std::condition_variable wake_;
  int64_t pushes_ = 0;
  int64_t failed_ = 0;
  bool warned_ = false;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace llmperf

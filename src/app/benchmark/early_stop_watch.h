// --max-errors, --max-error-rate, --stop-on-saturation during a run: one of its RecordConsumers.
// Each batch of records goes to the verdict stage's EarlyStopMonitor, which is then asked for its
// decision on the collector thread; the first rule that fires raises the flag the engine reads
// (StopControl::early_stop) and is logged once.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/record_consumer.h"
#include "verdict/early_stop.h"

namespace llmperf {

class EarlyStopWatch : public RecordConsumer {
 public:
  // `schedule_ns`, `duration_ns`: as EarlyStopMonitor's; `label`: the run, as the log names it;
  // `origin_ns`: the steady time the run's elapsed time counts from (its anchor).
  EarlyStopWatch(const EarlyStopRules& rules, const std::vector<int64_t>* schedule_ns,
                 int64_t duration_ns, std::string label, int64_t origin_ns);

  void add(std::span<const RequestRecord> records) override;

  // Set to 1 once a rule fired: what the engine reads.
  const std::atomic<int>* flag() const { return &stop_; }
  // The rule that fired, if one did.
  const std::optional<EarlyStopDecision>& decision() const { return monitor_.decision(); }

 private:
  EarlyStopMonitor monitor_;
  std::string label_;
  int64_t origin_ns_;
  std::atomic<int> stop_{0};
};

}  // namespace llmperf

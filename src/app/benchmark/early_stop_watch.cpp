// See early_stop_watch.h.
#include "app/benchmark/early_stop_watch.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "core/clock.h"

namespace llmperf {

EarlyStopWatch::EarlyStopWatch(const EarlyStopRules& rules, const std::vector<int64_t>* schedule_ns,
                               int64_t duration_ns, std::string label, int64_t origin_ns)
    : monitor_(rules, schedule_ns, duration_ns), label_(std::move(label)), origin_ns_(origin_ns) {}

void EarlyStopWatch::add(std::span<const RequestRecord> records) {
  if (!monitor_.active()) return;
  for (const RequestRecord& record : records) monitor_.add(record);
  // Judged here, on the collector thread, once per batch of records.
  if (stop_.load(std::memory_order_relaxed) != 0) return;
  if (const auto& decision = monitor_.check(now_ns() - origin_ns_)) {
    stop_.store(1, std::memory_order_relaxed);
    spdlog::warn("{}: stopping early ({}): {}", label_, decision->reason, decision->detail);
  }
}

}  // namespace llmperf

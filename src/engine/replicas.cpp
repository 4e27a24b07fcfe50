// Choosing a replica per request (see replicas.h).
#include "engine/replicas.h"

#include <limits>
#include <stdexcept>

namespace llmperf {

ReplicaChooser::ReplicaChooser(std::vector<std::string> urls, bool least_inflight)
    : urls_(std::move(urls)), least_inflight_(least_inflight) {
  if (urls_.empty()) throw std::invalid_argument("ReplicaChooser: no URL");
  in_flight_ = std::make_unique<Counter[]>(urls_.size());
}

int32_t ReplicaChooser::acquire(uint64_t ordinal) {
  const size_t count = urls_.size();
  size_t chosen = static_cast<size_t>(ordinal % count);
  if (least_inflight_) {
    int64_t fewest = std::numeric_limits<int64_t>::max();
    for (size_t k = 0; k < count; ++k) {
      const size_t i = (static_cast<size_t>(ordinal % count) + k) % count;
      const int64_t load = in_flight_[i].value.load(std::memory_order_relaxed);
      if (load < fewest) {
        fewest = load;
        chosen = i;
      }
    }
  }
  in_flight_[chosen].value.fetch_add(1, std::memory_order_relaxed);
  return static_cast<int32_t>(chosen);
}

void ReplicaChooser::release(int32_t index) {
  in_flight_[static_cast<size_t>(index)].value.fetch_sub(1, std::memory_order_relaxed);
}

int64_t ReplicaChooser::in_flight(int32_t index) const {
  return in_flight_[static_cast<size_t>(index)].value.load(std::memory_order_relaxed);
}

}  // namespace llmperf

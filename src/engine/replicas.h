// Several --url (replicas with no load balancer in front of them): which replica each request is
// sent to, and how many requests each has in flight. Shared by every worker of a run: one relaxed
// atomic add when a request is sent to a replica and one when it ends (each counter on a cache
// line of its own), and with least-inflight a read of every replica's counter at send time.
// Nothing per event.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llmperf {

class ReplicaChooser {
 public:
  // `urls`: the replicas (at least two); `least_inflight`: choose by requests in flight, not
  // round-robin.
  ReplicaChooser(std::vector<std::string> urls, bool least_inflight);

  // The replica for the request (or conversation) with round-robin position `ordinal`, counted as
  // in flight there until release(). Round-robin: ordinal mod replicas. Least-inflight: the
  // replica with the fewest requests in flight, ties broken by the round-robin order from
  // ordinal mod replicas (two workers choosing at the same instant may both pick the same one:
  // the counts are read, not locked).
  int32_t acquire(uint64_t ordinal);
  // The request sent to replica `index` by acquire() has ended.
  void release(int32_t index);

  const std::string& url(int32_t index) const { return urls_[static_cast<size_t>(index)]; }
  size_t size() const { return urls_.size(); }
  // Requests in flight at replica `index` now.
  int64_t in_flight(int32_t index) const;

 private:
  struct alignas(64) Counter {
    std::atomic<int64_t> value{0};
  };
  std::vector<std::string> urls_;
  bool least_inflight_ = false;
  std::unique_ptr<Counter[]> in_flight_;
};

}  // namespace llmperf

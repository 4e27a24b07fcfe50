// The server's own record of when each request arrived and each content chunk was written, kept
// in memory and saved at shutdown so benchmarks can compare client-side timings with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llmperf::mock {

// In-memory event timestamps (steady_clock = CLOCK_MONOTONIC, nanoseconds).
class EventLog {
 public:
  explicit EventLog(bool enabled) : enabled_(enabled) {}

  bool enabled() const { return enabled_; }

  // Request `seq` was fully received at `ns`.
  void record_received(std::uint64_t seq, std::int64_t ns);

  // Content chunks [first_index, first_index + count) of request `seq` were handed to one write
  // started at `ns`.
  void record_chunks(std::uint64_t seq, std::int64_t first_index, std::int64_t count,
                     std::int64_t ns);

  // POST /start_profile (`start`) or /stop_profile was answered at `ns`.
  void record_profile(bool start, std::int64_t ns);

  // Writes "recv <seq> <ns>", "evt <seq> <index> <ns>", "start_profile <ns>" and
  // "stop_profile <ns>" lines to `path`, in the order they happened; returns false (after
  // printing why to stderr) when the file cannot be written.
  bool save(const std::string& path) const;

 private:
  // One line of the log.
  struct Record {
    std::uint64_t seq;   // request number (0 for a profiler call)
    std::int64_t index;  // content chunk index, or one of the kinds below
    std::int64_t ns;     // steady_clock nanoseconds
  };
  static constexpr std::int64_t kReceived = -1;      // the arrival of request seq
  static constexpr std::int64_t kStartProfile = -2;  // a POST /start_profile
  static constexpr std::int64_t kStopProfile = -3;   // a POST /stop_profile

  bool enabled_;
  std::vector<Record> records_;
};

}  // namespace llmperf::mock

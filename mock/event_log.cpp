// Event log storage and its text export for llmperf-mock.
#include "event_log.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace llmperf::mock {

void EventLog::record_received(std::uint64_t seq, std::int64_t ns) {
  if (enabled_) records_.push_back({seq, kReceived, ns});
}

void EventLog::record_chunks(std::uint64_t seq, std::int64_t first_index, std::int64_t count,
                             std::int64_t ns) {
  if (!enabled_) return;
  for (std::int64_t i = 0; i < count; ++i) records_.push_back({seq, first_index + i, ns});
}

void EventLog::record_profile(bool start, std::int64_t ns) {
  if (enabled_) records_.push_back({0, start ? kStartProfile : kStopProfile, ns});
}

bool EventLog::save(const std::string& path) const {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    fmt::print(stderr, "llmperf-mock: cannot write event log {}: {}\n", path, std::strerror(errno));
    return false;
  }
  fmt::memory_buffer buffer;
  bool ok = true;
  for (const Record& r : records_) {
    if (r.index == kReceived) {
      fmt::format_to(std::back_inserter(buffer), "recv {} {}\n", r.seq, r.ns);
    } else if (r.index == kStartProfile || r.index == kStopProfile) {
      fmt::format_to(std::back_inserter(buffer), "{}_profile {}\n",
                     r.index == kStartProfile ? "start" : "stop", r.ns);
    } else {
      fmt::format_to(std::back_inserter(buffer), "evt {} {} {}\n", r.seq, r.index, r.ns);
    }
    if (buffer.size() > (1u << 20)) {
      ok = ok && std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size();
      buffer.clear();
    }
  }
  ok = ok && std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size();
  ok = (std::fclose(file) == 0) && ok;
  if (!ok) fmt::print(stderr, "llmperf-mock: error while writing event log {}\n", path);
  return ok;
}

}  // namespace llmperf::mock

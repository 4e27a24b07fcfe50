// --threads auto (see worker_threads.h).
#include "engine/worker_threads.h"

#include <sched.h>

#include <algorithm>

#include <fmt/format.h>

namespace llmperf {

WorkerThreads choose_worker_threads(int requested, int parallel, int usable_cores,
                                    bool server_local) {
  parallel = std::max(1, parallel);
  if (requested > 0) {
    const int threads = std::min(requested, parallel);
    return {threads, threads == requested
                         ? fmt::format("--threads {}", requested)
                         : fmt::format("--threads {}, capped at --parallel {}", requested, parallel)};
  }
  const int wanted = (parallel + kStreamsPerWorker - 1) / kStreamsPerWorker;
  const int cores = std::max(1, usable_cores - (server_local ? 1 : 0));
  const int threads = std::clamp(wanted, 1, cores);
  std::string reason = fmt::format("auto: {} stream{} / {} per worker", parallel,
                                   parallel == 1 ? "" : "s", kStreamsPerWorker);
  if (wanted > cores) {
    reason += fmt::format(", capped at {} of {} usable core{}{}", cores, usable_cores,
                          usable_cores == 1 ? "" : "s",
                          server_local ? " (one left to the server on this machine)" : "");
  }
  return {threads, reason};
}

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

bool is_loopback_url(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  std::string host = url.substr(start, url.find_first_of("/?#", start) - start);
  if (const size_t at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
  if (!host.empty() && host.front() == '[') return host.rfind("[::1]", 0) == 0;
  host = host.substr(0, host.find(':'));
  return host == "localhost" ||
         (host.rfind("127.", 0) == 0 && host.find_first_not_of("0123456789.") == std::string::npos);
}

}  // namespace llmperf

// --threads auto (the default): how many worker threads (each one curl multi and event loop on a
// core of its own) a run gets, from its concurrency and the cores this process may use.
#pragma once

#include <string>

namespace llmperf {

// Streams one worker thread keeps well within its core at typical token rates (bench/README.md).
inline constexpr int kStreamsPerWorker = 500;

struct WorkerThreads {
  int threads = 1;
  std::string reason;  // how the number was chosen, for the summary
};

// `requested` > 0: --threads N, as given (capped at `parallel`). 0 (auto): one worker per
// kStreamsPerWorker streams of `parallel`, at most the usable cores, less one when the server
// is on this machine (a loopback URL), and at least one.
WorkerThreads choose_worker_threads(int requested, int parallel, int usable_cores,
                                    bool server_local);

// The cores this process may run on (sched_getaffinity), at least 1.
int usable_cores();

// True when `url`'s host is this machine: localhost, 127.x.y.z or [::1].
bool is_loopback_url(const std::string& url);

}  // namespace llmperf

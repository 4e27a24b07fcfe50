// Jobs over slots (see slot_runner.h).
#include "app/tune/slot_runner.h"

#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace llmperf {

void run_in_slots(size_t slots, size_t jobs,
                  const std::function<void(size_t job, size_t slot)>& run,
                  const std::function<bool()>& stop) {
  if (slots <= 1) {
    for (size_t job = 0; job < jobs && !stop(); ++job) run(job, 0);
    return;
  }
  std::mutex mutex;
  size_t next = 0;             // the next job to start; guarded by mutex
  std::exception_ptr failure;  // the first job's exception; guarded by mutex
  const auto take = [&]() -> std::optional<size_t> {
    std::lock_guard lock(mutex);
    if (next >= jobs || failure || stop()) return std::nullopt;
    return next++;
  };
  std::vector<std::thread> threads;
  for (size_t slot = 0; slot < slots && slot < jobs; ++slot) {
    threads.emplace_back([&, slot] {
      while (const std::optional<size_t> job = take()) {
        try {
          run(*job, slot);
        } catch (...) {
          std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace llmperf

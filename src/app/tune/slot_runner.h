// Trials side by side (`llmperf tune --slots`): a batch of jobs run over a study's slots, at most
// one job per slot at a time, each slot a thread of its own that takes the next job not yet
// started. The jobs are trials (trial_runner.h), whose benchmarks run in this process:
// run_benchmark keeps no process-wide state but the Ctrl-C counter (app/signals.h), which every
// slot reads so that one Ctrl-C stops them all, and libcurl's global initialisation, done before
// any slot starts.
#pragma once

#include <cstddef>
#include <functional>

namespace llmperf {

// Runs jobs 0..jobs-1 over `slots` slots: a free slot takes the lowest job not yet started, and
// none is started once `stop()` is true. Returns when every started job has ended. With one slot,
// the jobs run in order on the calling thread. `run(job, slot)` is called from the slots' threads
// at once: what its calls share must be guarded by the caller. An exception from a job stops the
// slots from taking more, and the first one is rethrown once the others have ended.
void run_in_slots(size_t slots, size_t jobs,
                  const std::function<void(size_t job, size_t slot)>& run,
                  const std::function<bool()>& stop);

}  // namespace llmperf

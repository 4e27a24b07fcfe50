// GPU memory during a trial of `llmperf tune`: where nvidia-smi is on PATH, a thread runs
// `nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader,nounits` every
// couple of seconds and keeps each GPU's peak memory in use. Where it is absent (or never answers
// usably), nothing is sampled and nothing is recorded: no error, no empty field.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app/programs.h"  // find_on_path
#include "study/trial.h"  // GpuMemory

namespace llmperf {


// The GPUs of one nvidia-smi answer in the format above ("0, 19344, 46068" per line), in its
// order. Lines that do not hold three integers (blank lines, "[N/A]", "[Not Supported]", an error
// message instead of the table) are skipped; white space and \r are tolerated.
std::vector<GpuMemory> parse_gpu_memory(std::string_view text);

// Folds one sample into the peaks: per GPU index, the highest used_mib (and the total beside it);
// new GPUs are added. `peaks` stays sorted by index. With `only` not empty, the GPUs whose index
// it does not hold are left out.
void keep_peaks(std::vector<GpuMemory>& peaks, const std::vector<GpuMemory>& sample,
                const std::vector<int>& only = {});

struct GpuSamplerOptions {
  std::string program = "nvidia-smi";  // looked up on PATH
  int64_t interval_ms = 2'000;         // between two samples
  int64_t call_timeout_ms = 10'000;    // one nvidia-smi call that takes longer is killed
  // Only these GPUs (nvidia-smi's indices: a --slots slot's), so that trials side by side each
  // record their own GPUs' peaks; empty = every GPU.
  std::vector<int> gpu_ids;
};

class GpuSampler {
 public:
  // Looks the program up and, when found, starts sampling at once (the first sample right away).
  explicit GpuSampler(GpuSamplerOptions options = {});
  ~GpuSampler();  // stop()
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  bool active() const { return !program_path_.empty(); }  // the program was found

  // Stops sampling promptly (a call in progress is killed) and returns each GPU's peak, by
  // index; empty when the program is absent or gave no usable answer. Idempotent.
  std::vector<GpuMemory> stop();

  int samples() const { return samples_.load(); }  // usable answers so far

 private:
  void run();
  // One call of the program; its output, or "" when it failed, timed out or was stopped.
  std::string call_once();

  GpuSamplerOptions options_;
  std::string program_path_;
  std::atomic<int> samples_{0};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<GpuMemory> peaks_;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace llmperf

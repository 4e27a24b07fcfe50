// What every prompt source of the prepare stage shares: how many requests a run sends and how
// many distinct prompts it gets, the seed of each run's prompts, its output lengths, the shape an
// API wants, the bookkeeping of what a synthetic run made, and progress on stderr while the
// server counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "workload/dataset.h"
#include "workload/synthetic/synthetic.h"

namespace llmperf {

// Distinct synthetic prompts made per run at most; longer runs cycle through them.
inline constexpr int64_t kMaxSyntheticPrompts = 10'000;

// Requests a run sends, warm-up included: the prompts it needs (cycled past the cap).
int64_t requests_of(const PrepareSections& config, const RunSpec& run);

// The most requests any run of the sweep sends, warm-up included: what a dataset read once must
// cover.
int64_t most_requests_of(const PrepareSections& config);

// Distinct prompts to make for `requests` requests: at least 1, at most kMaxSyntheticPrompts.
int64_t distinct_prompts(int64_t requests);

// The seed of the prompts of run `index` (0-based, in sweep order): fresh text for every run of a
// sweep, so that one run's KV cache does not help the next, reproducible from --seed.
uint64_t run_seed(uint64_t seed, size_t index);

// The range a run draws its output lengths from: its grid cell, --max-tokens MIN MAX,
// --min-tokens..--max-tokens, or --max-tokens alone.
LengthRange output_range(const PrepareSections& config, const RunSpec& run);

// A start-up probe that no run sends: a prompt of the workload would warm the server's prefix
// cache for the request that sends it first.
Prompt neutral_probe();

// Embeddings batches and rerank queries from the prompts, and synthetic images on them.
void shape_for_api(std::vector<Prompt>& prompts, const PrepareSections& config);

// What one run's synthetic preparation made (random prompts, shared prefixes, conversations,
// trace prompts).
struct MadePrompts {
  int64_t prompts = 0;     // distinct prompts (or conversation messages) made
  int64_t misses = 0;      // of those, prompts whose count missed their target while fitting
  int64_t fit_counts = 0;  // token counts the fitting asked of the tokenizer
  int64_t started_ns = 0;  // now_ns() when making them started
};

// Records `made` in the run's WorkloadInfo: synthetic, counted, the counts, and the seconds
// since made.started_ns.
void record_made(WorkloadInfo& workload, const MadePrompts& made);

// How the run's lengths were counted, for its log line: "<source>; N missed their length" when
// the server's tokenizer counted them (`exact`), "<source>; approximate" when they were estimated.
std::string counting_note(const WorkloadInfo& workload, bool exact);

// Prints "<what>: done/total prompts fitted" on stderr once preparation has taken over a second.
class PrepareProgress {
 public:
  explicit PrepareProgress(std::string what);
  ~PrepareProgress();
  PrepareProgress(const PrepareProgress&) = delete;
  PrepareProgress& operator=(const PrepareProgress&) = delete;
  void operator()(size_t done, size_t total);

 private:
  std::string what_;
  int64_t start_ns_;
  bool shown_ = false;
};

}  // namespace llmperf

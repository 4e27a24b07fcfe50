// Trace replay (--dataset mooncake_trace, workload_trace): the trace read once (its first -n
// requests by timestamp, or all of them), its planned send times, and each run's prompts: the
// trace's bodies as given, or Mooncake's lengths and hash ids made into text with fresh blocks
// for every run (from --seed), so that one run's cache does not serve the next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "prepare/length_counter.h"
#include "workload/context_fit.h"
#include "workload/dataset.h"
#include "workload/replay/trace.h"

namespace llmperf {

struct LoadedTrace {
  std::vector<TraceEntry> entries;  // the trace's requests, in timestamp order; never empty
  std::vector<int64_t> schedule;    // each one's planned send offset (ns from the run start,
                                    // --trace-speedup applied)
};

// Reads the trace. Fills `dataset` and `info` (all but the per-run block counts); logs what it
// read. Throws DatasetError.
LoadedTrace load_trace(const PrepareSections& config, DatasetStats& dataset, TraceInfo& info);

// The prompts of run `index`, in the trace's order. Bodies are sent as given (`counter` unused);
// Mooncake entries are made with `counter`, recorded in `workload` and logged. Throws
// TokenizerError.
std::vector<Prompt> make_trace_run_prompts(const PrepareSections& config,
                                           const std::vector<TraceEntry>& entries, size_t index,
                                           const LengthCounter& counter, WorkloadInfo& workload);

// The longest of the trace's requests (Mooncake: input_length + output_length).
PlannedLength longest_trace_request(const std::vector<TraceEntry>& entries);

}  // namespace llmperf

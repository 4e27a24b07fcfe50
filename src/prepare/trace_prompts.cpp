// Trace replay: read once, prompts made per run (see trace_prompts.h).
#include "prepare/trace_prompts.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_set>

#include "core/clock.h"
#include "prepare/preparation.h"

namespace llmperf {
namespace {

// Prompt tokens in each entry's leading blocks named by an earlier entry (in send order).
int64_t trace_reusable_tokens(const std::vector<TraceEntry>& entries, int64_t block) {
  std::unordered_set<int64_t> seen;
  int64_t total = 0;
  for (const TraceEntry& entry : entries) {
    int64_t leading = 0;
    while (static_cast<size_t>(leading) < entry.hash_ids.size() &&
           seen.count(entry.hash_ids[static_cast<size_t>(leading)]) > 0) {
      ++leading;
    }
    total += std::min(entry.input_length, leading * block);
    seen.insert(entry.hash_ids.begin(), entry.hash_ids.end());
  }
  return total;
}

}  // namespace

LoadedTrace load_trace(const PrepareSections& config, DatasetStats& dataset, TraceInfo& info) {
  const int64_t limit = config.workload.trace_all
                            ? std::numeric_limits<int64_t>::max()
                            : std::max<int64_t>(1, config.load.number.front());
  TraceFile file = read_trace(config.workload.dataset_path, limit);
  dataset = file.stats;
  LoadedTrace trace;
  trace.entries = std::move(file.entries);
  trace.schedule = trace_schedule(trace.entries, config.workload.trace_speedup);
  const std::vector<TraceEntry>& entries = trace.entries;
  info.on = true;
  info.bodies = file.bodies;
  info.entries = static_cast<int64_t>(entries.size());
  info.span_s = static_cast<double>(entries.back().offset_ns - entries.front().offset_ns) / 1e9;
  info.speedup = config.workload.trace_speedup;
  info.out_of_order = file.out_of_order;
  spdlog::info("trace: {} requests from {} over {:.1f} s of timestamps ({}), replayed x{:g}",
               entries.size(), config.workload.dataset_path, info.span_s,
               file.bodies ? "request bodies" : "Mooncake lengths and hash ids",
               config.workload.trace_speedup);
  if (file.out_of_order > 0) {
    spdlog::warn(
        "trace: {} lines have a timestamp earlier than the line before: the requests are "
        "replayed in timestamp order",
        file.out_of_order);
  }
  if (dataset.malformed > 0) {
    spdlog::warn("trace: skipped {} malformed lines; first: {}", dataset.malformed,
                 dataset.first_malformed_reason);
  }
  if (file.bodies) {
    bool headers = false;
    for (const TraceEntry& entry : entries) headers = headers || !entry.headers.empty();
    if (headers) {
      spdlog::warn("trace: per-request \"headers\" are not sent; give common ones with --headers");
    }
  }
  return trace;
}

std::vector<Prompt> make_trace_run_prompts(const PrepareSections& config,
                                           const std::vector<TraceEntry>& entries, size_t index,
                                           const LengthCounter& counter, WorkloadInfo& workload) {
  TraceInfo& info = workload.trace;
  TraceBuildOptions options;
  options.block_tokens = config.workload.trace_block_tokens;
  options.seed = run_seed(config.load.seed, index);
  options.token_ids = config.workload.tokenize_prompt;
  const int64_t started = now_ns();
  if (info.bodies) {
    std::vector<Prompt> prompts = make_trace_body_prompts(entries, options);
    workload.prompts = static_cast<int64_t>(prompts.size());
    return prompts;
  }
  TracePrompts made;
  {
    PrepareProgress progress(fmt::format("run {}", index + 1));
    made = make_trace_prompts(counter.tokenizer.get(), counter.estimate_or_null(), entries, options,
                              std::ref(progress));
  }
  info.block_tokens = config.workload.trace_block_tokens;
  info.distinct_blocks = made.distinct_blocks;
  info.reused_blocks = made.reused_blocks;
  info.prompt_tokens = 0;
  for (const TraceEntry& entry : entries) info.prompt_tokens += entry.input_length;
  info.reusable_tokens = trace_reusable_tokens(entries, config.workload.trace_block_tokens);
  record_made(workload,
              {static_cast<int64_t>(made.prompts.size()), made.misses, made.fit_counts, started});
  spdlog::info("prompts: {} made in {:.2f} s from {} distinct blocks of {} tokens ({})",
               made.prompts.size(), workload.prepare_s, made.distinct_blocks,
               config.workload.trace_block_tokens, counting_note(workload, counter.exact()));
  return std::move(made.prompts);
}

PlannedLength longest_trace_request(const std::vector<TraceEntry>& entries) {
  PlannedLength longest;
  for (const TraceEntry& entry : entries) {
    longest = longer(longest, {entry.input_length, std::max<int64_t>(0, entry.output_length),
                               fmt::format("line {} of the trace", entry.line)});
  }
  return longest;
}

}  // namespace llmperf

// What every prompt source shares (see preparation.h).
#include "prepare/preparation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/clock.h"
#include "workload/batching.h"
#include "workload/image_prompts.h"

namespace llmperf {

int64_t requests_of(const PrepareSections& config, const RunSpec& run) {
  return (run.number + config.load.warmup_count(run.number)) * texts_per_request(config);
}

int64_t most_requests_of(const PrepareSections& config) {
  int64_t most = 0;
  for (const RunSpec& run : run_specs(config)) {
    most = std::max(most, requests_of(config, run));
  }
  return most;
}

int64_t distinct_prompts(int64_t requests) {
  return std::clamp<int64_t>(requests, 1, kMaxSyntheticPrompts);
}

uint64_t run_seed(uint64_t seed, size_t index) { return seed * 1'000'003 + index; }

LengthRange output_range(const PrepareSections& config, const RunSpec& run) {
  if (run.output_tokens >= 0) return {run.output_tokens, run.output_tokens};
  const int64_t high = config.body.max_tokens.value_or(2048);
  if (config.body.max_tokens_low >= 0) return {config.body.max_tokens_low, high};
  if (config.body.min_tokens) return {std::min(*config.body.min_tokens, high), high};
  return {high, high};
}

Prompt neutral_probe() {
  Prompt probe;
  probe.text = "Hello";
  probe.length = 5;
  probe.target_output_tokens = 8;
  return probe;
}

void shape_for_api(std::vector<Prompt>& prompts, const PrepareSections& config) {
  // group_texts returns a copy; one text per request (every chat run) needs none.
  if (texts_per_request(config) > 1)
    prompts = group_texts(prompts, config.target.api_kind, texts_per_request(config));
  attach_synthetic_images(prompts, config.workload, config.load.seed);
}

void record_made(WorkloadInfo& workload, const MadePrompts& made) {
  workload.synthetic = true;
  workload.counted = true;
  workload.prompts = made.prompts;
  workload.fit_misses = made.misses;
  workload.fit_counts = made.fit_counts;
  workload.prepare_s = static_cast<double>(now_ns() - made.started_ns) / 1e9;
}

std::string counting_note(const WorkloadInfo& workload, bool exact) {
  return exact ? fmt::format("{}; {} missed their length", workload.tokenizer.source,
                             workload.fit_misses)
               : workload.tokenizer.source + "; approximate";
}

PrepareProgress::PrepareProgress(std::string what) : what_(std::move(what)), start_ns_(now_ns()) {}

PrepareProgress::~PrepareProgress() {
  if (shown_) std::fputs("\n", stderr);
}

void PrepareProgress::operator()(size_t done, size_t total) {
  if (now_ns() - start_ns_ < 1'000'000'000) return;
  shown_ = true;
  std::fputs(fmt::format("\r{}: {}/{} prompts fitted", what_, done, total).c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace llmperf

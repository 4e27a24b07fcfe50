// ShareGPT, sampled and measured once (see sharegpt_prompts.h).
#include "prepare/sharegpt_prompts.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>

#include "core/clock.h"
#include "prepare/preparation.h"
#include "workload/datasets/sharegpt.h"

namespace llmperf {

std::vector<Prompt> sample_sharegpt_prompts(const PrepareSections& config,
                                            const LengthCounter& counter, DatasetStats& dataset,
                                            WorkloadInfo& workload) {
  ShareGptSpec spec;
  spec.path = config.workload.dataset_path;
  spec.count = distinct_prompts(most_requests_of(config));
  spec.seed = config.load.seed;
  spec.limits.min_tokens = config.workload.sharegpt_min_len;
  spec.limits.max_prompt_tokens = config.workload.sharegpt_max_input_len;
  spec.limits.max_total_tokens = config.workload.sharegpt_max_total_len;
  spec.limits.output_len = config.workload.sharegpt_output_len;
  const int64_t started = now_ns();
  ShareGptSampling sampling;
  std::vector<Prompt> prompts;
  {
    PrepareProgress progress("sharegpt");
    prompts = sample_sharegpt(spec, counter.tokenizer.get(), counter.estimate_or_null(), dataset,
                              sampling, std::ref(progress));
  }
  workload.counted = true;
  workload.prompts = static_cast<int64_t>(prompts.size());
  workload.candidates = sampling.candidates;
  workload.measured = sampling.measured;
  workload.dropped_short = sampling.too_short;
  workload.dropped_long = sampling.too_long;
  workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
  spdlog::info(
      "sharegpt: {} prompts from {} conversations drawn of {} read ({} measured, {} too short, "
      "{} too long, {} malformed, {} with fewer than two turns) in {:.2f} s",
      prompts.size(), sampling.candidates, dataset.records_read, sampling.measured,
      sampling.too_short, sampling.too_long, dataset.malformed, dataset.skipped_turns,
      workload.prepare_s);
  if (static_cast<int64_t>(prompts.size()) < spec.count) {
    spdlog::warn(
        "sharegpt: only {} prompts pass the length limits, fewer than the {} requests "
        "of the longest run: they are sent again in turn",
        prompts.size(), spec.count);
  }
  if (dataset.malformed > 0) {
    spdlog::warn("sharegpt: skipped {} malformed items; first: {}", dataset.malformed,
                 dataset.first_malformed_reason);
  }
  shape_for_api(prompts, config);
  return prompts;
}

PlannedLength longest_sharegpt_request(const std::vector<Prompt>& prompts) {
  PlannedLength longest;
  for (size_t i = 0; i < prompts.size(); ++i) {
    const Prompt& p = prompts[i];
    longest = longer(longest, {p.target_input_tokens, std::max<int64_t>(0, p.target_output_tokens),
                               fmt::format("ShareGPT prompt {} of {}", i + 1, prompts.size())});
  }
  return longest;
}

}  // namespace llmperf

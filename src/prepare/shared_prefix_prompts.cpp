// Prompts in prefix groups, made per run (see shared_prefix_prompts.h).
#include "prepare/shared_prefix_prompts.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>

#include "core/clock.h"
#include "prepare/preparation.h"
#include "workload/synthetic/synthetic.h"

namespace llmperf {

std::vector<Prompt> make_shared_prefix_prompts(const PrepareSections& config, const RunSpec& run,
                                               size_t index, const LengthCounter& counter,
                                               WorkloadInfo& workload) {
  const int64_t count = distinct_prompts(requests_of(config, run));
  const uint64_t seed = run_seed(config.load.seed, index);
  const std::vector<int32_t> order =
      draw_prefix_groups(config.workload.prefix_groups, config.workload.prefix_zipf, count, seed);
  std::vector<int64_t> uses(static_cast<size_t>(config.workload.prefix_groups), 0);
  for (const int32_t g : order) ++uses[static_cast<size_t>(g)];

  const int64_t started = now_ns();
  std::vector<std::vector<Prompt>> groups(static_cast<size_t>(config.workload.prefix_groups));
  int64_t misses = 0, fit_counts = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (uses[g] == 0) continue;
    SyntheticSpec spec;
    spec.count = config.workload.prompts_per_group > 0
                     ? std::min(uses[g], config.workload.prompts_per_group)
                     : uses[g];
    spec.input = {run.input_tokens, run.input_tokens};
    spec.output = output_range(config, run);
    spec.prefix_tokens = config.workload.prefix_length;
    spec.seed = seed * 7919 + g;  // a prefix of its own per group
    spec.token_ids = config.workload.tokenize_prompt;
    SyntheticPrompts made = counter.make(spec);
    misses += made.misses;
    fit_counts += made.fit_counts;
    groups[g] = std::move(made.prompts);
  }
  std::vector<Prompt> prompts;
  std::vector<int64_t> next(groups.size(), 0);
  for (const int32_t g : order) {
    std::vector<Prompt>& group = groups[static_cast<size_t>(g)];
    int64_t& n = next[static_cast<size_t>(g)];
    Prompt prompt = group[static_cast<size_t>(n % static_cast<int64_t>(group.size()))];
    prompt.prefix_group = g;
    prompt.prefix_first_use = n == 0;
    ++n;
    prompts.push_back(std::move(prompt));
  }
  record_made(workload, {static_cast<int64_t>(prompts.size()), misses, fit_counts, started});
  workload.prefix_tokens = config.workload.prefix_length;
  spdlog::info("prompts: {} made in {:.2f} s over {} prefix groups of {} tokens ({})",
               prompts.size(), workload.prepare_s, config.workload.prefix_groups,
               config.workload.prefix_length, counting_note(workload, counter.exact()));
  return prompts;
}

}  // namespace llmperf

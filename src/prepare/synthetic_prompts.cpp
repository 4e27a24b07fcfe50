// Synthetic prompts of token lengths, made per run (see synthetic_prompts.h).
#include "prepare/synthetic_prompts.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "core/clock.h"
#include "prepare/preparation.h"

namespace llmperf {

SyntheticSpec synthetic_spec(const PrepareSections& config, const RunSpec& run, size_t index,
                             int64_t count) {
  SyntheticSpec spec;
  spec.count = count;
  spec.input = run.input_tokens >= 0
                   ? LengthRange{run.input_tokens, run.input_tokens}
                   : LengthRange{std::max<int64_t>(1, config.workload.min_prompt_length),
                                 config.workload.max_prompt_length};
  spec.output = output_range(config, run);
  spec.prefix_tokens = config.workload.prefix_length;
  spec.seed = run_seed(config.load.seed, index);
  spec.token_ids = config.workload.tokenize_prompt;
  return spec;
}

std::vector<Prompt> make_random_prompts(const PrepareSections& config, const RunSpec& run,
                                        size_t index, const LengthCounter& counter,
                                        WorkloadInfo& workload) {
  const SyntheticSpec spec =
      synthetic_spec(config, run, index, distinct_prompts(requests_of(config, run)));
  const int64_t started = now_ns();
  SyntheticPrompts made;
  try {
    PrepareProgress progress(fmt::format("run {}", index + 1));
    made = counter.make(spec, std::ref(progress));
  } catch (const std::invalid_argument& error) {  // a fixed length the template cannot fit
    throw std::invalid_argument(fmt::format(
        "--input-tokens {}: {}; give a longer input (or use /v1/completions, which adds only "
        "special tokens)",
        run.input_tokens, error.what()));
  }
  if (made.raised > 0) {
    spdlog::warn(
        "prompts: {} drawn lengths were shorter than what every request carries (chat "
        "template, special tokens{}) and were raised to it",
        made.raised, config.workload.prefix_length > 0 ? ", prefix" : "");
  }
  std::vector<Prompt> prompts = std::move(made.prompts);
  shape_for_api(prompts, config);
  record_made(workload,
              {static_cast<int64_t>(prompts.size()), made.misses, made.fit_counts, started});
  workload.prefix_tokens = config.workload.prefix_length;
  spdlog::info("prompts: {} made in {:.2f} s ({})", prompts.size(), workload.prepare_s,
               counting_note(workload, counter.exact()));
  return prompts;
}

PlannedLength longest_synthetic_request(const PrepareSections& config) {
  const bool generates = generates_text(config.target.api_kind);
  const bool conversations = config.workload.dataset == "random_multi_turn";
  const int64_t turns = conversations ? config.workload.max_turns.value_or(5) : 1;
  PlannedLength longest;
  size_t index = 0;
  for (const RunSpec& run : run_specs(config)) {
    const SyntheticSpec spec = synthetic_spec(config, run, index++, 1);
    const int64_t input = spec.input.max + spec.prefix_tokens;
    const int64_t output = generates ? spec.output.max : 0;
    PlannedLength planned;
    if (conversations) {  // the last turn carries every earlier message and answer
      planned.input_tokens = turns * input + (turns - 1) * output;
      planned.output_tokens = output;
      planned.what = fmt::format(
          "the last turn of a {}-turn conversation of {}-token messages and {}-token answers",
          turns, input, output);
    } else {
      planned.input_tokens = input;
      planned.output_tokens = output;
      planned.what = fmt::format("{} input tokens{}, max_tokens {}", spec.input.max,
                                 spec.prefix_tokens > 0
                                     ? fmt::format(" + a {}-token prefix", spec.prefix_tokens)
                                     : std::string(),
                                 output);
    }
    longest = longer(longest, planned);
  }
  return longest;
}

}  // namespace llmperf

// Datasets of text, read once (see dataset_prompts.h).
#include "prepare/dataset_prompts.h"

#include <spdlog/spdlog.h>

#include <random>

#include "prepare/preparation.h"
#include "workload/image_prompts.h"

namespace llmperf {

std::vector<Prompt> load_dataset_prompts(const PrepareSections& config, DatasetStats& dataset) {
  DatasetOptions options;
  options.kind = config.workload.dataset;
  options.path = config.workload.dataset_path;
  options.fixed_prompt = config.workload.prompt;
  options.min_length = config.workload.min_prompt_length;
  options.max_length = config.workload.max_prompt_length;
  options.limit = most_requests_of(config);
  std::vector<Prompt> prompts = load_prompts(options, dataset);
  spdlog::info(
      "dataset: {} prompts from {} ({} records read, {} outside the length filter, {} "
      "malformed)",
      prompts.size(), config.workload.prompt.empty() ? config.workload.dataset_path : "--prompt",
      dataset.records_read, dataset.skipped_length, dataset.malformed);
  if (dataset.malformed > 0) {
    spdlog::warn("dataset: skipped {} malformed records; first: {}", dataset.malformed,
                 dataset.first_malformed_reason);
  }
  // EvalScope's --max-tokens MIN MAX: each prompt's max_tokens drawn from the range (seeded).
  if (config.body.max_tokens_low >= 0 && config.body.max_tokens) {
    std::mt19937_64 rng(config.load.seed);
    std::uniform_int_distribution<int64_t> draw(config.body.max_tokens_low,
                                                *config.body.max_tokens);
    for (Prompt& prompt : prompts) prompt.target_output_tokens = draw(rng);
  }
  if (const int64_t images = inline_image_files(prompts, config.workload.dataset_path);
      images > 0) {
    spdlog::info("dataset: {} image files inlined as base64 data URLs", images);
  }
  shape_for_api(prompts, config);
  return prompts;
}

}  // namespace llmperf

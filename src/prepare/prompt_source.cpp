// A run's prompts (see prompt_source.h): which source a workload takes, what it reads once at
// start-up, and what it makes again for each run.
#include "prepare/prompt_source.h"

#include <utility>

#include "prepare/conversations.h"
#include "prepare/dataset_prompts.h"
#include "prepare/length_counter.h"
#include "prepare/preparation.h"
#include "prepare/shared_prefix_prompts.h"
#include "prepare/sharegpt_prompts.h"
#include "prepare/synthetic_prompts.h"
#include "prepare/trace_prompts.h"
#include "workload/batching.h"

namespace llmperf {

struct PromptSource::Impl {
  const PrepareSections config;  // a copy: the source outlives the Config it was made from
  std::string model;  // the benchmark's, for the server's tokenizer
  HttpPoolOptions side_channel;  // how the server's tokenize API is called
  DatasetStats dataset;
  WorkloadInfo workload;
  std::vector<Prompt> prompts;           // the dataset's, or the current run's
  std::vector<Prompt> probe_prompts;     // for the start-up probe
  LengthCounter counter;                 // synthetic prompts, ShareGPT, Mooncake traces
  std::optional<size_t> prepared_index;  // the run whose prompts (or sessions) are made
  std::vector<SessionScript> sessions;   // --multi-turn: the conversations
  LoadedTrace trace;                     // trace replay: read once

  Impl(const PrepareSections& c, std::string m, HttpPoolOptions http)
      : config(c), model(std::move(m)), side_channel(std::move(http)) {}

  bool replays_trace() const { return !trace.entries.empty(); }

  void find_counter() {
    counter = find_length_counter(config, model, side_channel);
    workload.tokenizer = counter.info;
  }

  // The prompts (or conversations) of run `index`, for the workloads made per run.
  void make_run(const RunSpec& run, size_t index) {
    if (replays_trace()) {
      prompts = make_trace_run_prompts(config, trace.entries, index, counter, workload);
    } else if (config.workload.dataset == "shared_prefix") {
      prompts = make_shared_prefix_prompts(config, run, index, counter, workload);
    } else if (config.workload.dataset == "random_multi_turn") {
      sessions = make_random_conversations(config, run, index, counter, workload);
    } else {
      prompts = make_random_prompts(config, run, index, counter, workload);
    }
  }
};

PromptSource::PromptSource(const PrepareSections& config, const std::string& model,
                           const HttpPoolOptions& side_channel)
    : impl_(std::make_unique<Impl>(config, model, side_channel)) {
  Impl& s = *impl_;
  if (is_trace_dataset(config.workload.dataset)) {
    s.trace = load_trace(config, s.dataset, s.workload.trace);
    if (!s.workload.trace.bodies) s.find_counter();  // bodies are sent as given: nothing to count
    s.probe_prompts = {neutral_probe()};
    return;
  }
  if (config.workload.multi_turn && config.workload.dataset != "random_multi_turn") {
    s.sessions = load_conversations(config, s.dataset, s.workload);
    s.probe_prompts = {neutral_probe()};
    return;
  }
  if (is_sharegpt_dataset(config.workload.dataset)) {
    s.find_counter();
    s.prompts = sample_sharegpt_prompts(config, s.counter, s.dataset, s.workload);
    s.probe_prompts = {s.prompts.front()};
    return;
  }
  if (!is_synthetic_dataset(config.workload.dataset)) {
    s.prompts = load_dataset_prompts(config, s.dataset);
    s.probe_prompts = {s.prompts.front()};
    return;
  }
  s.find_counter();
  s.probe_prompts =
      group_texts({neutral_probe()}, config.target.api_kind, texts_per_request(config));
}

PromptSource::~PromptSource() = default;

const std::vector<Prompt>& PromptSource::prepare(const RunSpec& run, size_t index) {
  Impl& s = *impl_;
  const bool per_run = s.replays_trace() || is_synthetic_dataset(s.config.workload.dataset);
  if (per_run && s.prepared_index != index) {
    s.make_run(run, index);
    s.prepared_index = index;
  }
  return s.prompts;
}

const std::vector<Prompt>& PromptSource::probe_prompts() const { return impl_->probe_prompts; }
const std::vector<int64_t>* PromptSource::trace_schedule() const {
  return impl_->replays_trace() ? &impl_->trace.schedule : nullptr;
}
const std::vector<SessionScript>* PromptSource::sessions() const {
  return impl_->config.workload.multi_turn ? &impl_->sessions : nullptr;
}
const DatasetStats& PromptSource::dataset() const { return impl_->dataset; }
const WorkloadInfo& PromptSource::workload() const { return impl_->workload; }
const ContextLength& PromptSource::tokenize_context() const { return impl_->counter.context; }

std::optional<PlannedLength> PromptSource::longest_request() const {
  const Impl& s = *impl_;
  const PrepareSections& config = s.config;
  if (s.replays_trace()) {
    if (s.workload.trace.bodies) return std::nullopt;
    return longest_trace_request(s.trace.entries);
  }
  if (config.workload.multi_turn && config.workload.dataset != "random_multi_turn")
    return std::nullopt;
  if (is_synthetic_dataset(config.workload.dataset)) return longest_synthetic_request(config);
  if (!is_sharegpt_dataset(config.workload.dataset)) return std::nullopt;
  return longest_sharegpt_request(s.prompts);
}

}  // namespace llmperf

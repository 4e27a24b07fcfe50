// The prepare stage's face: where each run's prompts come from. A dataset file, read once and
// shared by every run (dataset_prompts.h); a ShareGPT file, sampled and measured once
// (sharegpt_prompts.h); synthetic prompts of exact token lengths, made for each run with fresh
// text so that one run's KV cache does not help the next (synthetic_prompts.h,
// shared_prefix_prompts.h); conversations (conversations.h); or a trace (trace_prompts.h). Their
// lengths are counted by the server under test (length_counter.h). The engine receives the
// prepared prompts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "http/http_pool.h"
#include "workload/context_fit.h"
#include "workload/dataset.h"
#include "workload/replay/session_script.h"

namespace llmperf {

class PromptSource {
 public:
  // Reads the dataset, or finds how to count tokens with the server, whose tokenizer is asked
  // for `model` (the benchmark's: --model, or the one the server lists) over `side_channel` (the
  // plan's side_channel_options). Throws DatasetError, TokenizerError or std::runtime_error
  // (start-up errors, mapped to exit codes by main).
  PromptSource(const PrepareSections& config, const std::string& model,
               const HttpPoolOptions& side_channel);
  ~PromptSource();
  PromptSource(const PromptSource&) = delete;
  PromptSource& operator=(const PromptSource&) = delete;

  // The prompts of the run `index` (0-based, in sweep order) described by `run`; never empty.
  // Synthetic prompts are made here (logged, with progress on stderr past a second), once per
  // index: asking for the same index again returns them. Throws like the constructor, and
  // std::invalid_argument when a fixed length is too short for the chat template.
  const std::vector<Prompt>& prepare(const RunSpec& run, size_t index);

  // --multi-turn: the conversations of the last prepare() (sessions_for() of every run); nullptr
  // for runs of single prompts.
  const std::vector<SessionScript>* sessions() const;

  // Trace replay: the planned send offset (ns from the run start, --trace-speedup applied) of each
  // of the trace's requests, in the order of the prompts; nullptr for other workloads.
  const std::vector<int64_t>* trace_schedule() const;

  // A prompt for the start-up probe request.
  const std::vector<Prompt>& probe_prompts() const;

  // The longest request any run of the sweep plans (input + max_tokens), where the lengths are
  // known before it runs: synthetic runs (random, shared_prefix, random_multi_turn with its
  // history), ShareGPT, Mooncake traces. nullopt for datasets of text, trace bodies and
  // conversations read from a file, whose prompts are not counted.
  std::optional<PlannedLength> longest_request() const;
  // The context length the server's tokenize API gave (vLLM's /tokenize); tokens 0 when none.
  const ContextLength& tokenize_context() const;

  const DatasetStats& dataset() const;
  // How the prompts of the last prepare() were made (synthetic workloads).
  const WorkloadInfo& workload() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmperf

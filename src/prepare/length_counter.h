// How ShareGPT, synthetic and trace prompts are measured: the server's own tokenizer, found
// through its tokenize API (vLLM/SGLang, llama.cpp or TGI shapes, chat template included), or,
// where it has none, a length model calibrated from the usage it reports (approximate), or
// estimated from characters where it reports no usage either.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "http/http_pool.h"
#include "workload/context_fit.h"
#include "workload/synthetic/synthetic.h"
#include "workload/tokenizer.h"

namespace llmperf {

struct LengthCounter {
  std::unique_ptr<Tokenizer> tokenizer;  // the server's tokenizer; null when it has none
  std::optional<LengthModel> estimate;   // without a tokenizer: how lengths are estimated
  TokenizerInfo info;                    // where the counts come from, for every output
  ContextLength context;                 // what the tokenize API said of the context, if anything

  // Counted by the server's tokenizer (not estimated).
  bool exact() const { return tokenizer != nullptr; }
  // The estimate, or nullptr with a tokenizer.
  const LengthModel* estimate_or_null() const { return estimate ? &*estimate : nullptr; }
  // Synthetic prompts to `spec`: cut to their exact lengths with the tokenizer (reporting to
  // `progress`), or estimated. Throws like make_exact_prompts.
  SyntheticPrompts make(const SyntheticSpec& spec, const FitProgress& progress = {}) const;
};

// Probes the server for its tokenize API (the one --tokenize-url names, or --url's) with the
// benchmark's `model`, and calibrates from usage where it has none, sending with `http` (the
// plan's side_channel_options). Logs what it found. Throws TokenizerError when --tokenize-prompt
// needs a tokenize API the server lacks, std::runtime_error when a calibration request fails.
LengthCounter find_length_counter(const PrepareSections& config, const std::string& model,
                                  const HttpPoolOptions& http);

}  // namespace llmperf

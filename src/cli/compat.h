// EvalScope and vLLM compatibility (compat.cpp): every `evalscope perf` flag is accepted, either
// with its meaning (mapped onto llmperf's own), or ignored with a warning saying why, or refused
// with a one-line "not supported: do X instead" (exit 2). docs/coming-from-evalscope.md lists each.
// Private to src/cli/.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace llmperf {

struct Config;  // core/config.h (compat.cpp includes it)

// Values of compatibility flags that are resolved after parsing.
struct CompatFlags {
  std::string api = "openai";  // --api
  std::string sla_variable = "parallel";
  std::string sla_params;  // --sla-params JSON
  int sla_num_runs = 1;
  double sla_lower_bound = 1;
  double sla_upper_bound = 65536;
  int sla_fixed_parallel = 0;
  double sla_number_multiplier = 0;
  std::string dataset_args;    // --dataset-args JSON
  std::string data_source;     // --data-source
  std::string apply_template;  // --apply-chat-template [true|false]
};

void add_compat_flags(CLI::App& app, Config& config, CompatFlags& compat);

// Applies what the compatibility flags mean to `config`: warnings for ignored flags, errors for
// refused ones and for values that cannot be mapped.
void resolve_compat(const CLI::App& app, const CompatFlags& compat, Config& config,
                    std::vector<std::string>& warnings, std::vector<std::string>& errors);

// Guidance for a --dataset name that EvalScope knows and llmperf does not ("" when none).
std::string dataset_guidance(const std::string& name);

}  // namespace llmperf

// The benchmark's flags (flags.cpp): CLI11 options bound to Config, in groups. Private to
// src/cli/.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/config.h"

namespace llmperf {

// With --rate and no --parallel, this many requests may be in flight at once.
inline constexpr int kOpenLoopDefaultCap = 1000;

// Flag values that are resolved after parsing rather than bound straight to Config.
struct RawFlags {
  std::vector<std::string> headers;  // --headers k=v ...
  std::string api_key;               // --api-key (else $OPENAI_API_KEY)
  std::string turn_delay;            // --turn-delay: "2", "1-3" or "exp:2" (seconds)
  std::string shard;                 // --shard I/N
  int shards = 0;                    // --shards N (with a Kubernetes Job's JOB_COMPLETION_INDEX)
  std::string start_at;              // --start-at TIME
  std::vector<std::string> urls;     // --url, once per replica (Config::url is the first)
  std::vector<std::string> tags;     // --tag key=value, repeatable
};

// Adds every benchmark flag to `app`, bound to `config` (and `raw`).
void add_flags(CLI::App& app, Config& config, RawFlags& raw);

// The flags of early stops and repeated runs (run_control_flags.cpp).
void add_run_control_options(CLI::App& app, Config& config);
// Checks those flags (part of validate_config), appending readable errors.
void validate_run_control(const Config& config, std::vector<std::string>& errors);
// Checks --baseline db:FILE (the file is a history database this llmperf reads), --baseline-runs
// and --noise-k (history_baseline_flags.cpp; part of validate_config).
void validate_history_baseline(const Config& config, std::vector<std::string>& errors);

}  // namespace llmperf

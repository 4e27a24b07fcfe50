// Command-line front end: binds EvalScope-compatible flags (CLI11) to a Config and validates it.
// The only code that sees argv.
#pragma once

#include <string>
#include <vector>

#include "core/command_outcome.h"
#include "core/config.h"

namespace llmperf {

struct BenchmarkCli {
  bool proceed = false;    // true: run with the parsed config
  CommandOutcome outcome;  // when !proceed: help or the version (stdout, exit 0), or a usage or
                           // config error (stderr, exit 2)
  std::vector<std::string> warnings;  // "llmperf: warning: ..." lines for stderr (ignored flags)
};

// Parses argv into `config` (which starts from defaults) and validates it. Reads
// $OPENAI_API_KEY when --api-key is not given, and resolves `--prompt @file`.
BenchmarkCli parse_cli(int argc, const char* const* argv, Config& config);

// Every name llmperf's flags answer to ("--parallel", "--max-concurrency", "-n", ...), for
// `llmperf tune`, which hands the flags it does not know to each trial's benchmark.
std::vector<std::string> benchmark_flag_names();

// Completes what the flags leave implicit: the API from --api and the URL's path, --multi-turn
// for the conversation datasets, and --ignore-eos's default for the dataset. Runs once, before
// validate_config (config_validation.cpp).
void resolve_config(Config& config);

// Checks every field of `config`, changing nothing. Returns readable errors naming the flag;
// empty when the config is usable (config_validation.cpp).
std::vector<std::string> validate_config(const Config& config);

}  // namespace llmperf

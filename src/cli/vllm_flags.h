// vLLM's benchmark client flags (`vllm bench serve`, and the older benchmarks/benchmark_serving.py)
// that llmperf has no flag of its own for, with vLLM's meaning (vllm_flags.cpp). Flags both tools
// share (--num-prompts, --request-rate, --max-concurrency, --dataset-name, ...) are aliases in
// flags.cpp. Private to src/cli/.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace llmperf {

struct Config;  // core/config.h (vllm_flags.cpp includes it)

// Values of vLLM's flags that are resolved after parsing.
struct VllmFlags {
  std::string backend;                // --backend: vllm, openai, openai-chat, ...
  std::string base_url;               // --base-url: the server's root, e.g. http://h:8000
  std::string host = "127.0.0.1";     // --host (vLLM's default)
  int port = 8000;                    // --port (vLLM's default)
  std::string endpoint;               // --endpoint ("": the backend's)
  std::string served_model_name;      // --served-model-name: the model name sent
  double random_range_ratio = 0;      // --random-range-ratio: lengths drawn in N(1 -+ r)
  std::vector<std::string> metadata;  // --metadata KEY=VALUE ...
};

void add_vllm_flags(CLI::App& app, Config& config, VllmFlags& vllm);

// Applies what vLLM's flags mean to `config`. `vllm_command`: the command line started with
// `bench serve` (as `vllm bench serve` does); it, or an address given vLLM's way (--backend,
// --base-url, --host, --port, --endpoint), makes vLLM's defaults apply: the URL from those flags,
// and without --max-concurrency or --request-rate every request sent at once. Without it (the
// benchmark_serving.py form), the --save-result copy always keeps the per-request arrays.
void resolve_vllm(const CLI::App& app, const VllmFlags& vllm, bool vllm_command, Config& config,
                  std::vector<std::string>& notes, std::vector<std::string>& errors);

}  // namespace llmperf

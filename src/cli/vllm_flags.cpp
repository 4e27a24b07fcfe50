// vLLM's benchmark client flags with vLLM's meaning (see vllm_flags.h). The defaults and the URL
// rules are those of vllm/benchmarks/serve.py (`vllm bench serve`) and
// benchmarks/benchmark_serving.py.
#include "cli/vllm_flags.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/config.h"
#include "workload/dataset.h"

namespace llmperf {
namespace {

// The backends that speak the OpenAI API, and the endpoint each uses when --endpoint is absent
// (vLLM's default is /v1/completions for all; openai-chat then needs --endpoint, here it does not).
struct VllmBackend {
  const char* name;
  const char* endpoint;
};

constexpr VllmBackend kBackends[] = {
    {"vllm", "/v1/completions"},
    {"openai", "/v1/completions"},
    {"openai-chat", "/v1/chat/completions"},
    {"openai-embeddings", "/v1/embeddings"},
    {"vllm-rerank", "/v1/rerank"},
    {"sglang", "/v1/completions"},
    {"lmdeploy", "/v1/completions"},
    {"scalellm", "/v1/completions"},
    {"llama.cpp", "/v1/completions"},
};

const VllmBackend* find_backend(const std::string& name) {
  const auto* found = std::find_if(std::begin(kBackends), std::end(kBackends),
                                   [&name](const VllmBackend& b) { return name == b.name; });
  return found == std::end(kBackends) ? nullptr : found;
}

// "http://host:port" as vLLM joins them (an IPv6 address in brackets).
std::string join_host_port(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos && !host.starts_with("[");
  return fmt::format("http://{}:{}", ipv6 ? "[" + host + "]" : host, port);
}

void resolve_address(const CLI::App& app, const VllmFlags& vllm, Config& config,
                     std::vector<std::string>& errors) {
  const bool address = app.count("--base-url") + app.count("--host") + app.count("--port") +
                           app.count("--endpoint") >
                       0;
  if (address && app.count("--url") > 0) {
    errors.push_back(
        "--url and vLLM's --base-url/--host/--port/--endpoint both give the address: give one");
    return;
  }
  const VllmBackend* backend = nullptr;
  if (!vllm.backend.empty()) {
    backend = find_backend(vllm.backend);
    if (backend == nullptr) {
      errors.push_back(fmt::format(
          "--backend {} is not supported: llmperf speaks the OpenAI API; use vllm, openai, sglang, "
          "lmdeploy, scalellm or llama.cpp (/v1/completions), openai-chat "
          "(/v1/chat/completions), openai-embeddings (/v1/embeddings) or vllm-rerank (/v1/rerank)",
          vllm.backend));
      return;
    }
  }
  std::string endpoint = vllm.endpoint;
  if (endpoint.empty()) endpoint = backend != nullptr ? backend->endpoint : "/v1/completions";
  if (backend != nullptr && std::string_view(backend->name) == "openai-chat" &&
      !endpoint.ends_with("chat/completions")) {
    errors.push_back(fmt::format(
        "--backend openai-chat needs an --endpoint ending in chat/completions (got {})", endpoint));
    return;
  }
  if (app.count("--url") > 0) return;  // the URL given decides; --backend only names it
  std::string base = vllm.base_url;
  while (base.ends_with("/")) base.pop_back();
  if (base.empty()) base = join_host_port(vllm.host, vllm.port);
  if (!endpoint.starts_with("/")) endpoint.insert(0, "/");
  config.target.url = base + endpoint;
}

// vLLM's --random-range-ratio r: input and output lengths drawn uniformly from
// [floor(N (1 - r)), ceil(N (1 + r))] around --random-input-len and --random-output-len.
void resolve_range_ratio(const VllmFlags& vllm, Config& config, std::vector<std::string>& errors) {
  const double r = vllm.random_range_ratio;
  if (!(r >= 0 && r < 1)) {
    errors.push_back(fmt::format("--random-range-ratio must be in [0, 1), got {}", r));
    return;
  }
  if (r == 0) return;
  if (!is_synthetic_dataset(config.workload.dataset) || config.workload.input_tokens.size() != 1 ||
      config.workload.output_tokens.size() != 1) {
    errors.push_back(
        "--random-range-ratio needs --dataset-name random with one --random-input-len and one "
        "--random-output-len");
    return;
  }
  const auto low = [r](int64_t n) {
    return std::max<int64_t>(1, static_cast<int64_t>(std::floor(static_cast<double>(n) * (1 - r))));
  };
  const auto high = [r](int64_t n) {
    return static_cast<int64_t>(std::ceil(static_cast<double>(n) * (1 + r)));
  };
  const int64_t input = config.workload.input_tokens.front();
  const int64_t output = config.workload.output_tokens.front();
  config.workload.input_tokens.clear();
  config.workload.output_tokens.clear();
  config.workload.min_prompt_length = low(input);
  config.workload.max_prompt_length = high(input);
  config.body.max_tokens_low = low(output);
  config.body.max_tokens = high(output);
}

// The old benchmark_serving.py's --dataset FILE: the ShareGPT file itself.
void resolve_dataset_file(Config& config, std::vector<std::string>& errors) {
  const std::vector<std::string_view> kinds = dataset_kinds();
  if (std::find(kinds.begin(), kinds.end(), config.workload.dataset) != kinds.end()) return;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(config.workload.dataset, ec)) return;
  if (!config.workload.dataset_path.empty()) {
    errors.push_back(fmt::format(
        "--dataset {} is a file (vLLM's old form of --dataset-path) and --dataset-path {} names "
        "another: give one",
        config.workload.dataset, config.workload.dataset_path));
    return;
  }
  config.workload.dataset_path = config.workload.dataset;
  config.workload.dataset = "sharegpt";
}

}  // namespace

void add_vllm_flags(CLI::App& app, Config& config, VllmFlags& vllm) {
  const char* group = "vLLM's benchmark flags (vllm bench serve, benchmark_serving.py)";
  app.add_option("--backend", vllm.backend,
                 "vLLM's backend: vllm, openai (/v1/completions), openai-chat "
                 "(/v1/chat/completions), openai-embeddings, vllm-rerank; sglang, lmdeploy, "
                 "scalellm, llama.cpp (/v1/completions)")
      ->group(group);
  app.add_option("--base-url", vllm.base_url,
                 "The server's root (instead of --url), e.g. http://127.0.0.1:8000; --endpoint "
                 "is added")
      ->group(group);
  app.add_option("--host", vllm.host, "The server's host when no --base-url is given")
      ->group(group);
  app.add_option("--port", vllm.port, "The server's port when no --base-url is given")
      ->check(CLI::Range(1, 65535))
      ->group(group);
  app.add_option("--endpoint", vllm.endpoint,
                 "API path after --base-url or --host/--port (default: the backend's)")
      ->default_str("/v1/completions")
      ->group(group);
  app.add_option("--served-model-name", vllm.served_model_name,
                 "The model name sent in requests; --model is then vllm_result.json's model_id")
      ->group(group);
  app.add_option("--tokenizer", config.output.vllm.tokenizer,
                 "Accepted: llmperf counts tokens with the server (vllm_result.json's "
                 "tokenizer_id)")
      ->group(group);
  app.add_option("--tokenizer-mode", "Accepted: llmperf counts tokens with the server")
      ->group(group);
  const std::string no_tokenizer = "Accepted: llmperf loads no tokenizer";
  app.add_flag("--trust-remote-code", no_tokenizer)->group(group);
  app.add_option("--random-range-ratio", vllm.random_range_ratio,
                 "random: input and output lengths drawn from [N(1-r), N(1+r)] (vLLM's)")
      ->group(group);
  app.add_flag("--save-result", config.output.vllm.save,
               "Also write vllm_result.json where vLLM would: --result-dir (default: here), "
               "named --result-filename or vLLM's {label}-{rate}qps-{model}-{date}.json")
      ->group(group);
  app.add_flag("--save-detailed", config.output.vllm.detailed,
               "bench serve: the --save-result copy keeps the per-request arrays, as vLLM's does "
               "(without bench serve it always does, as benchmark_serving.py's did; so does the "
               "run directory's file)")
      ->group(group);
  app.add_option("--result-dir", config.output.vllm.dir,
                 "Directory of the --save-result copy (implies it)")
      ->group(group);
  app.add_option("--result-filename", config.output.vllm.filename,
                 "File name of the --save-result copy (implies it)")
      ->group(group);
  app.add_option("--label", config.output.vllm.label,
                 "vllm_result.json's label, and its file name's prefix (default: the backend)")
      ->group(group);
  app.add_option("--metadata", vllm.metadata,
                 "KEY=VALUE pairs written into vllm_result.json, e.g. version=0.11 tp=1")
      ->group(group);
  app.add_option("--ready-check-timeout-sec", config.target.ready_timeout_s,
                 "Wait up to this many seconds for the server's /v1/models to answer before "
                 "starting (0: no wait)")
      ->check(CLI::Range(0.0, 86400.0))
      ->group(group);
}

void resolve_vllm(const CLI::App& app, const VllmFlags& vllm, bool vllm_command, Config& config,
                  std::vector<std::string>& notes, std::vector<std::string>& errors) {
  config.output.vllm.backend = vllm.backend;
  const bool vllm_address = app.count("--backend") + app.count("--base-url") + app.count("--host") +
                                app.count("--port") + app.count("--endpoint") >
                            0;
  if (vllm_command || vllm_address) {
    resolve_address(app, vllm, config, errors);
    // vLLM's --request-rate defaults to inf: without a cap, every request is sent at once.
    if (config.load.rate.empty() && app.count("--parallel") == 0 &&
        !is_trace_dataset(config.workload.dataset)) {
      config.load.rate = {std::numeric_limits<double>::infinity()};
    }
  }
  if (!vllm.served_model_name.empty()) {
    config.output.vllm.model_id =
        config.target.model.empty() ? vllm.served_model_name : config.target.model;
    config.target.model = vllm.served_model_name;
  }
  resolve_dataset_file(config, errors);
  resolve_range_ratio(vllm, config, errors);
  for (const std::string& item : vllm.metadata) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      errors.push_back(fmt::format("--metadata expects KEY=VALUE items, got \"{}\"", item));
      continue;
    }
    const auto strip = [](std::string text) {
      const size_t first = text.find_first_not_of(" \t");
      const size_t last = text.find_last_not_of(" \t");
      return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
    };
    config.output.vllm.metadata.emplace_back(strip(item.substr(0, eq)), strip(item.substr(eq + 1)));
  }
  if (app.count("--result-dir") + app.count("--result-filename") > 0)
    config.output.vllm.save = true;
  // The bare form runs benchmark_serving.py's command lines, and that script saved the
  // per-request arrays whatever --save-detailed said (it deleted them before they were added);
  // users' scripts read them. Only `vllm bench serve` drops them without --save-detailed.
  if (!vllm_command) config.output.vllm.detailed = true;
  if (app.count("--tokenizer") + app.count("--tokenizer-mode") + app.count("--trust-remote-code") >
      0) {
    notes.push_back(
        "llmperf: note: --tokenizer, --tokenizer-mode and --trust-remote-code are accepted; "
        "llmperf loads no tokenizer: it counts tokens with the server under test (usage, and its "
        "tokenize API for ShareGPT's limits and exact lengths)");
  }
}

}  // namespace llmperf

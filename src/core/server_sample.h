// What a server says about itself: one sample of its Prometheus /metrics, and who it is. The
// protocol stage parses them, the metrics stage reduces them, the reports print them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llmperf {

// One sample line of a Prometheus exposition: `name{labels} value`.
struct MetricSample {
  std::string name;  // the sample's own name: "vllm:time_to_first_token_seconds_bucket"
  std::vector<std::pair<std::string, std::string>> labels;  // in the order written, unescaped
  double value = 0;  // may be NaN or +-Inf
  // The value of label `key`, or "" when absent.
  const std::string& label(const std::string& key) const;
};

// The server's identity, as its own endpoints state it (empty where it does not say).
struct ServerIdentity {
  std::string server_header;        // the HTTP Server header ("uvicorn", "llama.cpp", ...)
  std::vector<std::string> models;  // ids from GET /v1/models
  int64_t max_model_len = 0;  // /v1/models (vLLM), /props (llama.cpp n_ctx), /info (TGI); 0: unknown
  std::string max_model_len_source;  // where max_model_len was read, e.g. "/props n_ctx per slot"
  std::string engine;         // "vLLM", "SGLang", "TGI", "llama.cpp", ... or "" when unknown
  std::string version;        // the engine's version where it says (/version, /info, /props)
  // Further facts in the order found, e.g. {"model_path", "..."}, {"total_slots", "4"}.
  std::vector<std::pair<std::string, std::string>> details;
  std::vector<std::string> answered;  // the identity endpoints that answered: "/v1/models", ...
  bool known() const { return !server_header.empty() || !models.empty() || !answered.empty(); }
  // "vLLM 0.11.0", "llama.cpp b4719", "llmperf-mock 0.1.0" (a version that names the engine
  // already is not repeated), "" when neither is known.
  std::string name() const;
};

}  // namespace llmperf

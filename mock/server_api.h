// llmperf-mock's endpoints besides completions and the tokenize API, shaped like vLLM's:
//   GET  /v1/models      {"object":"list","data":[{"id","object","created","owned_by",
//                        "max_model_len"}]} (--model, --max-model-len)
//   GET  /health         200, empty body
//   GET  /version        {"version":"llmperf-mock <version>"}
//   GET  /metrics        Prometheus text of MockMetrics (server_metrics.h); 404 with --no-metrics
//   POST /start_profile, /stop_profile
//                        200, empty body; noted on stderr and in the event log. 404
//                        {"detail":"Not Found"} with --no-profiler, as vLLM answers without
//                        VLLM_TORCH_PROFILER_DIR.
// Another method on one of these paths is a 405.
#pragma once

#include "http_message.h"
#include "tokenize_api.h"

#include <optional>

namespace llmperf::mock {

class ServerContext;

// Answers `request` when its path is one of the above; nullopt otherwise (routing goes on).
std::optional<ApiReply> answer_server_api(ServerContext& context, const HttpRequest& request);

}  // namespace llmperf::mock

// Driving the server's profiler (see profiler.h).
#include "server/profiler.h"

#include <fmt/format.h>

#include "protocol/chunk_decoder.h"

namespace llmperf {

ServerProfiler::ServerProfiler(std::string base_url, HttpPoolOptions http)
    : base_url_(std::move(base_url)), http_(std::move(http)) {
  http_.max_in_flight = 1;
  http_.reuse_connections = false;
}

ProfilerCall ServerProfiler::start() { return call("/start_profile", 120'000); }

ProfilerCall ServerProfiler::stop() { return call("/stop_profile", 900'000); }

ProfilerCall ServerProfiler::call(const char* endpoint, int64_t timeout_ms) {
  HttpPoolOptions http = http_;
  http.total_timeout_ms = timeout_ms;
  HttpPool pool(std::move(http));
  HttpCall request;
  request.url = base_url_ + endpoint;
  request.body = "{}";
  const HttpReply reply = pool.run_one(request);
  ProfilerCall result;
  result.seconds = static_cast<double>(reply.elapsed_ns) / 1e9;
  result.ok = reply.ok();
  if (result.ok) {
    result.message = fmt::format("POST {} answered {} in {:.2f} s", request.url, reply.status,
                                 result.seconds);
  } else if (!reply.error.empty()) {
    result.message = fmt::format("POST {} failed: {}", request.url, reply.error);
  } else if (reply.status == 404) {
    result.message = fmt::format(
        "POST {} answered 404: the server has no profiler enabled. vLLM needs it configured at "
        "start-up: VLLM_TORCH_PROFILER_DIR=/path/to/traces (before v0.13) or --profiler-config "
        "'{{\"profiler\": \"torch\", \"torch_profiler_dir\": \"/path/to/traces\"}}' (v0.13 on)",
        request.url);
  } else {
    result.message = fmt::format("POST {} answered HTTP {}: {}", request.url, reply.status,
                                 error_message_from_body(reply.body, 160));
  }
  return result;
}

}  // namespace llmperf

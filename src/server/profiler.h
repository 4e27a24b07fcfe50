// The server's profiler, as vLLM's benchmark drives it (--profile): POST <base>/start_profile
// just before the measured window and POST <base>/stop_profile right after. vLLM answers 200 with
// an empty body when its profiler is configured (VLLM_TORCH_PROFILER_DIR before v0.13,
// --profiler-config since) and 404 otherwise; SGLang always has both. Stopping writes the traces
// and can take minutes on a large model, so stop waits up to 15 minutes.
#pragma once

#include <string>

#include "http/http_pool.h"

namespace llmperf {

struct ProfilerCall {
  bool ok = false;
  std::string message;  // what happened, for the log and the summary
  double seconds = 0;   // how long the call took
};

class ServerProfiler {
 public:
  ServerProfiler(std::string base_url, HttpPoolOptions http);
  ProfilerCall start();
  ProfilerCall stop();

 private:
  ProfilerCall call(const char* endpoint, int64_t timeout_ms);
  std::string base_url_;
  HttpPoolOptions http_;
};

}  // namespace llmperf

// The HTTP options of every side channel to the server under test (its tokenize API, /metrics,
// identity endpoints, profiler): the benchmark's own credentials, timeouts and TLS settings.
#pragma once

#include <string>

#include "core/config/target.h"
#include "http/http_pool.h"

namespace llmperf {

HttpPoolOptions side_channel_options(const TargetConfig& target);

// The base URL of a chat or completions URL: "http://h:8000/v1/chat/completions" ->
// "http://h:8000" (everything from "/v1/" on, or the last path segment, is dropped).
std::string base_url_of(const std::string& url);

}  // namespace llmperf

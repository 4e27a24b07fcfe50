// Where the side channels to the server under test go (its tokenize API, /metrics, identity
// endpoints, profiler): the server's base URL. What they are sent with is the plan's
// (plan/side_channels.h's side_channel_options).
#pragma once

#include <string>

namespace llmperf {

// The base URL of a chat or completions URL: "http://h:8000/v1/chat/completions" ->
// "http://h:8000" (everything from "/v1/" on, or the last path segment, is dropped).
std::string base_url_of(const std::string& url);

}  // namespace llmperf

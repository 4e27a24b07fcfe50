// Asks the server under test who it is, once at start-up: GET /v1/models, /version, /props,
// /info and /get_server_info side by side (protocol/server_identity_api.h reads the answers), plus
// the Server header of whatever answered. Endpoints a server lacks just answer 404.
#pragma once

#include <string>
#include <vector>

#include "core/server_sample.h"
#include "http/http_pool.h"

namespace llmperf {

// `base_url`: the server's root, e.g. "http://h:8000". Never throws for the server's answers;
// throws std::runtime_error only when curl cannot be set up.
ServerIdentity fetch_server_identity(const std::string& base_url, HttpPoolOptions http);

// The model ids GET /v1/models lists, asked once a second until it answers with a list or
// `ready_timeout_s` has passed (vLLM's --ready-check-timeout-sec; 0: asked once). Throws
// std::runtime_error saying what answered when no list came.
std::vector<std::string> fetch_served_models(const std::string& base_url, HttpPoolOptions http,
                                             double ready_timeout_s);

}  // namespace llmperf

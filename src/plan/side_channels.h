// What the side channels to the server under test take of the Config (its tokenize API, /metrics,
// identity endpoints, profiler, /v1/models): the HTTP options every one of them is sent with, and
// the server view's options. Pure: no I/O.
#pragma once

#include "http/http_pool.h"
#include "server/server_view_options.h"

namespace llmperf {

struct ServerViewConfig;  // core/config/server_view.h
struct TargetConfig;      // core/config/target.h: the sections the options are made from

// The benchmark's own credentials (--api-key, --headers), timeouts and TLS settings, for calls
// that are not measured.
HttpPoolOptions side_channel_options(const TargetConfig& target);

// The server view of the benchmark against `target`, as the server-view section asks.
ServerViewOptions server_view_options(const TargetConfig& target, const ServerViewConfig& view);

}  // namespace llmperf

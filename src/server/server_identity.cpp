// Fetching the server's identity (see server_identity.h).
#include "server/server_identity.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "protocol/server_identity_api.h"

namespace llmperf {

ServerIdentity fetch_server_identity(const std::string& base_url, HttpPoolOptions http) {
  std::vector<HttpCall> calls;
  for (const std::string_view endpoint : identity_api::kEndpoints) {
    HttpCall call;
    call.url = base_url + std::string(endpoint);
    call.get = true;
    calls.push_back(std::move(call));
  }
  // Fresh connections, closed after: llama.cpp's server keeps a thread per open connection.
  http.max_in_flight = static_cast<int>(calls.size());
  http.reuse_connections = false;
  http.total_timeout_ms = http.total_timeout_ms > 0 ? std::min<int64_t>(http.total_timeout_ms, 10'000)
                                                     : 10'000;
  http.max_body_bytes = 1 << 20;
  HttpPool pool(std::move(http));
  const std::vector<HttpReply> replies = pool.run(calls);

  ServerIdentity identity;
  for (size_t i = 0; i < replies.size(); ++i) {
    const HttpReply& reply = replies[i];
    if (identity.server_header.empty() && !reply.server.empty()) {
      identity.server_header = reply.server.substr(0, 120);
    }
    if (reply.ok()) identity_api::absorb(identity_api::kEndpoints[i], reply.body, identity);
  }
  identity_api::guess_engine(identity);
  return identity;
}

}  // namespace llmperf

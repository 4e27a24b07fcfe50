// Fetching the server's identity (see server_identity.h).
#include "server/server_identity.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string_view>
#include <thread>
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

std::vector<std::string> fetch_served_models(const std::string& base_url, HttpPoolOptions http,
                                             double ready_timeout_s) {
  http.reuse_connections = false;
  http.total_timeout_ms = 10'000;
  http.max_body_bytes = 1 << 20;
  HttpPool pool(std::move(http));
  HttpCall call;
  call.url = base_url + "/v1/models";
  call.get = true;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(ready_timeout_s * 1000));
  while (true) {
    const HttpReply reply = pool.run_one(call);
    ServerIdentity identity;
    if (reply.ok()) identity_api::absorb("/v1/models", reply.body, identity);
    if (!identity.answered.empty()) return identity.models;
    // Not ready yet (or no such endpoint): ask again a second later while the wait lasts.
    if (std::chrono::steady_clock::now() + std::chrono::seconds(1) > deadline) {
      throw std::runtime_error(fmt::format(
          "GET {} gave no model list{}: {}", call.url,
          ready_timeout_s > 0 ? fmt::format(" within {:g} s", ready_timeout_s) : std::string(),
          reply.error.empty() ? fmt::format("HTTP {}", reply.status) : reply.error));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace llmperf

// llama.cpp's llama-server for integration tests: a real OpenAI-compatible server none of us wrote
// (/work/shared/llama-server/README.md), started on an ephemeral loopback port, and the fixture
// that starts it per test and skips, naming the paths tried, where it is not installed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "test_process.h"

namespace llmperf::testing {

inline constexpr const char* kLlamaModel = "tiny-llama-spm.gguf";

// The first directory holding llama-server and its model ($LLMPERF_LLAMA_SERVER_DIR when set, else
// the one configured at build time, then the shared default); `tried` lists every path looked at.
std::optional<std::filesystem::path> find_llama_server(std::string& tried);

// The whole reply to one request to http://127.0.0.1:<port> (Connection: close, read to its
// end), or "" when none came within timeout_ms of each read.
std::string http_exchange(int port, const std::string& method, const std::string& path,
                          const std::string& body, int timeout_ms);

// Status code of GET http://127.0.0.1:<port><path>, or -1 when it cannot be had within timeout_ms.
int http_get_status(int port, const std::string& path, int timeout_ms);

// The JSON body of POST <path> with `body`; discarded JSON when the answer is not JSON.
nlohmann::json post_json(int port, const std::string& path, const nlohmann::json& body);

// llama-server started as its README says (plus `extra` flags, which may override -c and
// --parallel), on an ephemeral loopback port; ready once /health answers 200 (the port listens
// before the model is loaded).
class LlamaServer {
 public:
  LlamaServer(const std::filesystem::path& dir, const std::vector<std::string>& extra);

  // Waits for the port and for /health; "" when ready, else what went wrong.
  std::string wait_ready();

  // SIGTERM, then the exit code; it may abort ("terminate called without an active exception")
  // while stopping, which counts as a normal stop.
  int stop();

  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  std::string log() const { return process_.stderr_text(); }

 private:
  BackgroundProcess process_;
  int port_ = 0;
};

// Starts llama-server before each test (skipping the test, with a message, when it is absent) and
// stops it after, printing how long the test held it.
class LlamaServerFixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Flags the server is started with beyond the README's.
  virtual std::vector<std::string> server_flags() const { return {}; }

  std::unique_ptr<LlamaServer> server_;
  int64_t started_ns_ = 0;
};

}  // namespace llmperf::testing

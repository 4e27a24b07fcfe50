// llama-server for the integration tests (llama_server.h).
#include "llama_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>

#include "core/clock.h"
#include "llmperf_run.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kBinary = "llama-server";
constexpr int kStartTimeoutS = 60;

// Directories that may hold llama-server and its model: $LLMPERF_LLAMA_SERVER_DIR when set, else
// the one configured at build time, then the shared default.
std::vector<fs::path> candidate_dirs() {
  if (const char* env = std::getenv("LLMPERF_LLAMA_SERVER_DIR"); env != nullptr && *env != '\0') {
    return {env};
  }
  std::vector<fs::path> dirs;
#ifdef LLMPERF_LLAMA_SERVER_DIR
  dirs.emplace_back(LLMPERF_LLAMA_SERVER_DIR);
#endif
  dirs.emplace_back("/work/shared/llama-server");
  return dirs;
}

}  // namespace

// The first candidate holding both the binary and the model; `tried` lists every path looked at.
std::optional<fs::path> find_llama_server(std::string& tried) {
  for (const fs::path& dir : candidate_dirs()) {
    tried += (tried.empty() ? "" : ", ") + (dir / kBinary).string();
    if (fs::exists(dir / kBinary) && fs::exists(dir / kLlamaModel)) return dir;
  }
  return std::nullopt;
}

// The whole reply to one request to http://127.0.0.1:<port> (Connection: close, read to its
// end), or "" when none came within timeout_ms of each read.
std::string http_exchange(int port, const std::string& method, const std::string& path,
                          const std::string& body, int timeout_ms) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string request = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!body.empty()) {
    request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
               "\r\n";
  }
  request += "\r\n" + body;
  std::string reply;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0 &&
      send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size())) {
    pollfd p{fd, POLLIN, 0};
    char chunk[4096];
    while (poll(&p, 1, timeout_ms) == 1) {
      const ssize_t n = recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) break;
      reply.append(chunk, static_cast<size_t>(n));
    }
  }
  close(fd);
  return reply;
}

// Status code of GET http://127.0.0.1:<port><path>, or -1 when it cannot be had within timeout_ms.
int http_get_status(int port, const std::string& path, int timeout_ms) {
  const std::string reply = http_exchange(port, "GET", path, "", timeout_ms);
  if (reply.size() >= 12 && reply.rfind("HTTP/1.", 0) == 0) return std::atoi(reply.c_str() + 9);
  return -1;
}

// The JSON body of POST <path> with `body`; discarded JSON when the answer is not JSON.
json post_json(int port, const std::string& path, const json& body) {
  const std::string reply = http_exchange(port, "POST", path, body.dump(), 10'000);
  const size_t start = reply.find("\r\n\r\n");
  if (start == std::string::npos) return json(json::value_t::discarded);
  return json::parse(reply.substr(start + 4), nullptr, false);
}

LlamaServer::LlamaServer(const fs::path& dir, const std::vector<std::string>& extra)
    : process_(concat({(dir / kBinary).string(), "-m", (dir / kLlamaModel).string(), "--host",
                       "127.0.0.1", "--port", "0", "-c", "4096", "--parallel", "4", "-t", "1",
                       "--alias", "tiny-llama", "--no-webui", "--metrics"},
                      extra)) {}

std::string LlamaServer::wait_ready() {
  constexpr std::string_view kListening = "listening on http://127.0.0.1:";
  if (!process_.wait_for_stderr(std::string(kListening), kStartTimeoutS)) {
    return "llama-server printed no port:\n" + process_.stderr_text();
  }
  const std::string log = process_.stderr_text();
  port_ = std::atoi(log.c_str() + log.find(kListening) + kListening.size());
  const int64_t deadline = now_ns() + int64_t{kStartTimeoutS} * 1'000'000'000;
  while (now_ns() < deadline) {
    if (http_get_status(port_, "/health", 1000) == 200) return "";
    if (process_.wait(0) != -1) return "llama-server exited:\n" + process_.stderr_text();
    // Polling: the model loads in the child, with nothing to wait on but /health.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "llama-server /health did not answer 200 within the deadline:\n" +
         process_.stderr_text();
}

int LlamaServer::stop() {
  process_.signal(SIGTERM);
  return process_.wait(20);
}

void LlamaServerFixture::SetUp() {
  started_ns_ = now_ns();
  std::string tried;
  const std::optional<fs::path> dir = find_llama_server(tried);
  if (!dir) {
    GTEST_SKIP() << "llama-server with " << kLlamaModel << " not found (tried " << tried
                 << "; set LLMPERF_LLAMA_SERVER_DIR to its directory)";
  }
  server_ = std::make_unique<LlamaServer>(*dir, server_flags());
  const std::string problem = server_->wait_ready();
  ASSERT_TRUE(problem.empty()) << problem;
}

void LlamaServerFixture::TearDown() {
  if (!server_) return;
  const int code = server_->stop();
  EXPECT_TRUE(code == 0 || code == 128 + SIGABRT) << "llama-server stopped with " << code << "\n"
                                                  << server_->log();
  const double seconds = static_cast<double>(now_ns() - started_ns_) / 1e9;
  RecordProperty("seconds_with_server", std::to_string(seconds));
  std::printf("llama-server test took %.2f s (start, run, stop)\n", seconds);
}

}  // namespace llmperf::testing

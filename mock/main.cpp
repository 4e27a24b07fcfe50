// Entry point of llmperf-mock: parses options, checks scheduler mode's engine as vLLM checks its
// own (refusing to start as vLLM does), raises the descriptor limit, listens, announces the URL on
// stdout and serves until SIGINT/SIGTERM.
#include "asio.h"
#include "engine_config.h"
#include "mock_options.h"
#include "mock_server.h"

#include <fmt/core.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <variant>

#include <sys/resource.h>

namespace {

// Lifts the soft RLIMIT_NOFILE to the hard limit so thousands of streams fit.
void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

int main(int argc, char** argv) {
  using llmperf::mock::MockOptions;
  std::signal(SIGPIPE, SIG_IGN);
  auto parsed = llmperf::mock::parse_mock_options(argc, argv);
  if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
  const MockOptions& options = std::get<MockOptions>(parsed);
  if (llmperf::mock::scheduler_mode(options)) {
    const llmperf::mock::EngineSetup engine = llmperf::mock::resolve_engine(options);
    for (const std::string& line : engine.log_lines) fmt::print(stderr, "{}\n", line);
    for (const std::string& line : engine.error_lines) fmt::print(stderr, "{}\n", line);
    std::fflush(stderr);
    if (!engine.error_lines.empty()) return 1;
  }
  raise_descriptor_limit();

  boost::asio::io_context io(1);
  llmperf::mock::MockServer server(io, options);
  std::uint16_t port = 0;
  try {
    port = server.listen();
  } catch (const std::exception& e) {
    fmt::print(stderr, "llmperf-mock: cannot listen on {}:{}: {}\n", options.host, options.port,
               e.what());
    return 1;
  }
  fmt::print("llmperf-mock listening on http://{}:{}\n", url_host(options.host), port);
  std::fflush(stdout);
  server.start();
  io.run();
  return server.save_event_log() ? 0 : 1;
}

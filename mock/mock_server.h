// llmperf-mock's listener: binds the socket, accepts connections on one io_context thread and
// shuts everything down on SIGINT/SIGTERM.
#pragma once

#include "asio.h"
#include "mock_options.h"
#include "server_context.h"

#include <cstdint>

namespace llmperf::mock {

// The simulated server; run it with io_context::run() after listen().
class MockServer {
 public:
  MockServer(boost::asio::io_context& io, const MockOptions& options);

  // Binds and listens on --host/--port; returns the bound port. Throws on failure.
  std::uint16_t listen();
  // Starts accepting and watching for SIGINT/SIGTERM.
  void start();
  // Saves the event log if --event-log was given; false when that failed.
  bool save_event_log();

 private:
  void accept();
  void stop();

  ServerContext context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer accept_retry_;
  bool accept_error_reported_ = false;
};

}  // namespace llmperf::mock

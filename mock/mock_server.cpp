// Listening socket, accept loop and signal-driven shutdown of llmperf-mock.
#include "mock_server.h"

#include "connection.h"

#include <fmt/core.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>

namespace llmperf::mock {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// Pending-connection queue length; the kernel caps it at net.core.somaxconn.
constexpr int kListenBacklog = 4096;
// Pause before accepting again after running out of file descriptors.
constexpr std::chrono::milliseconds kAcceptRetry{50};

}  // namespace

MockServer::MockServer(asio::io_context& io, const MockOptions& options)
    : context_(io, options), acceptor_(io), signals_(io, SIGINT, SIGTERM), accept_retry_(io) {}

std::uint16_t MockServer::listen() {
  const MockOptions& options = context_.options();
  tcp::resolver resolver(context_.io());
  const auto results = resolver.resolve(options.host, std::to_string(options.port),
                                        tcp::resolver::passive | tcp::resolver::numeric_service);
  const tcp::endpoint endpoint = results.begin()->endpoint();
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(kListenBacklog);
  return acceptor_.local_endpoint().port();
}

void MockServer::start() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signal_number) {
    if (ec) return;
    if (context_.options().verbose) {
      fmt::print(stderr, "llmperf-mock: signal {}, shutting down\n", signal_number);
    }
    stop();
  });
  accept();
}

void MockServer::accept() {
  acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      if (!accept_error_reported_) {
        fmt::print(stderr, "llmperf-mock: accept failed: {} (retrying)\n", ec.message());
        accept_error_reported_ = true;
      }
      accept_retry_.expires_after(kAcceptRetry);
      accept_retry_.async_wait([this](const boost::system::error_code& wait_ec) {
        if (!wait_ec) accept();
      });
      return;
    }
    std::make_shared<Connection>(context_, std::move(socket))->start();
    accept();
  });
}

void MockServer::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  accept_retry_.cancel();
  signals_.cancel(ignored);
  context_.close_all();
}

bool MockServer::save_event_log() {
  const std::string& path = context_.options().event_log;
  return path.empty() || context_.event_log().save(path);
}

}  // namespace llmperf::mock

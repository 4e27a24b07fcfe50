// Loopback ports (see ports.h).
#include "app/tune/ports.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace llmperf {
namespace {

sockaddr_in loopback_address(int port, const std::string& host) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  }
  return address;
}

// A bound socket (the caller closes it), or -1 with errno set.
int bound_socket(int port, const std::string& host, bool reuse_address) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int on = 1;
  if (reuse_address) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  const sockaddr_in address = loopback_address(port, host);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

}  // namespace

int pick_free_port() {
  const int fd = bound_socket(0, "127.0.0.1", false);
  if (fd < 0) {
    throw std::runtime_error(fmt::format("cannot pick a free loopback port: bind 127.0.0.1:0: {}",
                                         std::strerror(errno)));
  }
  sockaddr_in address{};
  socklen_t size = sizeof address;
  const int got = getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  const int error = errno;
  close(fd);
  if (got != 0) {
    throw std::runtime_error(
        fmt::format("cannot pick a free loopback port: getsockname: {}", std::strerror(error)));
  }
  return ntohs(address.sin_port);
}

bool port_is_free(int port, const std::string& host) {
  if (port <= 0 || port > 65535) return false;
  const int fd = bound_socket(port, host, true);
  if (fd < 0) return false;
  close(fd);
  return true;
}

}  // namespace llmperf

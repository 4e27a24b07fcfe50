// Loopback ports (see ports.h).
#include "app/tune/ports.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace llmperf {
namespace {

constexpr std::string_view kListen = "0A";    // TCP_LISTEN in /proc/net/tcp's st column
constexpr std::string_view kTimeWait = "06";  // TCP_TIME_WAIT

sockaddr_in loopback_address(int port, const std::string& host) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  }
  return address;
}

// A bound socket (the caller closes it), or -1 with errno set. `server_options`: SO_REUSEADDR and
// SO_REUSEPORT, as servers set them (ports.h).
int bound_socket(int port, const std::string& host, bool server_options) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int on = 1;
  if (server_options) {
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
  }
  const sockaddr_in address = loopback_address(port, host);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

// The next whitespace-separated field of `text` from `at`, which moves past it ("" at the end).
std::string_view next_field(std::string_view text, size_t& at) {
  at = text.find_first_not_of(" \t", at);
  if (at == std::string_view::npos) {
    at = text.size();
    return {};
  }
  const size_t end = std::min(text.find_first_of(" \t", at), text.size());
  const std::string_view field = text.substr(at, end - at);
  at = end;
  return field;
}

// The port of an address field "0100007F:1F90" (IPv6: 32 hex digits, then ":1F90"); -1 when the
// field does not read so.
int port_of(std::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) return -1;
  int port = -1;
  const char* first = address.data() + colon + 1;
  const char* last = address.data() + address.size();
  const auto [end, error] = std::from_chars(first, last, port, 16);
  return error == std::errc() && end == last && first != last ? port : -1;
}

std::string read_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

PortRange ephemeral_port_range() {
  PortRange range;
  std::istringstream in(read_text("/proc/sys/net/ipv4/ip_local_port_range"));
  int low = 0;
  int high = 0;
  if (in >> low >> high && 0 < low && low <= high && high <= 65535) range = {low, high};
  return range;
}

int pick_free_port() {
  // Outside the ephemeral range, at least this many ports wide: below it, else above it.
  constexpr int kMinWidth = 1024;
  constexpr int kPicks = 64;
  const PortRange ephemeral = ephemeral_port_range();
  int low = std::max(1024, ephemeral.low - 16384);
  int high = ephemeral.low - 1;
  if (high - low + 1 < kMinWidth) {
    low = ephemeral.high + 1;
    high = 65535;
  }
  if (high - low + 1 >= kMinWidth) {
    thread_local std::minstd_rand random(std::random_device{}());
    std::uniform_int_distribution<int> pick(low, high);
    for (int i = 0; i < kPicks; ++i) {
      const int port = pick(random);
      const int fd = bound_socket(port, "127.0.0.1", false);
      if (fd < 0) continue;
      close(fd);
      return port;
    }
  }
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

int PortLeases::lease() {
  std::lock_guard lock(mutex_);
  for (int tries = 0;; ++tries) {
    const int port = pick_free_port();
    if (held_.insert(port).second || tries == 100) return port;
  }
}

void PortLeases::release(int port) {
  std::lock_guard lock(mutex_);
  held_.erase(port);
}

PortSockets count_port_sockets(std::string_view proc_net_tcp, int port) {
  PortSockets sockets;
  bool header = true;
  while (!proc_net_tcp.empty()) {
    const size_t end = std::min(proc_net_tcp.find('\n'), proc_net_tcp.size());
    const std::string_view line = proc_net_tcp.substr(0, end);
    proc_net_tcp.remove_prefix(std::min(end + 1, proc_net_tcp.size()));
    if (std::exchange(header, false)) continue;
    size_t at = 0;
    const std::string_view slot = next_field(line, at);
    const std::string_view local = next_field(line, at);
    next_field(line, at);  // the remote address
    const std::string_view state = next_field(line, at);
    if (slot.empty() || slot.back() != ':' || port_of(local) != port) continue;
    if (state == kListen) ++sockets.listening;
    if (state == kTimeWait) ++sockets.time_wait;
  }
  return sockets;
}

PortSockets port_sockets(int port) {
  PortSockets total;
  for (const char* path : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    const PortSockets file = count_port_sockets(read_text(path), port);
    total.listening += file.listening;
    total.time_wait += file.time_wait;
  }
  return total;
}

bool port_is_free(int port, const std::string& host) {
  if (port <= 0 || port > 65535) return false;
  if (port_sockets(port).listening > 0) return false;
  const int fd = bound_socket(port, host, true);
  if (fd < 0) return false;
  close(fd);
  return true;
}

}  // namespace llmperf

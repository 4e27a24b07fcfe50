// A minimal HTTP/1.1 client for llmperf-mock's loopback tests: one request per connection
// ("Connection: close"), the reply read to EOF and de-chunked.
#pragma once

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf::testing {

// One HTTP exchange as the test saw it.
struct HttpReply {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;  // de-chunked
};

inline std::string dechunk(std::string_view chunked) {
  std::string out;
  while (!chunked.empty()) {
    const std::size_t eol = chunked.find("\r\n");
    if (eol == std::string_view::npos) break;
    const std::size_t size = std::stoul(std::string(chunked.substr(0, eol)), nullptr, 16);
    if (size == 0) break;
    out += chunked.substr(eol + 2, size);
    chunked.remove_prefix(std::min(chunked.size(), eol + 2 + size + 2));
  }
  return out;
}

// Sends one request with "Connection: close" and reads the reply to EOF (10 s at most).
inline HttpReply http_call(int port, std::string_view method, std::string_view path,
                           std::string_view body = {}) {
  HttpReply reply;
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    ADD_FAILURE() << "cannot connect to port " << port;
    return reply;
  }
  const std::string request = fmt::format(
      "{} {} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
      "application/json\r\nContent-Length: {}\r\n\r\n{}",
      method, path, body.size(), body);
  for (std::size_t sent = 0; sent < request.size();) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  std::string raw;
  char buffer[16384];
  for (ssize_t n; (n = recv(fd, buffer, sizeof buffer, 0)) > 0;) {
    raw.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  const std::size_t head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos || !raw.starts_with("HTTP/1.1 ")) {
    ADD_FAILURE() << "no HTTP reply to " << method << " " << path << ": " << raw;
    return reply;
  }
  reply.head = raw.substr(0, head_end + 2);
  reply.status = std::stoi(raw.substr(9, 3));
  reply.body = raw.substr(head_end + 4);
  if (reply.head.find("Transfer-Encoding: chunked\r\n") != std::string::npos) {
    reply.body = dechunk(reply.body);
  }
  return reply;
}

inline bool has_header(const HttpReply& reply, std::string_view line) {
  return reply.head.find(std::string("\r\n") + std::string(line) + "\r\n") != std::string::npos;
}

}  // namespace llmperf::testing

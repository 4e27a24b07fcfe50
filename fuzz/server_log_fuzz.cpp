// libFuzzer target: a trial's server.log (app/tune/server_log.h) is whatever the server under
// tune wrote, and /proc/net/tcp's text (app/tune/ports.h) is the kernel's, so neither reader may
// crash on any input. The first two bytes are a port; the rest is the text. Checked: the error
// line is one line, at most 1,000 characters and "..."; the tail has at most n lines, each at
// most 500 characters and "...", none empty; a text that does not name the port's number, says
// no "in use" and no "eaddrinuse" never says the port was taken; socket counts are not negative.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/tune/ports.h"
#include "app/tune/server_log.h"
#include "core/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llmperf;
  if (size < 2) return 0;
  const int port = data[0] << 8 | data[1];
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  const std::string error = find_error_line(text);
  if (error.size() > 1003 || error.find('\n') != std::string::npos) std::abort();
  const size_t n = data[1] % 8;
  const std::vector<std::string> tail = last_log_lines(text, n);
  if (tail.size() > n) std::abort();
  for (const std::string& line : tail) {
    if (line.empty() || line.size() > 503) std::abort();
  }
  const std::string lower = ascii_lower(text);
  if (says_port_taken(text, port) && lower.find(std::to_string(port)) == std::string::npos &&
      lower.find("in use") == std::string::npos && lower.find("eaddrinuse") == std::string::npos) {
    std::abort();
  }
  const PortSockets sockets = count_port_sockets(text, port);
  if (sockets.listening < 0 || sockets.time_wait < 0) std::abort();
  return 0;
}

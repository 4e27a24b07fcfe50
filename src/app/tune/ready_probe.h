// One HTTP GET at a time to a server that is starting, for the readiness checks of `llmperf tune`:
// libcurl's multi interface, so that a descriptor that becomes readable (the guardian's status
// pipe: the server exited) or a callback (Ctrl-C) cuts a probe short at once instead of after its
// timeout. Never through a proxy: the server is local.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <functional>
#include <string>

namespace llmperf {

class ReadyProbe {
 public:
  // How a probe ended.
  struct Result {
    int status = 0;    // the HTTP status; 0 when no response came (refused, timed out, cut)
    bool cut = false;  // cut short by the descriptor or the callback
  };

  ReadyProbe();  // throws std::runtime_error when curl cannot be set up
  ~ReadyProbe();
  ReadyProbe(const ReadyProbe&) = delete;
  ReadyProbe& operator=(const ReadyProbe&) = delete;

  // GETs `url` (the body is read and dropped), for at most `timeout_ms`. Stops early, with
  // cut = true, when `wake_fd` (>= 0) becomes readable or `stop()` returns true (asked every
  // check_ms milliseconds).
  Result get(const std::string& url, int64_t timeout_ms, int wake_fd,
             const std::function<bool()>& stop, int64_t check_ms = 50);

 private:
  CURLM* multi_ = nullptr;
  CURL* easy_ = nullptr;  // reused: a server that answered keeps its connection
};

}  // namespace llmperf

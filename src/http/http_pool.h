// A small pool of concurrent HTTP calls over one curl multi handle, for llmperf's side channels to
// the server (its tokenize API at start-up; later its /metrics): never the measured engine. A batch
// of calls runs with at most `max_in_flight` at a time on reused easy handles (connections kept
// alive within the batch, closed after it: a server with a thread per connection, such as
// llama.cpp's, must not find idle connections of ours holding its threads when the measured run
// starts). The replies come back in call order. Runs on the caller's thread; one pool serves one
// thread at a time.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace llmperf {

struct HttpCall {
  std::string url;
  std::string body;  // the POST body (JSON); ignored for GET
  bool get = false;  // GET instead of POST
};

struct HttpReply {
  int status = 0;          // HTTP status; 0 when no response arrived
  std::string body;        // the response body, at most max_body_bytes of it
  std::string server;      // the Server response header ("" when absent)
  std::string content_type;  // the Content-Type response header ("" when absent)
  std::string error;       // why no response arrived (transport failure); empty otherwise
  int64_t elapsed_ns = 0;  // from the call's start to its end
  bool ok() const { return error.empty() && status >= 200 && status < 300; }
};

struct HttpPoolOptions {
  // "Name: value", e.g. Authorization (never logged); POSTs add Content-Type: application/json
  // unless a line sets it.
  std::vector<std::string> header_lines;
  int64_t connect_timeout_ms = 10'000;  // 0: no limit
  int64_t total_timeout_ms = 60'000;    // per call; 0: no limit
  bool insecure = false;                // skip TLS verification (--insecure)
  std::string cacert;                   // CA bundle (--cacert); empty: the system's
  int max_in_flight = 16;               // calls in progress at once
  bool reuse_connections = true;        // keep connections alive between calls of a batch
  size_t max_body_bytes = 64 << 20;     // longer bodies are cut here (and flagged in error)
};

class HttpPool {
 public:
  // Throws std::runtime_error when curl cannot be set up. init_transport() must have run.
  explicit HttpPool(HttpPoolOptions options);
  ~HttpPool();
  HttpPool(const HttpPool&) = delete;
  HttpPool& operator=(const HttpPool&) = delete;

  // Runs every call and returns their replies in call order. `progress(done)` is called after each
  // finished call. Failures are replies (status and error), never exceptions. Once `*cancel` is
  // true (checked every 100 ms at most), calls in progress and not started end with the error
  // "cancelled".
  std::vector<HttpReply> run(std::span<const HttpCall> calls,
                             const std::function<void(size_t done)>& progress = {},
                             const std::atomic<bool>* cancel = nullptr);
  HttpReply run_one(const HttpCall& call, const std::atomic<bool>* cancel = nullptr);

  // From now on: calls in progress at once (at least 1), and whether a connection carries more
  // than one call.
  void set_concurrency(int calls, bool reuse_connections);

 private:
  struct Slot;
  void close_connections();
  void cancel_all(std::vector<HttpReply>& replies);
  static size_t on_body(char* data, size_t size, size_t count, void* user);
  static size_t on_header(char* data, size_t size, size_t count, void* user);
  HttpPoolOptions options_;
  std::vector<std::string> post_headers_;  // header_lines + Content-Type: application/json
  CURLM* multi_ = nullptr;
  std::vector<Slot*> slots_;
};

}  // namespace llmperf

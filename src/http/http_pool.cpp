// The side-channel HTTP pool (see http_pool.h): curl_multi_perform + curl_multi_poll, the simple
// loop of curl's multi examples, which is plenty for calls that are not measured.
#include "http/http_pool.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include "core/clock.h"
#include "http/curl_transport.h"

namespace llmperf {

struct HttpPool::Slot {
  CURL* easy = nullptr;
  size_t call = 0;            // index of the call it carries
  int64_t started_ns = 0;     // when it was added
  std::string body;           // response bytes so far
  std::string server;         // the Server header of the last response head
  std::string content_type;   // its Content-Type header
  bool truncated = false;     // the body reached max_body_bytes
  size_t max_body_bytes = 0;  // the pool's limit
  char error_buffer[CURL_ERROR_SIZE] = {};
};

size_t HttpPool::on_body(char* data, size_t size, size_t count, void* user) {
  auto* slot = static_cast<Slot*>(user);
  const size_t bytes = size * count;
  const size_t room = slot->max_body_bytes - std::min(slot->max_body_bytes, slot->body.size());
  if (bytes > room) slot->truncated = true;
  slot->body.append(data, std::min(bytes, room));
  return bytes;
}

// "Name: value\r\n" header lines: keeps Server and Content-Type (of the final response head).
size_t HttpPool::on_header(char* data, size_t size, size_t count, void* user) {
  auto* slot = static_cast<Slot*>(user);
  const size_t bytes = size * count;
  std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) {  // a new head (after a 100 Continue or a redirect)
    slot->server.clear();
    slot->content_type.clear();
    return bytes;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  const auto is = [&](std::string_view name) {
    return colon == name.size() &&
           std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           });
  };
  std::string* target = is("Server") ? &slot->server : is("Content-Type") ? &slot->content_type
                                                                          : nullptr;
  if (target == nullptr) return bytes;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  target->assign(value.substr(0, 200));
  return bytes;
}

HttpPool::HttpPool(HttpPoolOptions options) : options_(std::move(options)) {
  options_.max_in_flight = std::max(1, options_.max_in_flight);
  post_headers_ = options_.header_lines;
  const auto has = [&](std::string_view name) {
    return std::any_of(post_headers_.begin(), post_headers_.end(), [&](const std::string& line) {
      return line.size() > name.size() && line[name.size()] == ':' &&
             std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
    });
  };
  if (!has("Content-Type")) post_headers_.emplace_back("Content-Type: application/json");
  if (!has("Expect")) post_headers_.emplace_back("Expect:");
  multi_ = curl_multi_init();
  if (multi_ == nullptr) throw std::runtime_error("curl_multi_init failed");
}

HttpPool::~HttpPool() {
  for (Slot* slot : slots_) {
    curl_easy_cleanup(slot->easy);
    delete slot;
  }
  curl_multi_cleanup(multi_);
}

std::vector<HttpReply> HttpPool::run(std::span<const HttpCall> calls,
                                     const std::function<void(size_t done)>& progress,
                                     const std::atomic<bool>* cancel) {
  std::vector<HttpReply> replies(calls.size());
  if (calls.empty()) return replies;
  const CurlHeaders post_headers(post_headers_);
  const CurlHeaders get_headers(options_.header_lines);
  while (slots_.size() < std::min(calls.size(), static_cast<size_t>(options_.max_in_flight))) {
    auto* slot = new Slot;
    slot->easy = curl_easy_init();
    if (slot->easy == nullptr) {
      delete slot;
      throw std::runtime_error("curl_easy_init failed");
    }
    slots_.push_back(slot);
  }
  std::vector<Slot*> idle(slots_.begin(), slots_.end());
  size_t next = 0;
  size_t done = 0;
  int running = 0;
  while (done < calls.size()) {
    if (cancel != nullptr && cancel->load()) {
      cancel_all(replies);
      break;
    }
    while (next < calls.size() && !idle.empty()) {
      Slot* slot = idle.back();
      idle.pop_back();
      const HttpCall& call = calls[next];
      TransportOptions transport;
      transport.url = call.url;
      transport.headers = call.get ? get_headers.list : post_headers.list;
      transport.connect_timeout_ms = options_.connect_timeout_ms;
      transport.total_timeout_ms = options_.total_timeout_ms;
      transport.insecure = options_.insecure;
      transport.cacert = options_.cacert;
      configure_easy(slot->easy, transport, slot->error_buffer);
      if (call.get) {
        curl_easy_setopt(slot->easy, CURLOPT_HTTPGET, 1L);
      } else {
        curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDSIZE_LARGE,
                         static_cast<curl_off_t>(call.body.size()));
        curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDS, call.body.data());
      }
      curl_easy_setopt(slot->easy, CURLOPT_FORBID_REUSE, options_.reuse_connections ? 0L : 1L);
      curl_easy_setopt(slot->easy, CURLOPT_WRITEFUNCTION, on_body);
      curl_easy_setopt(slot->easy, CURLOPT_WRITEDATA, slot);
      curl_easy_setopt(slot->easy, CURLOPT_HEADERFUNCTION, on_header);
      curl_easy_setopt(slot->easy, CURLOPT_HEADERDATA, slot);
      curl_easy_setopt(slot->easy, CURLOPT_PRIVATE, slot);
      slot->call = next++;
      slot->body.clear();
      slot->server.clear();
      slot->content_type.clear();
      slot->truncated = false;
      slot->max_body_bytes = options_.max_body_bytes;
      slot->error_buffer[0] = '\0';
      slot->started_ns = now_ns();
      curl_multi_add_handle(multi_, slot->easy);
    }
    curl_multi_perform(multi_, &running);
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi_, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      CURL* easy = message->easy_handle;
      Slot* slot = nullptr;
      curl_easy_getinfo(easy, CURLINFO_PRIVATE, &slot);
      HttpReply& reply = replies[slot->call];
      reply.elapsed_ns = now_ns() - slot->started_ns;
      const CURLcode code = message->data.result;
      if (code == CURLE_OK) {
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        reply.status = static_cast<int>(status);
        if (slot->truncated) reply.error = "response body too large";
      } else {
        reply.error =
            classify_transfer(easy, code, slot->error_buffer, calls[slot->call].url).message;
      }
      reply.body = std::move(slot->body);
      reply.server = slot->server;
      reply.content_type = slot->content_type;
      curl_multi_remove_handle(multi_, easy);
      idle.push_back(slot);
      ++done;
      if (progress) progress(done);
    }
    if (done < calls.size() && running > 0) curl_multi_poll(multi_, nullptr, 0, 100, nullptr);
  }
  close_connections();
  return replies;
}

void HttpPool::cancel_all(std::vector<HttpReply>& replies) {
  for (Slot* slot : slots_) curl_multi_remove_handle(multi_, slot->easy);  // idle ones: a no-op
  for (HttpReply& reply : replies) {
    if (reply.status == 0 && reply.error.empty()) reply.error = "cancelled";
  }
}

void HttpPool::close_connections() {
  // The multi handle owns the connection cache: a new one starts with none.
  curl_multi_cleanup(multi_);
  multi_ = curl_multi_init();
  if (multi_ == nullptr) throw std::runtime_error("curl_multi_init failed");
}

void HttpPool::set_concurrency(int calls, bool reuse_connections) {
  options_.max_in_flight = std::max(1, calls);
  options_.reuse_connections = reuse_connections;
}

HttpReply HttpPool::run_one(const HttpCall& call, const std::atomic<bool>* cancel) {
  return std::move(run(std::span<const HttpCall>(&call, 1), {}, cancel).front());
}

}  // namespace llmperf

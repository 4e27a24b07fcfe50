// Readiness probes (see ready_probe.h).
#include "app/tune/ready_probe.h"

#include <algorithm>
#include <stdexcept>

#include "core/clock.h"

namespace llmperf {
namespace {

size_t drop_body(char* /*data*/, size_t size, size_t count, void* /*user*/) { return size * count; }

}  // namespace

ReadyProbe::ReadyProbe() : multi_(curl_multi_init()), easy_(curl_easy_init()) {
  if (multi_ == nullptr || easy_ == nullptr) {
    if (easy_ != nullptr) curl_easy_cleanup(easy_);
    if (multi_ != nullptr) curl_multi_cleanup(multi_);
    throw std::runtime_error("cannot set up libcurl for the server's readiness probes");
  }
}

ReadyProbe::~ReadyProbe() {
  curl_easy_cleanup(easy_);
  curl_multi_cleanup(multi_);
}

ReadyProbe::Result ReadyProbe::get(const std::string& url, int64_t timeout_ms, int wake_fd,
                                   const std::function<bool()>& stop, int64_t check_ms) {
  curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy_, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(easy_, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<int64_t>(timeout_ms, 1)));
  curl_easy_setopt(easy_, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::max<int64_t>(timeout_ms, 1)));
  curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, drop_body);
  curl_multi_add_handle(multi_, easy_);

  Result result;
  bool done = false;
  const int64_t deadline = now_ns() + (timeout_ms + 1000) * 1'000'000;  // curl's own timer rules
  while (!done) {
    int running = 0;
    curl_multi_perform(multi_, &running);
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi_, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      done = true;
      long status = 0;
      if (message->data.result == CURLE_OK) {
        curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
      }
      result.status = static_cast<int>(status);
    }
    if (done) break;
    if (stop && stop()) {
      result.cut = true;
      break;
    }
    if (now_ns() >= deadline) break;
    curl_waitfd wake{wake_fd, CURL_WAIT_POLLIN, 0};
    int ready = 0;
    curl_multi_poll(multi_, wake_fd >= 0 ? &wake : nullptr, wake_fd >= 0 ? 1 : 0,
                    static_cast<int>(check_ms), &ready);
    if (wake_fd >= 0 && wake.revents != 0) {
      result.cut = true;
      break;
    }
  }
  curl_multi_remove_handle(multi_, easy_);
  return result;
}

}  // namespace llmperf

// See push_gateway.h. Each push is one POST of the whole exposition text to the grouping key's
// path (every series llmperf pushes is in it, so POST and PUT replace the same series), with
// Content-Type text/plain; version=0.0.4.
#include "app/push_gateway.h"

#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/text.h"

namespace llmperf {
namespace {

constexpr int64_t kPushConnectTimeoutMs = 1000;
constexpr int64_t kPushTotalTimeoutMs = 2000;

HttpPoolOptions push_pool_options(const PushGatewayOptions& options) {
  HttpPoolOptions pool;
  pool.header_lines = {"Content-Type: text/plain; version=0.0.4; charset=utf-8"};
  pool.connect_timeout_ms = kPushConnectTimeoutMs;
  pool.total_timeout_ms = kPushTotalTimeoutMs;
  pool.insecure = options.gateway.insecure;
  pool.cacert = options.gateway.cacert;
  pool.max_in_flight = 1;
  pool.reuse_connections = false;
  pool.max_body_bytes = 64 << 10;
  return pool;
}

std::string push_base(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

PushGatewayOptions push_gateway_options(const PushGatewayPlan& plan,
                                        const std::string& output_dir) {
  PushGatewayOptions push;
  push.gateway = plan;
  push.labels = {
      {"name", plan.name},
      {"run_id",
       std::filesystem::path(output_dir)
           .lexically_relative(plan.outputs_dir.empty() ? "." : plan.outputs_dir)
           .string()},
  };
  // The run's --tags, but for those named as the grouping key's own labels (job, name, run_id).
  for (const auto& [key, value] : plan.tags) {
    if (key != "job" && key != "name" && key != "run_id") push.labels.emplace_back(key, value);
  }
  return push;
}

LivePusher::LivePusher(PushGatewayOptions options, const LoadProgress& progress)
    : options_(std::move(options)),
      progress_(progress),
      target_(push_base(options_.gateway.url) + push_grouping_path("llmperf", options_.labels)),
      shown_(url_without_userinfo(target_)),
      pool_(push_pool_options(options_)) {}

void LivePusher::begin_run() {
  thread_ = std::thread([this] { loop(); });
}

LivePusher::~LivePusher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LivePusher::add(std::span<const RequestRecord> records) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const RequestRecord& record : records) window_.add(record);
}

void LivePusher::loop() {
  const auto period = std::chrono::duration<double>(options_.gateway.interval_s);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stop_; })) {
    lock.unlock();
    push(false);
    lock.lock();
  }
}

void LivePusher::push(bool final) {
  const int64_t in_flight = progress_.started.load(std::memory_order_relaxed) -
                            progress_.finished.load(std::memory_order_relaxed);
  LiveFigures figures;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    figures = window_.take(final ? 0 : in_flight, final);
  }
  HttpCall call;
  call.url = target_;
  call.body = push_exposition_text(figures);
  const HttpReply reply = pool_.run_one(call);
  ++pushes_;
  if (reply.ok()) return;
  ++failed_;
  if (warned_) return;
  warned_ = true;
  // curl's messages name the URL: never with its credentials.
  std::string why = !reply.error.empty()
                        ? reply.error
                        : fmt::format("HTTP {}: {}", reply.status, reply.body.substr(0, 200));
  const std::string userinfo(url_userinfo(target_));
  if (!userinfo.empty()) {
    const std::string credentials = userinfo + "@";
    for (size_t at = why.find(credentials); at != std::string::npos; at = why.find(credentials)) {
      why.erase(at, credentials.size());
    }
    for (size_t at = why.find(userinfo); at != std::string::npos; at = why.find(userinfo, at)) {
      why.replace(at, userinfo.size(), "***");
    }
  }
  spdlog::warn(
      "--push-gateway: a push to {} failed ({}); the run goes on, and failed pushes are counted "
      "in summary.json (this is said once)",
      shown_, why);
}

void LivePusher::end_run() {
  if (finished_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  push(true);
  finished_ = true;
}

RunInfo::PushGateway LivePusher::outcome() const {
  return {url_without_userinfo(push_base(options_.gateway.url)), options_.gateway.interval_s,
          pushes_, failed_};
}

}  // namespace llmperf

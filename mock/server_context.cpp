// Fault and jitter draws, response slots and connection bookkeeping shared by llmperf-mock's
// connections.
#include "server_context.h"

#include "connection.h"
#include "engine_config.h"

#include <algorithm>
#include <string>
#include <vector>

namespace llmperf::mock {
namespace {

std::chrono::nanoseconds from_ms(double ms) {
  return std::chrono::nanoseconds(static_cast<std::int64_t>(ms * 1e6));
}

// cpp-httplib's form: "timeout=5, max=100".
std::string keep_alive_header_params(const MockOptions& o) {
  if (!o.keep_alive_header) return "";
  std::string params;
  if (o.keep_alive_timeout_s > 0) params = "timeout=" + std::to_string(o.keep_alive_timeout_s);
  if (o.keep_alive_max > 0) {
    params += (params.empty() ? "max=" : ", max=") + std::to_string(o.keep_alive_max);
  }
  return params;
}

// The KV capacity behind vllm:kv_cache_usage_perc: the engine's, after the activations' share, in
// scheduler mode.
std::int64_t metered_kv_capacity(const MockOptions& o) {
  return scheduler_mode(o) ? resolve_engine(o).limits.kv_cache_tokens : o.kv_cache_tokens;
}

}  // namespace

ServerContext::ServerContext(boost::asio::io_context& io, const MockOptions& options)
    : io_(io),
      options_(options),
      model_escaped_(json_escape(options.model)),
      keep_alive_params_(keep_alive_header_params(options)),
      event_log_(!options.event_log.empty()),
      metrics_(metered_kv_capacity(options)),
      prefix_cache_(options.prefix_cache_tokens, options.cache_block_tokens),
      rng_(options.seed),
      ttft_(from_ms(options.ttft_ms)),
      ttft_per_active_(from_ms(options.ttft_per_active_ms)),
      itl_(from_ms(options.itl_ms)),
      jitter_(from_ms(options.jitter_ms)),
      prefill_ns_per_token_(options.prefill_us_per_token * 1e3) {
  if (scheduler_mode(options)) {
    engine_ = std::make_unique<EngineLoop>(io, resolve_engine(options).limits);
  }
}

Fault ServerContext::draw_fault() {
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  const std::array<std::pair<double, Fault>, 11> order{{
      {options_.fault_http_rate, Fault::kHttpError},
      {options_.fault_429_rate, Fault::kTooMany},
      {options_.fault_drop_rate, Fault::kDrop},
      {options_.fault_stall_rate, Fault::kStall},
      {options_.fault_malformed_rate, Fault::kMalformed},
      {options_.fault_error_event_rate, Fault::kErrorEvent},
      {options_.fault_reset_rate, Fault::kReset},
      {options_.fault_truncate_rate, Fault::kTruncate},
      {options_.fault_garbage_rate, Fault::kGarbage},
      {options_.fault_huge_line_rate, Fault::kHugeLine},
      {options_.fault_bad_utf8_rate, Fault::kBadUtf8},
  }};
  double threshold = 0;
  for (const auto& [rate, fault] : order) {
    threshold += rate;
    if (rate > 0 && u < threshold) return fault;
  }
  return Fault::kNone;
}

bool ServerContext::draw_chance(double rate) {
  return rate > 0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < rate;
}

std::chrono::nanoseconds ServerContext::jittered(std::chrono::nanoseconds base) {
  if (jitter_.count() == 0) return base;
  const auto j = static_cast<double>(jitter_.count());
  const auto offset = std::uniform_real_distribution<double>(-j, j)(rng_);
  return std::max(std::chrono::nanoseconds(0),
                  base + std::chrono::nanoseconds(static_cast<std::int64_t>(offset)));
}

bool ServerContext::acquire_slot(const std::shared_ptr<Connection>& connection) {
  if (options_.max_active == 0 || active_ < options_.max_active) {
    ++active_;
    return true;
  }
  waiting_.push_back(connection);
  return false;
}

void ServerContext::release_slot() {
  --active_;
  while (!waiting_.empty() && !stopping_) {
    std::shared_ptr<Connection> next = waiting_.front().lock();
    waiting_.pop_front();
    if (next && next->waiting_for_slot()) {
      ++active_;
      boost::asio::post(io_, [next] { next->admit(); });
      return;
    }
  }
}

void ServerContext::close_all() {
  stopping_ = true;
  waiting_.clear();
  std::vector<std::shared_ptr<Connection>> open;
  open.reserve(connections_.size());
  for (Connection* c : connections_) open.push_back(c->shared_from_this());
  for (const auto& c : open) c->close();
  if (engine_) engine_->stop();
}

}  // namespace llmperf::mock

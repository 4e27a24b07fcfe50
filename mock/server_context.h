// State shared by all connections of llmperf-mock: options, vocabulary, the seeded RNG behind
// jitter and faults, the --max-active slots and their wait queue, the set of open connections, the
// event log, the /metrics counters, the prefix cache and, in scheduler mode, the engine loop.
// Everything runs on one io_context thread, so nothing here is locked (MockMetrics is atomic all
// the same, so it may be read from elsewhere).
#pragma once

#include "asio.h"
#include "engine_loop.h"
#include "event_log.h"
#include "mock_options.h"
#include "openai_format.h"
#include "prefix_cache.h"
#include "server_metrics.h"
#include "vocabulary.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <unordered_set>

namespace llmperf::mock {

class Connection;

// Shared services for connections; owned by MockServer.
class ServerContext {
 public:
  ServerContext(boost::asio::io_context& io, const MockOptions& options);

  boost::asio::io_context& io() { return io_; }
  const MockOptions& options() const { return options_; }
  const Vocabulary& vocabulary() const { return vocabulary_; }
  std::string_view model_escaped() const { return model_escaped_; }
  EventLog& event_log() { return event_log_; }
  // The Keep-Alive header's parameters ("timeout=N, max=M"), or "" when none is advertised.
  std::string_view keep_alive_params() const { return keep_alive_params_; }
  MockMetrics& metrics() { return metrics_; }
  bool stopping() const { return stopping_; }

  // Number of the next completion request, from 1.
  std::uint64_t next_seq() { return ++last_seq_; }

  // One uniform draw deciding the fault of a completion request.
  Fault draw_fault();
  // True with probability `rate`; draws nothing (so other draws stay as they were) when rate <= 0.
  bool draw_chance(double rate);

  // --ttft-ms (plus --ttft-per-active-ms per other active reply) / --itl-ms, jittered, >= 0.
  std::chrono::nanoseconds ttft_delay() {
    return jittered(ttft_ + ttft_per_active_ * std::max(0, active_ - 1));
  }
  std::chrono::nanoseconds itl_delay() { return jittered(itl_); }
  // --prefill-us-per-token times `uncached_tokens`, the prompt tokens the prefix cache lacked;
  // added to the TTFT unjittered.
  std::chrono::nanoseconds prefill_delay(std::int64_t uncached_tokens) const {
    return std::chrono::nanoseconds(
        std::llround(prefill_ns_per_token_ * static_cast<double>(uncached_tokens)));
  }

  // --prefix-cache-tokens > 0: requests look their prompts up in prefix_cache().
  bool prefix_cache_on() const { return options_.prefix_cache_tokens > 0; }
  PrefixCache& prefix_cache() { return prefix_cache_; }

  // Scheduler mode's engine (every token paced by its steps), or nullptr when the mode is off.
  EngineLoop* engine() { return engine_.get(); }

  // Takes a response slot if one is free; otherwise queues `connection` for admit().
  bool acquire_slot(const std::shared_ptr<Connection>& connection);
  // Frees a slot and admits the oldest waiting connection, if any.
  void release_slot();

  void add_connection(Connection* connection) { connections_.insert(connection); }
  void remove_connection(Connection* connection) { connections_.erase(connection); }
  // Closes every connection (shutdown).
  void close_all();

  // Buffer that a connection reads into before keeping only the bytes it received.
  std::span<char> read_scratch() { return read_scratch_; }

 private:
  std::chrono::nanoseconds jittered(std::chrono::nanoseconds base);

  boost::asio::io_context& io_;
  const MockOptions& options_;
  Vocabulary vocabulary_;
  std::string model_escaped_;
  std::string keep_alive_params_;
  EventLog event_log_;
  MockMetrics metrics_;
  PrefixCache prefix_cache_;
  std::unique_ptr<EngineLoop> engine_;  // scheduler mode only
  std::mt19937_64 rng_;
  std::chrono::nanoseconds ttft_;
  std::chrono::nanoseconds ttft_per_active_;
  std::chrono::nanoseconds itl_;
  std::chrono::nanoseconds jitter_;
  double prefill_ns_per_token_;  // --prefill-us-per-token in ns
  std::uint64_t last_seq_ = 0;
  int active_ = 0;
  std::deque<std::weak_ptr<Connection>> waiting_;
  std::unordered_set<Connection*> connections_;
  bool stopping_ = false;
  std::array<char, 64 * 1024> read_scratch_{};
};

}  // namespace llmperf::mock

// Scheduler mode on the event loop: one timer plays the BatchScheduler's steps back to back, at
// absolute deadlines, telling each connection when its request is admitted and how many tokens it
// has at the end of every step. Idle (no timer) while the engine holds nothing.
#pragma once

#include "asio.h"
#include "batch_scheduler.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace llmperf::mock {

class Connection;

// The engine loop of scheduler mode; owned by ServerContext.
class EngineLoop {
 public:
  EngineLoop(boost::asio::io_context& io, const SchedulerLimits& limits);

  // Why a request of `demand` could never run (the message of its 400), or nullopt.
  std::optional<std::string> refusal(const SequenceDemand& demand) const {
    return scheduler_.refusal(demand);
  }
  // Queues `connection`'s request as sequence `id` (after refusal() said nothing); the engine
  // keeps the connection alive until the sequence finishes or is aborted, and calls its
  // on_engine_admitted() when the sequence is first scheduled and on_engine_tokens() after every
  // step that gave it a token.
  void submit(SequenceId id, const SequenceDemand& demand, std::shared_ptr<Connection> connection);
  // Drops sequence `id` (its client went away); nothing when the engine no longer holds it.
  void abort(SequenceId id);
  // Shutdown: forgets every sequence and stops stepping.
  void stop();

  // The scheduler's state, for tests and logs.
  const BatchScheduler& scheduler() const { return scheduler_; }

 private:
  using Clock = std::chrono::steady_clock;

  void begin_step(Clock::time_point start);
  void end_step();

  boost::asio::io_context& io_;
  BatchScheduler scheduler_;
  boost::asio::steady_timer timer_;
  std::unordered_map<SequenceId, std::shared_ptr<Connection>> owners_;  // sequences held
  EngineStep current_;                                                  // the step in flight
  Clock::time_point step_end_;                                          // its deadline
  bool stepping_ = false;  // a step is in flight or about to begin
  bool stopped_ = false;   // stop() was called
};

}  // namespace llmperf::mock

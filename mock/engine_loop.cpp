// The engine loop of llmperf-mock's scheduler mode. Deadlines are absolute: a step that follows
// another begins at the other's deadline, not when its timer fired, so the timer's usual lateness
// never adds up over a run and throughput stays the model's. But a step never ends sooner than
// half its duration after it is scheduled: after a long stall of the process (a loaded machine)
// the engine does not catch up in a burst of near-zero inter-token gaps, it loses the time as a
// real engine would. A step that begins from idle begins "now".
#include "engine_loop.h"

#include "connection.h"

#include <algorithm>
#include <vector>

namespace llmperf::mock {

EngineLoop::EngineLoop(boost::asio::io_context& io, const SchedulerLimits& limits)
    : io_(io), scheduler_(limits), timer_(io) {}

void EngineLoop::submit(SequenceId id, const SequenceDemand& demand,
                        std::shared_ptr<Connection> connection) {
  if (stopped_ || scheduler_.add(id, demand)) return;
  owners_[id] = std::move(connection);
  if (stepping_) return;  // the step in flight ends by scheduling the next
  stepping_ = true;
  // Posted, so requests read in the same turn of the loop join the same first step.
  boost::asio::post(io_, [this] { begin_step(Clock::now()); });
}

void EngineLoop::abort(SequenceId id) {
  scheduler_.abort(id);
  owners_.erase(id);
}

void EngineLoop::stop() {
  stopped_ = true;
  timer_.cancel();
  owners_.clear();
}

void EngineLoop::begin_step(Clock::time_point start) {
  if (stopped_) return;
  current_ = scheduler_.step();
  if (current_.work.empty()) {
    stepping_ = false;
    return;
  }
  const std::chrono::nanoseconds duration(current_.duration_ns);
  step_end_ = std::max(start + duration, Clock::now() + duration / 2);
  timer_.expires_at(step_end_);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) end_step();
  });
  // Admission sends the headers now. A connection may close while admitted (a fault), which
  // aborts its sequence: hence a copy of the owner, looked up each time.
  for (const StepWork& work : current_.work) {
    if (!work.admitted) continue;
    const auto it = owners_.find(work.id);
    if (it == owners_.end()) continue;
    const std::shared_ptr<Connection> owner = it->second;
    owner->on_engine_admitted(work.id);
  }
}

void EngineLoop::end_step() {
  const EngineStep done = std::move(current_);
  for (const StepWork& work : done.work) {
    if (!work.emits) continue;
    const auto it = owners_.find(work.id);
    if (it == owners_.end()) continue;  // aborted during the step
    const std::shared_ptr<Connection> owner = it->second;
    if (work.finished) owners_.erase(it);
    owner->on_engine_tokens(work.id, work.generated);
  }
  begin_step(step_end_);
}

}  // namespace llmperf::mock

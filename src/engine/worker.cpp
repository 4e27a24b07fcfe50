// The worker loop (see worker.h). Time stamps are taken in the write/header callbacks, i.e. when
// curl hands over bytes it has just read from the socket, before any parsing.
#include "engine/worker.h"

#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

#include "core/clock.h"
#include "engine/cancellation.h"
#include "engine/cpu_readings.h"

namespace llmperf {
namespace {

constexpr int64_t kNsPerMs = 1'000'000;
// Read-timeout and interrupt checks run at least this often.
constexpr int64_t kHousekeepingNs = 50 * kNsPerMs;
// Marker given to curl_multi_assign for sockets already in the epoll set.
int kRegistered = 0;
// Requests started per loop turn. Opening a connection costs curl tens of microseconds, so starting
// a thousand at once would hold back every send and read behind the whole batch; small batches
// keep t_send close to the moment the request really leaves, and keep in-flight reads flowing.
constexpr int kStartsPerTurn = 16;
// Open loop: the schedule timer fires this long before a planned send and the worker spins the
// rest of the way, because waking a sleeping thread takes tens of microseconds (more on VMs).
constexpr int64_t kSpinLeadNs = 100'000;

}  // namespace

Worker::Worker(WorkerShared& shared, uint32_t index, int slot_count)
    : shared_(shared), index_(index), slot_count_(slot_count) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw std::runtime_error(fmt::format("epoll_create1: {}", strerror(errno)));
  if (!shared_.plan->schedule_ns.empty()) {
    // steady_clock is CLOCK_MONOTONIC, so planned times can be armed as absolute timer values.
    timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (timer_fd_ < 0) throw std::runtime_error(fmt::format("timerfd_create: {}", strerror(errno)));
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = timer_fd_;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, timer_fd_, &event);
    next_open_id_ = index_;
  }
  multi_ = curl_multi_init();
  if (multi_ == nullptr) throw std::runtime_error("curl_multi_init failed");
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &Worker::on_socket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &Worker::on_timer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
  // Keep a connection per slot alive and never let curl queue a request behind another.
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(slot_count + 4));
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
  curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);
  configure_multi(multi_, shared_.transport);  // no pipelining; HTTP/2: multiplexed streams

  retry_count_per_handle_ = retry_count_per_handle();
  max_age_s_ = reuse_max_age_s(std::nullopt);
  slots_ = std::make_unique<Slot[]>(static_cast<size_t>(slot_count));
  free_slots_.reserve(static_cast<size_t>(slot_count));
  for (int i = slot_count - 1; i >= 0; --i) {
    Slot& slot = slots_[static_cast<size_t>(i)];
    slot.worker = this;
    slot.easy = curl_easy_init();
    if (slot.easy == nullptr) throw std::runtime_error("curl_easy_init failed");
    configure(slot);
    free_slots_.push_back(&slot);
  }
}

void Worker::configure(Slot& slot) {
  configure_easy(slot.easy, shared_.transport, slot.error_buffer);
  curl_easy_setopt(slot.easy, CURLOPT_WRITEFUNCTION, &Worker::on_write);
  curl_easy_setopt(slot.easy, CURLOPT_WRITEDATA, &slot);
  curl_easy_setopt(slot.easy, CURLOPT_HEADERFUNCTION, &Worker::on_header);
  curl_easy_setopt(slot.easy, CURLOPT_HEADERDATA, &slot);
  curl_easy_setopt(slot.easy, CURLOPT_PREREQFUNCTION, &Worker::on_prereq);
  curl_easy_setopt(slot.easy, CURLOPT_PREREQDATA, &slot);
  curl_easy_setopt(slot.easy, CURLOPT_PRIVATE, &slot);
}

Worker::~Worker() {
  for (int i = 0; i < slot_count_; ++i) {
    Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.busy) curl_multi_remove_handle(multi_, slot.easy);
    curl_easy_cleanup(slot.easy);
  }
  if (multi_ != nullptr) curl_multi_cleanup(multi_);
  if (timer_fd_ >= 0) close(timer_fd_);
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

size_t Worker::on_write(char* data, size_t size, size_t count, void* user) {
  const int64_t now = now_ns();
  auto* slot = static_cast<Slot*>(user);
  const size_t bytes = size * count;
  slot->last_read_ns = now;
  try {
    slot->handler.on_body(data, bytes, now);
  } catch (...) {
    return 0;  // nothing may throw through curl; 0 aborts the transfer (CURLE_WRITE_ERROR)
  }
  if (slot->record.chunk_ns.size() >= slot->cancel_chunks) {  // --cancel-after ttft|N-tokens
    slot->cancelling = true;
    return 0;  // curl stops the transfer and closes its connection: the server sees the abort
  }
  return bytes;
}

size_t Worker::on_header(char* data, size_t size, size_t count, void* user) {
  const int64_t now = now_ns();
  auto* slot = static_cast<Slot*>(user);
  const size_t bytes = size * count;
  slot->last_read_ns = now;
  std::string_view line(data, bytes);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  try {
    slot->handler.on_header_line(line, now);
  } catch (...) {
    return 0;
  }
  return bytes;
}

int Worker::on_socket(CURL* /*easy*/, curl_socket_t fd, int what, void* user, void* socket_data) {
  auto* worker = static_cast<Worker*>(user);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(worker->epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    curl_multi_assign(worker->multi_, fd, nullptr);
    return 0;
  }
  epoll_event event{};
  event.data.fd = fd;
  event.events =
      ((what & CURL_POLL_IN) != 0 ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) != 0 ? EPOLLOUT : 0u);
  if (socket_data == nullptr) {
    epoll_ctl(worker->epoll_fd_, EPOLL_CTL_ADD, fd, &event);
    curl_multi_assign(worker->multi_, fd, &kRegistered);
  } else {
    epoll_ctl(worker->epoll_fd_, EPOLL_CTL_MOD, fd, &event);
  }
  return 0;
}

int Worker::on_prereq(void* user, char* /*remote_ip*/, char* /*local_ip*/, int /*remote_port*/,
                      int /*local_port*/) {
  ++static_cast<Slot*>(user)->attempts;
  return CURL_PREREQFUNC_OK;
}

int Worker::on_timer(CURLM* /*multi*/, long timeout_ms, void* user) {
  auto* worker = static_cast<Worker*>(user);
  // -1 deletes the timer; 0 means "act now", handled by the loop's next turn (never recurse).
  worker->timer_deadline_ns_ = timeout_ms < 0 ? -1 : now_ns() + timeout_ms * kNsPerMs;
  return 0;
}

void Worker::run() {
  // Wake-ups (the schedule timer, epoll timeouts) may otherwise be deferred by the default 50 us
  // timer slack of a thread.
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  const int64_t cpu_start_ns = thread_cpu_ns();
  const ThreadSchedule schedule_start = read_thread_schedule();
  std::array<epoll_event, 256> events{};
  int running = 0;
  while (true) {
    const int64_t now = now_ns();
    if (now >= next_housekeeping_ns_) {
      check_stop(now);
      check_read_timeouts(now);
      if (shared_.settings->cancel_after.seconds >= 0) check_cancel_deadlines(now);
      hand_over();
      next_housekeeping_ns_ = now + kHousekeepingNs;
    }
    dispatch(kStartsPerTurn);
    if (idle()) break;

    // With requests due and a free slot for them, only look for ready sockets.
    const bool more_to_start = start_pending(now_ns());
    arm_schedule_timer();
    const int ready = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()),
                                 more_to_start ? 0 : wait_ms(now_ns()));
    const int64_t ready_ns = ready > 0 ? now_ns() : 0;
    for (int i = 0; i < ready; ++i) {
      if (events[static_cast<size_t>(i)].data.fd == timer_fd_) {
        // A planned send time came: send before handling the other ready sockets.
        uint64_t expirations = 0;
        [[maybe_unused]] const ssize_t n = read(timer_fd_, &expirations, sizeof expirations);
        spin_until(armed_for_ns_);
        armed_for_ns_ = -1;
        dispatch(kStartsPerTurn);
      }
    }
    for (int i = 0; i < ready; ++i) {
      const int fd = events[static_cast<size_t>(i)].data.fd;
      if (fd == timer_fd_) continue;
      const uint32_t flags = events[static_cast<size_t>(i)].events;
      int mask = 0;
      if ((flags & EPOLLIN) != 0) mask |= CURL_CSELECT_IN;
      if ((flags & EPOLLOUT) != 0) mask |= CURL_CSELECT_OUT;
      if ((flags & (EPOLLERR | EPOLLHUP)) != 0) mask |= CURL_CSELECT_ERR;
      curl_multi_socket_action(multi_, fd, mask, &running);
      // Open loop: a send that fell due while this turn's sockets were handled goes out now
      // rather than after the whole batch.
      if (timer_fd_ >= 0 && start_pending(now_ns())) dispatch(kStartsPerTurn);
    }
    if (ready > 0) stamp_delay_ns_.add(now_ns() - ready_ns);
    if (timer_deadline_ns_ >= 0 && now_ns() >= timer_deadline_ns_) {
      timer_deadline_ns_ = -1;
      curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    drain_completions();
  }
  hand_over();
  end_ns_ = now_ns();
  cpu_ns_ = thread_cpu_ns() - cpu_start_ns;
  schedule_ = schedule_between(schedule_start, read_thread_schedule());
}

void Worker::hand_over() {
  if (finished_.empty()) return;
  // Constant time under the lock whatever has piled up (a collector that has had no CPU time).
  const size_t count = finished_.size();
  {
    const std::lock_guard<std::mutex> lock(mailbox_mutex_);
    mailbox_.push_back(std::move(finished_));
  }
  finished_ = {};
  finished_.reserve(count);
}

std::vector<std::vector<RequestRecord>> Worker::take_finished() {
  std::vector<std::vector<RequestRecord>> batches;
  const std::lock_guard<std::mutex> lock(mailbox_mutex_);
  batches.swap(mailbox_);
  return batches;
}

int Worker::wait_ms(int64_t now) const {
  int64_t deadline = next_housekeeping_ns_;
  if (timer_deadline_ns_ >= 0) deadline = std::min(deadline, timer_deadline_ns_);
  for (const Slot* slot : waiting_) deadline = std::min(deadline, slot->due_ns);
  if (deadline <= now) return 0;
  return static_cast<int>((deadline - now + kNsPerMs - 1) / kNsPerMs);  // round up: never spin
}

void Worker::dispatch(int limit) {
  if (!waiting_.empty()) start_due_turns(now_ns());
  for (int started = 0; started < limit && !free_slots_.empty() && may_dispatch(); ++started) {
    int64_t id = 0;
    int64_t planned_ns = 0;
    if (!next_request(now_ns(), id, planned_ns)) break;
    // This shard's k-th request is the benchmark's request shard + k * shards.
    id = shared_.plan->shard + id * shared_.plan->shards;
    Slot& slot = *free_slots_.back();
    free_slots_.pop_back();
    slot.slot_wait_ns =
        planned_ns < 0 ? -1 : std::max<int64_t>(0, slot_free_since_ns_ - planned_ns);
    if (free_slots_.empty()) slot_free_since_ns_ = kNoFreeSlot;
    start(slot, id, planned_ns);
  }
}

bool Worker::start_pending(int64_t now) const {
  for (const Slot* slot : waiting_) {
    if (slot->due_ns <= now) return true;
  }
  if (free_slots_.empty() || !may_dispatch()) return false;
  if (timer_fd_ < 0) return true;
  return next_open_id_ < shared_.total &&
         shared_.start_ns + shared_.plan->schedule_ns[static_cast<size_t>(next_open_id_)] <= now;
}

bool Worker::next_request(int64_t now, int64_t& id, int64_t& planned_ns) {
  const LoadPlan& plan = *shared_.plan;
  if (plan.duration_ns > 0 && now - shared_.start_ns >= plan.duration_ns) {
    exhausted_ = true;
    return false;
  }
  if (plan.schedule_ns.empty()) {  // closed loop: the next id any worker has not taken
    id = shared_.next_id.fetch_add(1, std::memory_order_relaxed);
    planned_ns = -1;
  } else {  // open loop: this worker's ids, round-robin, each at its planned time
    id = next_open_id_;
    if (id < shared_.total) {
      planned_ns = shared_.start_ns + plan.schedule_ns[static_cast<size_t>(id)];
      if (planned_ns > now) return false;  // not due yet: the timer will wake us
      next_open_id_ += shared_.threads;
    }
  }
  if (id >= shared_.total) {
    exhausted_ = true;
    return false;
  }
  return true;
}

void Worker::arm_schedule_timer() {
  if (timer_fd_ < 0 || free_slots_.empty() || !may_dispatch() || next_open_id_ >= shared_.total) {
    return;
  }
  const int64_t planned_ns =
      shared_.start_ns + shared_.plan->schedule_ns[static_cast<size_t>(next_open_id_)];
  if (planned_ns == armed_for_ns_) return;
  const int64_t wake_ns = planned_ns - kSpinLeadNs;
  itimerspec when{};
  when.it_value.tv_sec = wake_ns / 1'000'000'000;
  when.it_value.tv_nsec = wake_ns % 1'000'000'000;
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &when, nullptr);
  armed_for_ns_ = planned_ns;
}

void Worker::spin_until(int64_t deadline_ns) {
  if (deadline_ns < 0) return;
  const int64_t began = now_ns();
  int64_t now = began;
  while (now < deadline_ns) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    now = now_ns();
  }
  spin_ns_ += now - began;
}

void Worker::start(Slot& slot, int64_t id, int64_t planned_ns) {
  if (shared_.sessions != nullptr) {
    slot.session = id;
    slot.turn = 0;
    slot.answers.clear();
    start_turn(slot, planned_ns);
    return;
  }
  RequestRecord& record = slot.record;
  record = RequestRecord{};
  record.id = static_cast<uint64_t>(id);
  record.warmup = id < shared_.plan->warmup;
  record.worker = index_;
  const auto& prompts = *shared_.prompts;
  record.prompt_index = static_cast<uint32_t>(static_cast<uint64_t>(id) % prompts.size());
  const Prompt& prompt = prompts[record.prompt_index];
  record.target_input_tokens = prompt.target_input_tokens;
  record.prefix_group = prompt.prefix_group;
  record.prefix_first_use = prompt.prefix_first_use;
  record.target_output_tokens = prompt.target_output_tokens;
  record.input_chars = prompt.length;
  send(slot, prompt, planned_ns);
}

void Worker::start_turn(Slot& slot, int64_t planned_ns) {
  const auto& sessions = *shared_.sessions;
  const SessionScript& script = sessions[static_cast<size_t>(slot.session) % sessions.size()];
  const auto turn = static_cast<size_t>(slot.turn);
  const ScriptTurn& step = script.turns[turn];
  RequestRecord& record = slot.record;
  record = RequestRecord{};
  // Turns are numbered as they are sent; a shard's numbers interleave with the other shards'.
  const int64_t turn_index = shared_.next_record_id.fetch_add(1, std::memory_order_relaxed);
  record.id = static_cast<uint64_t>(shared_.plan->shard + turn_index * shared_.plan->shards);
  record.warmup = slot.session < shared_.plan->warmup;
  record.worker = index_;
  record.prompt_index = static_cast<uint32_t>(static_cast<uint64_t>(slot.session) % sessions.size());
  record.session_id = slot.session;
  record.turn = slot.turn;
  record.session_turns = static_cast<int32_t>(script.turns.size());
  // Only the first turn's length is known in advance (a single message, as it was built); later
  // turns carry a history whose answers are not.
  if (turn == 0 && script.system.empty()) record.target_input_tokens = step.target_tokens;
  record.target_output_tokens = step.max_tokens;
  Prompt prompt;
  prompt.messages_json = turn_messages(script, turn, slot.answers,
                                      shared_.settings->history_recorded, &prompt.length);
  prompt.target_output_tokens = step.max_tokens;
  record.input_chars = prompt.length;
  slot.answer.clear();
  send(slot, prompt, planned_ns);
}

void Worker::send(Slot& slot, const Prompt& prompt, int64_t planned_ns) {
  RequestRecord& record = slot.record;
  // The API's adapter builds the body and reads the answer.
  const ApiAdapter& api = shared_.builder->adapter();
  record.stream = shared_.settings->stream && generates_text(api.kind());
  if (!generates_text(api.kind())) {
    record.items = static_cast<int32_t>(std::max<size_t>(1, prompt.texts.size()));
  }
  slot.busy = true;
  ++active_;
  if (shared_.progress != nullptr)
    shared_.progress->started.fetch_add(1, std::memory_order_relaxed);

  if (slot.needs_reset) {
    // 6 us per reset on the development machine: done only when curl may have counted a retry
    // (bench/README.md, "Connections").
    curl_easy_reset(slot.easy);
    configure(slot);
    slot.needs_reset = false;
  }
  curl_easy_setopt(slot.easy, CURLOPT_MAXAGE_CONN, max_age_s_);
  curl_easy_setopt(slot.easy, CURLOPT_FRESH_CONNECT, 0L);
  slot.body = shared_.builder->build_body(prompt, record.id);
  curl_easy_setopt(slot.easy, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(slot.body.size()));
  curl_easy_setopt(slot.easy, CURLOPT_POSTFIELDS, slot.body.data());
  // The answer text is collected for the next turn of a conversation, and kept in the record while
  // the run's --keep-text budget lasts (one atomic load per request).
  const auto keep_bytes = static_cast<int64_t>(shared_.settings->keep_text_mib * 1048576);
  slot.keep_text = !record.warmup && generates_text(api.kind()) &&
                   shared_.kept_text_bytes.load(std::memory_order_relaxed) < keep_bytes;
  std::string* answer = shared_.sessions != nullptr ? &slot.answer
                        : slot.keep_text            ? &record.output_text
                                                    : nullptr;
  slot.handler.start(&record, answer, api);
  if (shared_.replicas != nullptr) {  // several --url: this request's replica
    const int64_t ordinal =
        (record.session_id >= 0 ? record.session_id : static_cast<int64_t>(record.id)) -
        shared_.plan->shard;
    record.url_index =
        shared_.replicas->acquire(static_cast<uint64_t>(ordinal / shared_.plan->shards));
    curl_easy_setopt(slot.easy, CURLOPT_URL, shared_.replicas->url(record.url_index).c_str());
  }
  slot.error_buffer[0] = '\0';
  slot.attempts = 0;
  slot.resent = false;

  const int64_t now = now_ns();
  record.planned_ns = planned_ns >= 0 ? planned_ns : now;
  record.slot_wait_ns = slot.slot_wait_ns;
  record.sent_ns = now;
  slot.last_read_ns = now;
  plan_cancel(slot, now);
  submit(slot);
}

void Worker::submit(Slot& slot) {
  const CURLMcode added = curl_multi_add_handle(multi_, slot.easy);
  if (added != CURLM_OK) {
    slot.handler.finish(now_ns(), ErrorKind::kTransport,
                        fmt::format("curl_multi_add_handle: {}", curl_multi_strerror(added)));
    release(slot);
    return;
  }
  // Let curl act on the new handle now (send on a kept-alive connection, or start connecting)
  // rather than at the loop's next turn. Its completions are drained by the loop.
  int running = 0;
  curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
}

// The request went out on a reused connection the server had already closed, and no byte came
// back: the server never saw it. It goes again on a new connection, once, keeping its t_send
// (so its latency includes the lost attempt); record.resends says so.
void Worker::resend(Slot& slot) {
  ++slot.record.resends;
  slot.resent = true;
  slot.error_buffer[0] = '\0';
  curl_easy_setopt(slot.easy, CURLOPT_FRESH_CONNECT, 1L);
  submit(slot);
}

// curl calls the pre-request callback once per send of a transfer, so more than one call means
// curl retried; a retry whose reconnect failed ends the transfer with an error. Either may have
// raised the handle's retry count, and only then is a reset needed.
void Worker::count_attempts(Slot& slot, CURLcode code) {
  if (slot.attempts > 1) slot.record.resends += slot.attempts - 1;
  if (retry_count_per_handle_ && (slot.attempts != 1 || code != CURLE_OK)) {
    slot.needs_reset = true;
  }
  slot.attempts = 0;
}

void Worker::drain_completions() {
  int remaining = 0;
  while (CURLMsg* message = curl_multi_info_read(multi_, &remaining)) {
    if (message->msg != CURLMSG_DONE) continue;
    Slot* slot = nullptr;
    curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &slot);
    complete(*slot, message->data.result);
  }
}

void Worker::complete(Slot& slot, CURLcode code) {
  const int64_t now = now_ns();
  // Read once per request, at its end: the verdict's facts and the record's HTTP phases.
  const TransferFacts facts = read_transfer_facts(slot.easy, code);
  if (slot.cancelling) {  // closed on purpose by the write callback (--cancel-after)
    curl_multi_remove_handle(multi_, slot.easy);
    count_attempts(slot, code);
    slot.record.phases = facts.phases();
    slot.handler.finish(now, ErrorKind::kCancelled, cancel_message());
    release(slot);
    return;
  }
  TransportVerdict verdict =
      classify_transfer(facts, slot.error_buffer,
                        slot.record.url_index >= 0 ? shared_.replicas->url(slot.record.url_index)
                                                   : shared_.transport.url);
  curl_multi_remove_handle(multi_, slot.easy);
  count_attempts(slot, code);
  if (verdict.resendable && !slot.resent) {
    resend(slot);
    return;
  }
  if (const std::optional<int64_t> timeout_s = slot.handler.keep_alive_timeout_s()) {
    max_age_s_ = std::min(max_age_s_, reuse_max_age_s(timeout_s));
  }
  if (slot.resent && verdict.kind != ErrorKind::kNone) {
    verdict.message += " (the request had been sent again on a new connection)";
  }
  slot.record.phases = facts.phases();
  slot.handler.finish(now, verdict.kind, verdict.message);
  release(slot);
}

void Worker::abort(Slot& slot, ErrorKind kind, const std::string& message) {
  // Removing a handle mid-transfer closes its connection; the slot reconnects on its next request.
  curl_multi_remove_handle(multi_, slot.easy);
  count_attempts(slot, CURLE_ABORTED_BY_CALLBACK);
  const int64_t now = now_ns();
  // A request closed on purpose ends now, not at its last byte: its latency runs to the close.
  if (kind == ErrorKind::kCancelled) slot.record.end_ns = now;
  slot.handler.finish(now, kind, message);
  release(slot);
}

void Worker::release(Slot& slot) {
  if (shared_.progress != nullptr) {
    shared_.progress->finished.fetch_add(1, std::memory_order_relaxed);
    if (!slot.record.ok() && slot.record.error != ErrorKind::kCancelled) {
      shared_.progress->failed.fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (slot.keep_text) {
    if (shared_.sessions != nullptr) slot.record.output_text = slot.answer;
    shared_.kept_text_bytes.fetch_add(static_cast<int64_t>(slot.record.output_text.size()),
                                      std::memory_order_relaxed);
  }
  if (slot.record.url_index >= 0) shared_.replicas->release(slot.record.url_index);
  const int64_t now = now_ns();
  const bool next_turn = shared_.sessions != nullptr && slot.record.ok() &&
                         continue_session(slot, now);
  finished_.push_back(std::move(slot.record));
  slot.busy = false;
  --active_;
  if (next_turn) {
    waiting_.push_back(&slot);
  } else {
    if (free_slots_.empty()) slot_free_since_ns_ = now;
    free_slots_.push_back(&slot);
  }
}

bool Worker::continue_session(Slot& slot, int64_t now) {
  const auto& sessions = *shared_.sessions;
  const SessionScript& script = sessions[static_cast<size_t>(slot.session) % sessions.size()];
  if (stopping_ || static_cast<size_t>(slot.turn) + 1 >= script.turns.size()) return false;
  const LoadPlan& plan = *shared_.plan;
  if (plan.duration_ns > 0 && now - shared_.start_ns >= plan.duration_ns) return false;
  slot.answers.push_back(std::move(slot.answer));
  ++slot.turn;
  slot.due_ns =
      now + shared_.settings->turn_delay.draw_ns(shared_.settings->seed, slot.session, slot.turn);
  return true;
}

void Worker::start_due_turns(int64_t now) {
  if (stopping_) {  // an interrupt ends every conversation between its turns
    if (free_slots_.empty() && !waiting_.empty()) slot_free_since_ns_ = now;
    for (Slot* slot : waiting_) free_slots_.push_back(slot);
    waiting_.clear();
    return;
  }
  for (size_t i = 0; i < waiting_.size();) {
    Slot& slot = *waiting_[i];
    if (slot.due_ns > now) {
      ++i;
      continue;
    }
    waiting_[i] = waiting_.back();
    waiting_.pop_back();
    slot.slot_wait_ns = timer_fd_ >= 0 ? 0 : -1;  // the conversation kept its slot meanwhile
    start_turn(slot, slot.due_ns);
  }
}

void Worker::check_read_timeouts(int64_t now) {
  const int64_t limit = shared_.read_timeout_ns;
  if (limit <= 0) return;
  for (int i = 0; i < slot_count_; ++i) {
    Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.busy && now - slot.last_read_ns > limit) {
      abort(slot, ErrorKind::kTimeoutRead,
            fmt::format("no data for {:.1f} s (--read-timeout {:g} s)",
                        static_cast<double>(now - slot.last_read_ns) / 1e9,
                        static_cast<double>(limit) / 1e9));
    }
  }
}

void Worker::plan_cancel(Slot& slot, int64_t now) {
  slot.cancel_chunks = kNoCancel;
  slot.cancel_at_ns = -1;
  slot.cancelling = false;
  const RequestSettings& settings = *shared_.settings;
  if (settings.cancel_rate <= 0 || slot.record.warmup ||
      !chosen_for_cancel(settings.seed, slot.record.id, settings.cancel_rate)) {
    return;
  }
  if (settings.cancel_after.chunks > 0) {
    slot.cancel_chunks = static_cast<size_t>(settings.cancel_after.chunks);
  } else {
    slot.cancel_at_ns = now + static_cast<int64_t>(settings.cancel_after.seconds * 1e9);
  }
}

std::string Worker::cancel_message() const {
  return fmt::format("closed on purpose after {} (--cancel-rate, --cancel-after)",
                     shared_.settings->cancel_after.text());
}

// Like the read timeouts, at the loop's housekeeping (every 50 ms at least).
void Worker::check_cancel_deadlines(int64_t now) {
  for (int i = 0; i < slot_count_; ++i) {
    Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.busy && slot.cancel_at_ns >= 0 && now >= slot.cancel_at_ns) {
      abort(slot, ErrorKind::kCancelled, cancel_message());
    }
  }
}

void Worker::check_stop(int64_t now) {
  int interrupts = shared_.stop.interrupts != nullptr
                       ? shared_.stop.interrupts->load(std::memory_order_relaxed)
                       : 0;
  if (interrupts == 0 && shared_.stop.early_stop != nullptr) {
    interrupts = shared_.stop.early_stop->load(std::memory_order_relaxed);
  }
  if (shared_.abort.load(std::memory_order_relaxed)) interrupts = 2;  // cancel at once
  if (interrupts == 0) return;
  if (!stopping_) {
    stopping_ = true;
    stop_deadline_ns_ = now + shared_.stop.grace_ns;
  }
  if (interrupts >= 2 || now >= stop_deadline_ns_) {
    for (int i = 0; i < slot_count_; ++i) {
      Slot& slot = slots_[static_cast<size_t>(i)];
      if (slot.busy) abort(slot, ErrorKind::kInterrupted, "the run was interrupted");
    }
  }
}

}  // namespace llmperf

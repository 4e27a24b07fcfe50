// One worker thread of the engine: a curl multi handle driven by curl_multi_socket_action with
// epoll and curl's timer (the pattern of curl's ephiperfifo.c example), and a fixed set of slots,
// each an easy handle reused for every request it carries. The worker owns all of its state; the
// only shared things are the request counter (one atomic increment per request), the progress
// counters (one increment per finished request) and the mailbox of finished records (one lock per
// batch, at most every 50 ms). Nothing per event is shared.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/cpu_readings.h"
#include "engine/engine.h"
#include "engine/replicas.h"
#include "engine/response_handler.h"
#include "http/curl_transport.h"
#include "workload/replay/session_script.h"

namespace llmperf {

// State shared read-only (plus the atomic counter) by all workers of one run.
struct WorkerShared {
  const RequestSettings* settings = nullptr;
  const std::vector<Prompt>* prompts = nullptr;
  // --multi-turn: the conversations; ids then count conversations (session i plays
  // sessions[i % size]), and each finished turn starts the session's next on the same slot.
  const std::vector<SessionScript>* sessions = nullptr;
  const RequestBuilder* builder = nullptr;
  TransportOptions transport;
  const LoadPlan* plan = nullptr;
  int64_t total = 0;                // requests to dispatch in total (warm-up + measured)
  int threads = 1;                  // workers in the run
  int64_t start_ns = 0;             // steady time the run starts: open-loop offsets count from it
  int64_t read_timeout_ns = 0;      // longest silence allowed between reads; 0: no limit
  std::atomic<int64_t> next_id{0};  // closed loop: next request (or conversation) to dispatch
  std::atomic<int64_t> next_record_id{0};  // --multi-turn: the next request's id
  // Answer text kept so far (bytes) against --keep-text: read as each request starts, added to
  // as it ends (measured requests of the APIs that generate text only).
  std::atomic<int64_t> kept_text_bytes{0};
  LoadProgress* progress = nullptr;
  StopControl stop;
  std::atomic<bool> abort{false};  // set by run_load when the record sink failed: cancel everything
  ReplicaChooser* replicas = nullptr;  // several --url: where each request goes (null: one URL)
};

class Worker {
 public:
  Worker(WorkerShared& shared, uint32_t index, int slot_count);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // The thread body: runs until every request this worker took has finished and its record has
  // been handed over.
  void run();

  // The batches of finished records handed over so far, oldest first (any thread).
  std::vector<std::vector<RequestRecord>> take_finished();

  PooledSamples& stamp_delays() { return stamp_delay_ns_; }
  int64_t spin_ns() const { return spin_ns_; }
  int64_t cpu_ns() const { return cpu_ns_; }
  const ThreadSchedule& schedule() const { return schedule_; }  // over run()
  int64_t end_ns() const { return end_ns_; }
  bool interrupted() const { return stopping_; }

 private:
  struct Slot {
    Worker* worker = nullptr;
    CURL* easy = nullptr;
    RequestRecord record;
    ResponseHandler handler;
    std::string body;          // the request body; curl reads it in place (CURLOPT_POSTFIELDS)
    int64_t last_read_ns = 0;  // when bytes were last read (or the request was sent)
    bool busy = false;
    // --multi-turn: the conversation the slot plays, its turn in flight (or next), the answers
    // received so far, and when its next turn is due (after the think time).
    int64_t session = -1;
    int32_t turn = 0;
    std::vector<std::string> answers;
    std::string answer;      // of the turn in flight
    bool keep_text = false;  // the request in flight keeps its answer text (record.output_text)
    int64_t due_ns = 0;
    // Open loop: how long the request being started waited for this slot (RequestRecord's
    // slot_wait_ns).
    int64_t slot_wait_ns = -1;
    // Sends curl began for the transfer in flight (CURLOPT_PREREQFUNCTION): more than one when
    // curl itself retried a reused connection that turned out dead.
    int32_t attempts = 0;
    bool resent = false;  // the request in flight was sent again on a new connection
    // libcurl < 8.17: curl may have counted a retry on this handle (a transfer that it retried,
    // that failed or was aborted); reset it before the next request.
    bool needs_reset = false;
    // --cancel-rate: the request in flight is closed once it has read this many output chunks
    // (kNoCancel: never; one compare per write callback), or at cancel_at_ns (-1: never; checked
    // with the read timeouts); `cancelling` once the write callback has stopped the transfer.
    size_t cancel_chunks = kNoCancel;
    int64_t cancel_at_ns = -1;
    bool cancelling = false;
    char error_buffer[CURL_ERROR_SIZE] = {};
  };

  static constexpr size_t kNoCancel = std::numeric_limits<size_t>::max();

  static size_t on_write(char* data, size_t size, size_t count, void* user);
  static size_t on_header(char* data, size_t size, size_t count, void* user);
  static int on_socket(CURL* easy, curl_socket_t fd, int what, void* user, void* socket_data);
  static int on_timer(CURLM* multi, long timeout_ms, void* user);
  static int on_prereq(void* user, char* remote_ip, char* local_ip, int remote_port,
                       int local_port);

  void configure(Slot& slot);  // options and callbacks of the slot's easy handle

  bool may_dispatch() const { return !exhausted_ && !stopping_; }
  bool idle() const { return active_ == 0 && waiting_.empty() && !may_dispatch(); }
  void dispatch(int limit);               // starts at most `limit` requests
  bool start_pending(int64_t now) const;  // a request could be started right now
  bool next_request(int64_t now, int64_t& id, int64_t& planned_ns);
  void arm_schedule_timer();
  void spin_until(int64_t deadline_ns);  // busy-waits; at most kSpinLeadNs in practice
  void start(Slot& slot, int64_t id, int64_t planned_ns);
  void start_turn(Slot& slot, int64_t planned_ns);  // --multi-turn: the slot's session's turn
  void send(Slot& slot, const Prompt& prompt, int64_t planned_ns);
  void submit(Slot& slot);  // hands the configured request to curl
  void resend(Slot& slot);  // once, on a fresh connection (see TransportVerdict::resendable)
  // Adds curl's own retries of the transfer that ended with `code` to the record.
  void count_attempts(Slot& slot, CURLcode code);
  bool continue_session(Slot& slot, int64_t now);  // schedules the next turn; false: it ended
  void start_due_turns(int64_t now);
  void drain_completions();
  void complete(Slot& slot, CURLcode code);
  void abort(Slot& slot, ErrorKind kind, const std::string& message);
  void release(Slot& slot);
  void check_read_timeouts(int64_t now);
  void check_cancel_deadlines(int64_t now);  // --cancel-after SECONDS
  // --cancel-rate: whether the request starting in `slot` is closed on purpose, and when.
  void plan_cancel(Slot& slot, int64_t now);
  std::string cancel_message() const;
  void check_stop(int64_t now);
  void hand_over();  // moves finished_ into the mailbox
  int wait_ms(int64_t now) const;

  WorkerShared& shared_;
  uint32_t index_;
  int epoll_fd_ = -1;
  int timer_fd_ = -1;          // open loop: fires at the next planned send time
  int64_t next_open_id_ = 0;   // open loop: this worker's next request id (round-robin)
  int64_t armed_for_ns_ = -1;  // planned time the timer is armed for; -1: disarmed
  CURLM* multi_ = nullptr;
  std::unique_ptr<Slot[]> slots_;
  int slot_count_ = 0;
  std::vector<Slot*> free_slots_;
  // Since when free_slots_ has held a slot without a break (kNoFreeSlot while it is empty): a send
  // planned before it waited for the in-flight cap, not for the worker.
  static constexpr int64_t kNoFreeSlot = std::numeric_limits<int64_t>::max();
  int64_t slot_free_since_ns_ = 0;
  std::vector<Slot*> waiting_;  // --multi-turn: slots whose session's next turn is not due yet
  int active_ = 0;                  // slots with a request in flight
  int64_t timer_deadline_ns_ = -1;  // curl's requested timeout; -1: none
  int64_t next_housekeeping_ns_ = 0;
  // libcurl < 8.17: a handle whose transfer curl retried must be reset before its next request,
  // or curl's retries of dead reused connections run out over the handle's life
  // (retry_count_per_handle).
  bool retry_count_per_handle_ = false;
  // CURLOPT_MAXAGE_CONN for every request: the default cap, lowered by the shortest Keep-Alive
  // timeout the server has advertised (reuse_max_age_s).
  long max_age_s_ = 0;
  bool exhausted_ = false;               // the shared request counter ran out
  bool stopping_ = false;                // an interrupt was seen: dispatch no more
  int64_t stop_deadline_ns_ = 0;         // in-flight requests are cancelled after this
  std::vector<RequestRecord> finished_;  // records of finished requests, not yet handed over
  std::mutex mailbox_mutex_;
  std::vector<std::vector<RequestRecord>> mailbox_;  // batches handed over, not yet taken
  // See LoadResult::stamp_delay_ns; one sample per loop turn, so only the first kStampDelayExact
  // are kept exactly (a diagnostic: the histogram's 0.006 % is plenty).
  static constexpr size_t kStampDelayExact = 65'536;
  PooledSamples stamp_delay_ns_{kStampDelayExact};
  int64_t spin_ns_ = 0;      // time spent busy-waiting for planned send times
  int64_t end_ns_ = 0;       // when run() finished
  int64_t cpu_ns_ = 0;       // CPU time of this thread in run()
  ThreadSchedule schedule_;  // this thread's preemptions and run-queue wait in run()
};

}  // namespace llmperf

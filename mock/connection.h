// One client connection of llmperf-mock: reads HTTP/1.1 requests one after another, routes them,
// and plays a completion reply on the connection's timer (headers and role chunk at once, content
// chunks at absolute deadlines, every chunk due at a tick batched into a single write). Embeddings
// and rerank requests go through the same slots, timing and faults, answered as one object. In
// scheduler mode the engine loop (engine_loop.h) admits the request and paces its tokens instead
// of the slots and the timer.
#pragma once

#include "asio.h"
#include "http_message.h"
#include "openai_format.h"
#include "pooling_api.h"
#include "reply_writer.h"
#include "server_metrics.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llmperf::mock {

class ServerContext;

// A connection and the reply it is currently sending; kept alive by its pending handlers.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerContext& context, boost::asio::ip::tcp::socket socket);

  // Registers with the context and starts reading.
  void start();
  // A response slot was granted to the request held by --max-active (or the engine admitted
  // it): the reply starts.
  void admit();
  // Scheduler mode: the engine scheduled sequence `id` for the first time; admit() when it is
  // still this connection's current request.
  void on_engine_admitted(std::uint64_t id);
  // Scheduler mode: the engine has generated `generated` tokens of sequence `id` so far; when it
  // is the current request, the chunks they complete are written now.
  void on_engine_tokens(std::uint64_t id, std::int64_t generated);
  // Closes the socket at once, dropping whatever was not sent; `reset` aborts with an RST
  // (SO_LINGER 0) instead of the orderly FIN.
  void close(bool reset = false);
  // The connection holds a request that waits for a response slot.
  bool waiting_for_slot() const { return state_ == State::kWaitingSlot; }

 private:
  // Where the connection is in its request/response cycle.
  enum class State {
    kIdle,         // reading the next request
    kWaitingSlot,  // a completion or pooling request waits for --max-active
    kResponding,   // a reply is being produced
    kStalled,      // an injected stall: silent until the client goes away
    kClosed,       // socket closed
  };
  // What to do when the current write completes.
  enum class AfterWrite {
    kReadBody,  // a "100 Continue" went out; keep reading the body
    kPump,      // a batch of chunks went out; produce the next
    kFinish,    // the reply is complete
    kReset,     // an injected fault: reset the connection
    kTruncate,  // an injected fault: close without the terminating chunk
  };

  void wait_readable();
  void on_readable();
  void process_input();
  void route(const HttpRequest& request);
  void start_completion(Endpoint endpoint, const HttpRequest& request);
  bool engine_refused(std::optional<std::int64_t> max_tokens);
  void submit_to_engine();
  void leave_engine();
  std::int64_t look_up_prefix_cache();
  bool chunk_due(std::int64_t chunk, std::chrono::steady_clock::time_point now) const;
  bool whole_due(std::chrono::steady_clock::time_point now) const;
  std::optional<CompletionRequest> parse_body(Endpoint endpoint, std::string_view body);
  bool pooling() const { return is_pooling(plan_.endpoint); }
  void reply(int status, std::string_view body, std::string_view extra_headers = {},
             std::string_view content_type = "application/json");
  void advance();
  void pump_stream();
  void pump_whole();
  bool pump_whole_fault();
  void append_whole_body(std::string_view extra_text);
  std::string injected_text() const;
  void arm_timer();
  void write(AfterWrite after);
  void on_written(const boost::system::error_code& ec, AfterWrite after);
  void finish_reply();
  void end_request(bool delivered);
  void arm_idle_timer();  // --keep-alive-timeout: the connection waits for a request
  void on_idle_timeout();

  ServerContext& context_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  boost::asio::steady_timer idle_timer_;  // --keep-alive-timeout, armed while idle
  std::string in_;                        // received bytes not consumed by a request yet
  std::string head_;              // response head (or 100 Continue) waiting for the next write
  std::string out_;               // body bytes (SSE events or a whole object) of the next write
  std::array<char, 24> frame_{};  // chunk-size line of the next chunked write
  std::array<boost::asio::const_buffer, 4> write_buffers_;  // buffers of the write in flight
  ResponsePlan plan_;                                       // the reply being produced
  ReplyWriter writer_;                                      // formats plan_'s generated reply
  PoolingRequest pooling_;         // the current embeddings or rerank request
  bool drop_last_vector_ = false;  // --fault-embedding-missing-rate struck the current request
  std::vector<std::int64_t> prompt_ids_;  // prompt ids from parse to admit (prefix cache on)
  MeteredRequest metered_;                // the current completion request's progress in /metrics
  State state_ = State::kIdle;
  bool writing_ = false;            // an async_write is in flight
  bool chunked_ = false;            // the current reply uses chunked transfer encoding
  bool keep_alive_ = true;          // the connection may serve another request after this one
  bool idle_armed_ = false;         // idle_timer_ waits for --keep-alive-timeout
  bool forgotten_ = false;          // --keep-alive-silent: idle too long, the next request is reset
  bool condemned_ = false;          // --close-after-stream-ms: closing soon, reading nothing more
  int requests_ = 0;                // requests received on this connection (--keep-alive-max)
  bool holds_slot_ = false;         // the current reply occupies a --max-active slot
  bool continue_sent_ = false;      // "100 Continue" already answered the current request
  bool fault_fired_ = false;        // the mid-stream fault of the current reply happened
  bool engine_paced_ = false;       // scheduler mode: the engine paces the current reply
  std::int64_t engine_tokens_ = 0;  // scheduler mode: tokens the engine generated for it so far
  std::int64_t next_chunk_ = 0;     // index of the next content chunk to send
  std::chrono::steady_clock::time_point next_due_;  // deadline of chunk next_chunk_ (or body)
};

}  // namespace llmperf::mock

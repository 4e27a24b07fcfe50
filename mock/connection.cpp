// Request routing and reply playback for one llmperf-mock connection. Deadlines are absolute:
// chunk i+1 is due at the deadline of chunk i plus one (jittered) gap, independent of when the
// timer actually fired, so lateness never accumulates; chunks already due are written together.
#include "connection.h"

#include "asio.h"
#include "reply_plan.h"
#include "server_api.h"
#include "server_context.h"
#include "tokenize_api.h"

#include <fmt/format.h>

#include <cmath>
#include <span>

namespace llmperf::mock {
namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

// Upper bound on the events formatted into one write, so zero-delay replies stay bounded in memory.
constexpr std::size_t kMaxWriteBytes = 256 * 1024;
// Buffers larger than this are released after a reply, keeping idle connections small.
constexpr std::size_t kKeepCapacity = 16 * 1024;

std::int64_t to_ns(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// The body of a --fault-garbage-rate reply: what a misconfigured proxy typically sends.
constexpr std::string_view kGarbageBody =
    "<html><head><title>Welcome</title></head><body>It works!</body></html>\n";

// Content bytes that are not UTF-8 (a lone continuation byte, 0xff, a cut 3-byte sequence).
constexpr std::string_view kBadUtf8Text = " bad\x80utf8\xff\xfe\xc3\x28\xe2\x82";

std::int64_t unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void release_if_large(std::string& s) {
  if (s.capacity() > kKeepCapacity) std::string().swap(s);
}

void release_ids_if_large(std::vector<std::int64_t>& ids) {
  if (ids.capacity() * sizeof(std::int64_t) > kKeepCapacity) {
    std::vector<std::int64_t>().swap(ids);
  } else {
    ids.clear();
  }
}

}  // namespace

Connection::Connection(ServerContext& context, asio::ip::tcp::socket socket)
    : context_(context),
      socket_(std::move(socket)),
      timer_(context.io()),
      idle_timer_(context.io()) {}

void Connection::start() {
  context_.add_connection(this);
  boost::system::error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  socket_.non_blocking(true, ignored);
  wait_readable();
  arm_idle_timer();
}

void Connection::close(bool reset) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  end_request(false);
  timer_.cancel();
  idle_timer_.cancel();
  boost::system::error_code ignored;
  if (reset) {
    socket_.set_option(asio::socket_base::linger(true, 0), ignored);
  } else {
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  }
  socket_.close(ignored);
  if (holds_slot_) {
    holds_slot_ = false;
    context_.release_slot();
  }
  leave_engine();
  context_.remove_connection(this);
}

void Connection::wait_readable() {
  socket_.async_wait(asio::ip::tcp::socket::wait_read,
                     [self = shared_from_this()](const boost::system::error_code& ec) {
                       if (!ec) self->on_readable();
                     });
}

void Connection::on_readable() {
  if (state_ == State::kClosed) return;
  const std::span<char> scratch = context_.read_scratch();
  boost::system::error_code ec;
  const std::size_t n = socket_.read_some(asio::buffer(scratch.data(), scratch.size()), ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    wait_readable();
    return;
  }
  if (ec || in_.size() + n > kMaxHeadBytes + kMaxBodyBytes) {
    close();
    return;
  }
  if (forgotten_) {
    close(true);
    return;
  }
  in_.append(scratch.data(), n);
  if (idle_armed_) {
    idle_armed_ = false;
    idle_timer_.cancel();
  }
  wait_readable();
  process_input();
}

void Connection::process_input() {
  if (state_ != State::kIdle || writing_ || condemned_) return;
  const ParseResult parsed = parse_http_request(in_);
  switch (parsed.status) {
    case ParseStatus::kNeedHead:
      return;
    case ParseStatus::kNeedBody:
      if (parsed.request.expect_continue && !continue_sent_) {
        continue_sent_ = true;
        head_ = "HTTP/1.1 100 Continue\r\nServer: llmperf-mock\r\n\r\n";
        write(AfterWrite::kReadBody);
      }
      return;
    case ParseStatus::kError:
      keep_alive_ = false;
      in_.clear();
      reply(parsed.error_status,
            error_body(parsed.error_message, "invalid_request_error", parsed.error_status));
      return;
    case ParseStatus::kComplete:
      break;
  }
  continue_sent_ = false;
  ++requests_;
  const int max_requests = context_.options().keep_alive_max;
  keep_alive_ = parsed.request.keep_alive && !context_.options().connection_close &&
                (max_requests == 0 || requests_ < max_requests);
  route(parsed.request);
  in_.erase(0, parsed.request.size);
}

void Connection::route(const HttpRequest& request) {
  const std::string_view path = request.path;
  const bool post = request.method == "POST";
  if (post) {
    if (auto answer = answer_tokenize_api(context_.options().tokenize_api, path, request.body,
                                          context_.options().max_model_len)) {
      reply(answer->status, answer->body, {}, answer->content_type);
      return;
    }
  }
  if (auto answer = answer_server_api(context_, request)) {
    reply(answer->status, answer->body, {}, answer->content_type);
    return;
  }
  const std::optional<Endpoint> endpoint = endpoint_of(path);
  if (endpoint && post) {
    start_completion(*endpoint, request);
  } else if (endpoint) {
    reply(405, error_body(fmt::format("method {} not allowed on {}", request.method, path),
                          "invalid_request_error", 405));
  } else {
    reply(404,
          error_body(fmt::format("no route for {} {}", request.method, path), "not_found", 404));
  }
}

void Connection::start_completion(Endpoint endpoint, const HttpRequest& request) {
  const Clock::time_point received = Clock::now();
  std::optional<CompletionRequest> req = parse_body(endpoint, request.body);
  if (!req) return;
  const MockOptions& options = context_.options();
  plan_ = plan_reply(endpoint, *req, options);
  plan_.seq = context_.next_seq();
  plan_.created_s = unix_seconds();
  plan_.fault = context_.draw_fault();
  drop_last_vector_ = endpoint == Endpoint::kEmbeddings && plan_.fault == Fault::kNone &&
                      context_.draw_chance(options.fault_embedding_missing_rate);
  const std::int64_t received_ns = to_ns(received);
  context_.event_log().record_received(plan_.seq, received_ns);
  if (options.verbose) {
    fmt::print(stderr, "llmperf-mock: #{} {} {} stream={} prompt_tokens={} tokens={} fault={}\n",
               plan_.seq, request.method, request.path, plan_.stream, plan_.prompt_tokens,
               plan_.completion_tokens, fault_name(plan_.fault));
  }

  if (plan_.fault == Fault::kHttpError) {
    const int status = options.fault_http_status;
    reply(status, error_body("injected error", "server_error", status));
    return;
  }
  if (plan_.fault == Fault::kTooMany) {
    reply(429, error_body("injected rate limit", "rate_limit_exceeded", 429), "Retry-After: 1\r\n");
    return;
  }
  if (plan_.fault == Fault::kGarbage) {
    reply(200, kGarbageBody, {}, "text/html");
    return;
  }
  if (context_.engine() && engine_refused(req->max_tokens)) return;
  context_.metrics().on_arrival(metered_, received_ns, plan_.prompt_tokens);
  prompt_ids_ = std::move(req->prompt_ids);
  state_ = State::kWaitingSlot;
  if (context_.engine()) {
    submit_to_engine();
    return;
  }
  if (context_.acquire_slot(shared_from_this())) admit();
}

// Looks the prompt up in the prefix cache and fills it (cache on, generated replies only); returns
// its cached tokens, which plan_ reports in usage.
std::int64_t Connection::look_up_prefix_cache() {
  if (!context_.prefix_cache_on() || pooling()) return 0;
  const std::int64_t cached_tokens = context_.prefix_cache().lookup_and_insert(prompt_ids_);
  context_.metrics().on_prefix_cache_lookup(plan_.prompt_tokens, cached_tokens);
  plan_.cached_tokens = cached_tokens;
  release_ids_if_large(prompt_ids_);
  return cached_tokens;
}

// Parses the body of a request on `endpoint`; after replying 400 when it is malformed, nullopt.
// A pooling request is kept in pooling_ and stands as a prompt without generated tokens.
std::optional<CompletionRequest> Connection::parse_body(Endpoint endpoint, std::string_view body) {
  const MockOptions& options = context_.options();
  if (is_pooling(endpoint)) {
    PoolingParse parsed = parse_pooling_request(endpoint, body, options.embedding_dim);
    if (const auto* problem = std::get_if<std::string>(&parsed)) {
      reply(400, error_body(*problem, "invalid_request_error", 400));
      return std::nullopt;
    }
    pooling_ = std::move(std::get<PoolingRequest>(parsed));
    CompletionRequest req;
    req.prompt_tokens = pooling_.prompt_tokens;
    return req;
  }
  const PromptIds ids = context_.prefix_cache_on() ? PromptIds::kKeep : PromptIds::kCount;
  CompletionParse parsed = parse_completion_request(endpoint, body, ids, options.image_tokens);
  if (const auto* problem = std::get_if<std::string>(&parsed)) {
    reply(400, error_body(*problem, "invalid_request_error", 400));
    return std::nullopt;
  }
  return std::move(std::get<CompletionRequest>(parsed));
}

void Connection::admit() {
  if (state_ != State::kWaitingSlot) {
    if (!engine_paced_) context_.release_slot();
    return;
  }
  holds_slot_ = !engine_paced_;
  state_ = State::kResponding;
  fault_fired_ = false;
  next_chunk_ = 0;
  const Clock::time_point now = Clock::now();
  context_.metrics().on_start(metered_, to_ns(now));
  if (!engine_paced_) {
    // The prefix cache is consulted and filled when the request starts, as vLLM's scheduler
    // caches a request's full blocks when it schedules them; the prefill costs its uncached
    // tokens.
    const std::int64_t cached_tokens = look_up_prefix_cache();
    next_due_ =
        now + context_.ttft_delay() + context_.prefill_delay(plan_.prompt_tokens - cached_tokens);
  }
  writer_.begin(plan_, context_.vocabulary(), context_.model_escaped());
  if (!plan_.stream) {
    if (!engine_paced_) {
      for (std::int64_t i = 1; i < plan_.chunk_count; ++i) next_due_ += context_.itl_delay();
    }
    pump_whole();
    return;
  }
  chunked_ = true;
  ResponseHead head;
  head.content_type = "text/event-stream";
  head.framing = BodyFraming::kChunked;
  head.keep_alive = keep_alive_;
  head.keep_alive_params = context_.keep_alive_params();
  head.event_stream = true;
  append_response_head(head_, head);
  writer_.append_open(out_);
  pump_stream();
}

void Connection::advance() {
  if (plan_.stream) {
    pump_stream();
  } else {
    pump_whole();
  }
}

void Connection::pump_stream() {
  if (writing_ || state_ != State::kResponding) return;
  const Clock::time_point now = Clock::now();
  const std::int64_t first_chunk = next_chunk_;
  const std::int64_t fault_chunk = plan_.chunk_count / 2;
  bool finished = false;
  std::string injected;  // a fault's text, sent before the chunk it strikes
  while (next_chunk_ < plan_.chunk_count && chunk_due(next_chunk_, now) &&
         out_.size() < kMaxWriteBytes) {
    if (next_chunk_ == fault_chunk && !fault_fired_ && plan_.fault != Fault::kNone &&
        plan_.fault != Fault::kTruncate) {
      if (plan_.fault == Fault::kDrop || plan_.fault == Fault::kStall ||
          plan_.fault == Fault::kReset) {
        if (!head_.empty() || !out_.empty()) break;
        fault_fired_ = true;
        if (plan_.fault == Fault::kStall) {
          state_ = State::kStalled;
        } else {
          close(plan_.fault == Fault::kReset);
        }
        return;
      }
      fault_fired_ = true;
      if (plan_.fault == Fault::kErrorEvent) {
        writer_.append_error(out_);
        finished = true;
        break;
      }
      if (plan_.fault == Fault::kMalformed) {
        append_malformed_events(out_);
      } else {
        injected = injected_text();
      }
    }
    writer_.append_chunk(out_, next_chunk_, injected);
    injected.clear();
    ++next_chunk_;
    if (next_chunk_ < plan_.chunk_count && !engine_paced_) next_due_ += context_.itl_delay();
  }
  if (!finished && next_chunk_ == plan_.chunk_count) {
    writer_.append_close(out_);
    finished = true;
  }
  if (head_.empty() && out_.empty()) {
    if (!engine_paced_) arm_timer();  // the engine's next step calls back instead
    return;
  }
  // The event log and /metrics share one stamp, so TTFT and gaps agree between them exactly.
  const std::int64_t write_ns = to_ns(Clock::now());
  context_.event_log().record_chunks(plan_.seq, first_chunk, next_chunk_ - first_chunk, write_ns);
  context_.metrics().on_emit(metered_, next_chunk_ - first_chunk,
                             tokens_before(plan_, next_chunk_) - tokens_before(plan_, first_chunk),
                             write_ns);
  if (finished && plan_.fault == Fault::kTruncate) {
    write(AfterWrite::kTruncate);
    return;
  }
  write(finished ? AfterWrite::kFinish : AfterWrite::kPump);
}

void Connection::pump_whole() {
  if (writing_ || state_ != State::kResponding) return;
  if (!whole_due(Clock::now())) {
    if (!engine_paced_) arm_timer();
    return;
  }
  if (pump_whole_fault()) return;
  append_whole_body(injected_text());
  ResponseHead head;
  head.content_type = "application/json";
  head.content_length = out_.size();
  head.keep_alive = keep_alive_;
  head.keep_alive_params = context_.keep_alive_params();
  append_response_head(head_, head);
  next_chunk_ = plan_.chunk_count;
  const std::int64_t write_ns = to_ns(Clock::now());
  context_.event_log().record_chunks(plan_.seq, 0, 1, write_ns);
  context_.metrics().on_emit(metered_, 1, plan_.completion_tokens, write_ns);
  write(AfterWrite::kFinish);
}

// The non-stream form of the faults that change a whole reply; true when it took over.
bool Connection::pump_whole_fault() {
  switch (plan_.fault) {
    case Fault::kDrop:
      close();
      return true;
    case Fault::kStall:
      state_ = State::kStalled;
      return true;
    case Fault::kErrorEvent:
      reply(200, error_body("injected stream error", "server_error", 500));
      return true;
    case Fault::kMalformed:
    case Fault::kReset:
    case Fault::kTruncate:
      break;
    default:
      return false;
  }
  // Half of the real object: cut JSON (malformed), or a body that never completes.
  append_whole_body({});
  ResponseHead head;
  head.content_type = "application/json";
  head.content_length = plan_.fault == Fault::kMalformed ? out_.size() / 2 : out_.size();
  head.framing =
      plan_.fault == Fault::kTruncate ? BodyFraming::kChunked : BodyFraming::kContentLength;
  head.keep_alive = keep_alive_;
  head.keep_alive_params = context_.keep_alive_params();
  append_response_head(head_, head);
  out_.resize(out_.size() / 2);
  chunked_ = plan_.fault == Fault::kTruncate;
  switch (plan_.fault) {
    case Fault::kReset:
      write(AfterWrite::kReset);
      break;
    case Fault::kTruncate:
      write(AfterWrite::kTruncate);
      break;
    default:
      write(AfterWrite::kFinish);
      break;
  }
  return true;
}

// Text that --fault-huge-line-rate / --fault-bad-utf8-rate add to the content; empty otherwise.
std::string Connection::injected_text() const {
  if (plan_.fault == Fault::kHugeLine) {
    return std::string(static_cast<std::size_t>(context_.options().huge_line_bytes), 'x');
  }
  if (plan_.fault == Fault::kBadUtf8) return std::string(kBadUtf8Text);
  return {};
}

// The non-stream body: the generated reply with `extra_text` ending its text, or the pooling
// reply (which has no text to add to).
void Connection::append_whole_body(std::string_view extra_text) {
  if (pooling()) {
    append_pooling_body(out_, pooling_, {plan_.seq, context_.model_escaped(), drop_last_vector_});
  } else {
    writer_.append_body(out_, extra_text);
  }
}

// The completion request ends for /metrics: with its finish_reason when `delivered` (its last
// write went out) and every content chunk was written, as an abort otherwise.
void Connection::end_request(bool delivered) {
  FinishReason reason = FinishReason::kAbort;
  if (delivered && next_chunk_ == plan_.chunk_count) {
    reason = plan_.finish_stop ? FinishReason::kStop : FinishReason::kLength;
  }
  context_.metrics().on_finish(metered_, reason, to_ns(Clock::now()));
}

void Connection::arm_timer() {
  timer_.expires_at(next_due_);
  timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->advance();
  });
}

void Connection::reply(int status, std::string_view body, std::string_view extra_headers,
                       std::string_view content_type) {
  state_ = State::kResponding;
  ResponseHead head;
  head.status = status;
  head.content_type = body.empty() ? std::string_view() : content_type;
  head.content_length = body.size();
  head.keep_alive = keep_alive_;
  head.keep_alive_params = context_.keep_alive_params();
  head.extra_headers = extra_headers;
  append_response_head(head_, head);
  out_.assign(body);
  write(AfterWrite::kFinish);
}

void Connection::write(AfterWrite after) {
  std::size_t n = 0;
  if (!head_.empty()) write_buffers_[n++] = asio::buffer(head_);
  // A truncated body keeps the framing of a middle chunk: the terminating chunk never comes.
  const bool last = after == AfterWrite::kFinish || after == AfterWrite::kReset;
  if (!chunked_) {
    if (!out_.empty()) write_buffers_[n++] = asio::buffer(out_);
  } else if (!out_.empty()) {
    const auto size_line = fmt::format_to_n(frame_.data(), frame_.size(), "{:x}\r\n", out_.size());
    write_buffers_[n++] = asio::buffer(frame_.data(), size_line.size);
    write_buffers_[n++] = asio::buffer(out_);
    write_buffers_[n++] = last ? asio::buffer("\r\n0\r\n\r\n", 7) : asio::buffer("\r\n", 2);
  } else if (last) {
    write_buffers_[n++] = asio::buffer("0\r\n\r\n", 5);
  }
  writing_ = true;
  asio::async_write(
      socket_, std::span<const asio::const_buffer>(write_buffers_.data(), n),
      [self = shared_from_this(), after](const boost::system::error_code& ec, std::size_t) {
        self->on_written(ec, after);
      });
}

void Connection::on_written(const boost::system::error_code& ec, AfterWrite after) {
  writing_ = false;
  head_.clear();
  out_.clear();
  if (state_ == State::kClosed) return;
  if (ec) {
    close();
    return;
  }
  if (after == AfterWrite::kFinish || after == AfterWrite::kTruncate) end_request(true);
  switch (after) {
    case AfterWrite::kReadBody:
      process_input();
      return;
    case AfterWrite::kPump:
      pump_stream();
      return;
    case AfterWrite::kFinish:
      finish_reply();
      return;
    case AfterWrite::kReset:
      close(true);
      return;
    case AfterWrite::kTruncate:
      close();
      return;
  }
}

void Connection::finish_reply() {
  if (holds_slot_) {
    holds_slot_ = false;
    context_.release_slot();
  }
  leave_engine();
  const bool streamed = chunked_;
  chunked_ = false;
  state_ = State::kIdle;
  release_if_large(out_);
  if (in_.empty()) release_if_large(in_);
  if (!keep_alive_) {
    close();
    return;
  }
  const double close_after_ms = context_.options().close_after_stream_ms;
  if (streamed && close_after_ms >= 0) {
    condemned_ = true;
    idle_timer_.expires_after(std::chrono::microseconds(std::llround(close_after_ms * 1000)));
    idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      // A request that came meanwhile is unread as far as the client can tell: reset.
      if (!ec) self->close(!self->in_.empty());
    });
    return;
  }
  process_input();
  if (state_ == State::kIdle && !writing_ && in_.empty()) arm_idle_timer();
}

void Connection::arm_idle_timer() {
  const int timeout_s = context_.options().keep_alive_timeout_s;
  if (timeout_s <= 0) return;
  idle_armed_ = true;
  idle_timer_.expires_after(std::chrono::seconds(timeout_s));
  idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->on_idle_timeout();
  });
}

// Like cpp-httplib: the connection is closed (FIN) whether or not a request is on its way; one
// that has reached the socket but not been read is reset. --keep-alive-silent only forgets it.
void Connection::on_idle_timeout() {
  if (!idle_armed_ || state_ != State::kIdle || writing_ || !in_.empty()) return;
  idle_armed_ = false;
  const MockOptions& options = context_.options();
  if (options.verbose) {
    fmt::print(stderr, "llmperf-mock: {} a connection idle for {} s\n",
               options.keep_alive_silent ? "forgetting" : "closing", options.keep_alive_timeout_s);
  }
  if (options.keep_alive_silent) {
    forgotten_ = true;
  } else {
    close();
  }
}

}  // namespace llmperf::mock

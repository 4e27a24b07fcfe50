// Response handling: bytes -> RequestRecord (see response_handler.h). The failure rules are
// DESIGN §3 "Failures": transport error, timeout, HTTP status >= 400, an error object or event,
// or a response that ends without any output.
#include "engine/response_handler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "protocol/keep_alive.h"

namespace llmperf {
namespace {

// Buffered bodies (non-stream responses, error bodies) larger than this are cut and flagged.
constexpr size_t kMaxBufferedBody = 64u << 20;

bool iequals_prefix(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

// A short, single-line excerpt of a body for error messages.
std::string excerpt(std::string_view body) {
  std::string out = error_message_from_body(body, 200);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

}  // namespace

void ResponseHandler::start(RequestRecord* record, std::string* answer, const ApiAdapter& api) {
  record_ = record;
  answer_ = answer;
  api_ = &api;
  chunk_.want_content = answer != nullptr;
  sse_.reset();
  chunk_.clear();
  body_.clear();
  event_stream_ = false;
  headers_done_ = false;
  content_type_sse_ = false;
  done_seen_ = false;
  events_ = 0;
  usage_prompt_ = -1;
  usage_completion_ = -1;
  usage_cached_ = -1;
  usage_reasoning_ = -1;
  keep_alive_timeout_s_.reset();
}

void ResponseHandler::on_header_line(std::string_view line, int64_t now_ns) {
  RequestRecord& rec = *record_;
  if (rec.first_byte_ns < 0) rec.first_byte_ns = now_ns;
  rec.end_ns = now_ns;
  if (iequals_prefix(line, "http/")) {
    // A new status line (after a redirect or an interim 1xx response) starts a new header block.
    const size_t space = line.find(' ');
    if (space != std::string_view::npos) {
      int status = 0;
      for (size_t i = space + 1;
           i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i) {
        status = status * 10 + (line[i] - '0');
      }
      rec.http_status = status;
    }
    content_type_sse_ = false;
    headers_done_ = false;
    return;
  }
  if (iequals_prefix(line, "content-type:")) {
    const std::string_view value = trim(line.substr(13));
    content_type_sse_ = iequals_prefix(value, "text/event-stream");
    return;
  }
  if (iequals_prefix(line, "keep-alive:")) {
    keep_alive_timeout_s_ = parse_keep_alive_timeout_s(line.substr(11));
    return;
  }
  if (trim(line).empty() && rec.http_status >= 200) {
    headers_done_ = true;
    // Stream only a successful event-stream; anything else (an error body, or a JSON body from a
    // server that ignored "stream": true) is buffered and judged as a whole at the end.
    event_stream_ = rec.stream && rec.http_status < 300 && content_type_sse_;
  }
}

void ResponseHandler::on_body(const char* data, size_t size, int64_t now_ns) {
  RequestRecord& rec = *record_;
  if (rec.first_byte_ns < 0) rec.first_byte_ns = now_ns;
  rec.end_ns = now_ns;
  if (event_stream_) {
    sse_.feed(data, size, [this, now_ns](const SseEvent& event) { on_event(event, now_ns); });
    return;
  }
  if (body_.size() < kMaxBufferedBody) {
    body_.append(data, std::min(size, kMaxBufferedBody - body_.size()));
  }
}

void ResponseHandler::on_event(const SseEvent& event, int64_t now_ns) {
  RequestRecord& rec = *record_;
  ++events_;
  rec.last_event_ns = now_ns;
  // Non-standard `error: {json}` lines and `event: error` events both report a server error.
  if (event.other_field == "error" || event.event == "error") {
    const std::string_view payload = event.other_field == "error" ? event.other_value : event.data;
    fail(ErrorKind::kStreamError, fmt::format("error event in stream: {}", excerpt(payload)));
    return;
  }
  if (!event.has_data) return;
  if (event.data == "[DONE]") {
    done_seen_ = true;
    return;
  }
  chunk_.want_response_id = rec.response_id.empty();
  api_->decode_event(event.event, event.data, chunk_);
  done_seen_ = done_seen_ || chunk_.completed;  // the Responses API's end
  if (!chunk_.valid_json) {
    ++rec.malformed_events;
    return;
  }
  if (rec.response_id.empty() && !chunk_.response_id.empty()) rec.response_id = chunk_.response_id;
  if (chunk_.has_error) {
    fail(ErrorKind::kStreamError, fmt::format("error in stream: {}", chunk_.error_message));
    return;
  }
  if (chunk_.has_output) {
    // Reasoning models: chunks of reasoning only come before the first answer chunk (TTFAT).
    if (rec.first_answer_ns < 0) {
      if (chunk_.has_answer || !chunk_.has_reasoning) {
        rec.first_answer_ns = now_ns;
        rec.first_answer_chunk = static_cast<int32_t>(rec.chunk_ns.size());
      } else {
        ++rec.reasoning_chunks;
      }
    }
    rec.chunk_ns.push_back(now_ns);
    if (rec.first_content_ns < 0) rec.first_content_ns = now_ns;
    rec.output_chars += chunk_.output_chars;
    if (answer_ != nullptr) answer_->append(chunk_.content);
  }
  if (chunk_.has_usage) {
    if (chunk_.prompt_tokens >= 0) usage_prompt_ = chunk_.prompt_tokens;
    if (chunk_.completion_tokens >= 0) usage_completion_ = chunk_.completion_tokens;
  }
  if (chunk_.cached_tokens >= 0) usage_cached_ = chunk_.cached_tokens;
  if (chunk_.reasoning_tokens >= 0) usage_reasoning_ = chunk_.reasoning_tokens;
  if (!chunk_.finish_reason.empty()) rec.finish_reason = chunk_.finish_reason;
}

void ResponseHandler::fail(ErrorKind kind, std::string message) {
  RequestRecord& rec = *record_;
  if (rec.error != ErrorKind::kNone) return;  // the first failure is the reason
  rec.error = kind;
  rec.error_message = std::move(message);
}

void ResponseHandler::finish(int64_t now_ns, ErrorKind transport_error,
                             std::string_view transport_message) {
  RequestRecord& rec = *record_;
  if (event_stream_) {
    sse_.flush([this, now_ns](const SseEvent& event) { on_event(event, now_ns); });
  }
  if (rec.end_ns < 0) rec.end_ns = now_ns;

  if (rec.http_status >= 400) {
    // The status is the most useful reason even when the transport also failed afterwards.
    rec.error = ErrorKind::kHttp;
    rec.error_message = body_.empty() ? fmt::format("HTTP {}", rec.http_status)
                                      : fmt::format("HTTP {}: {}", rec.http_status, excerpt(body_));
  } else if (transport_error != ErrorKind::kNone) {
    if (rec.error == ErrorKind::kNone || transport_error == ErrorKind::kInterrupted ||
        transport_error == ErrorKind::kCancelled) {
      rec.error = transport_error;
      rec.error_message = std::string(transport_message);
    }
  } else if (rec.error == ErrorKind::kNone) {
    if (event_stream_) {
      finish_stream();
    } else {
      finish_buffered_body();
    }
  }
  fill_tokens();
}

void ResponseHandler::finish_stream() {
  RequestRecord& rec = *record_;
  if (!rec.chunk_ns.empty()) return;
  if (rec.malformed_events > 0) {
    fail(ErrorKind::kBadResponse,
         fmt::format("stream carried {} undecodable events and no output", rec.malformed_events));
  } else if (events_ == 0) {
    fail(ErrorKind::kBadResponse, "stream ended without any SSE event");
  } else {
    fail(ErrorKind::kNoOutput,
         fmt::format("stream of {} events ended without generated output{}", events_,
                     done_seen_ ? "" : fmt::format(" (no {})", api_->stream_end())));
  }
}

void ResponseHandler::finish_buffered_body() {
  RequestRecord& rec = *record_;
  // A stream request answered with a plain JSON body is measured as a non-stream request:
  // there is no first-token time to report.
  rec.stream = false;
  if (rec.http_status == 0) {
    fail(ErrorKind::kBadResponse, "no HTTP response received");
    return;
  }
  if (body_.size() >= kMaxBufferedBody) {
    fail(ErrorKind::kBadResponse, "response body larger than 64 MiB");
    return;
  }
  chunk_.want_response_id = true;
  const BodyVerdict verdict = api_->decode_body(body_, rec.items, chunk_);
  if (!chunk_.valid_json) {
    fail(ErrorKind::kBadResponse,
         fmt::format("HTTP {} response is not JSON: {}", rec.http_status, excerpt(body_)));
    return;
  }
  rec.response_id = chunk_.response_id;
  if (chunk_.has_error) {
    fail(ErrorKind::kStreamError, fmt::format("error in response: {}", chunk_.error_message));
    return;
  }
  if (chunk_.has_usage) {
    usage_prompt_ = chunk_.prompt_tokens;
    usage_completion_ = chunk_.completion_tokens;
  }
  usage_cached_ = chunk_.cached_tokens;
  usage_reasoning_ = chunk_.reasoning_tokens;
  rec.finish_reason = chunk_.finish_reason;
  rec.output_chars = chunk_.output_chars;
  if (answer_ != nullptr) *answer_ = chunk_.content;
  if (verdict.error != ErrorKind::kNone) fail(verdict.error, verdict.message);
}

void ResponseHandler::fill_tokens() {
  RequestRecord& rec = *record_;
  if (usage_prompt_ >= 0) {
    rec.input_tokens = usage_prompt_;
    rec.input_source = TokenSource::kUsage;
  }
  rec.cached_tokens = usage_cached_;
  if (usage_completion_ >= 0) {
    rec.output_tokens = usage_completion_;
    rec.output_source = TokenSource::kUsage;
  } else if (rec.stream && !rec.chunk_ns.empty()) {
    rec.output_tokens = static_cast<int64_t>(rec.chunk_ns.size());
    rec.output_source = TokenSource::kChunkCount;
  } else if (rec.output_chars > 0) {
    rec.output_tokens = (rec.output_chars + 3) / 4;
    rec.output_source = TokenSource::kCharCount;
  }
  // Reasoning tokens: the server's count when it gives a positive one (OpenAI reports 0 for
  // models that do not reason, and vLLM none), otherwise the reasoning chunks, estimated.
  if (usage_reasoning_ > 0) {
    rec.reasoning_tokens = usage_reasoning_;
    rec.reasoning_source = TokenSource::kUsage;
  } else if (rec.reasoning_chunks > 0) {
    rec.reasoning_tokens = rec.reasoning_chunks;
    rec.reasoning_source = TokenSource::kChunkCount;
  }
}

}  // namespace llmperf

// Turns the bytes of one HTTP response into a RequestRecord: status line and Content-Type from
// the headers, SSE events through SseParser and the API's adapter (workload/api/), which decodes
// each event or the whole body into a DecodedChunk's facts, and the final verdict (success or a
// failure kind with a readable message). Knows nothing about curl, so it is unit-tested directly.
//
// Hot path: on_body() is called from curl's write callback with the time the bytes were read;
// each event inherits that stamp before any JSON work is done.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/record.h"
#include "core/run_types.h"
#include "protocol/chunk_decoder.h"
#include "protocol/sse_parser.h"
#include "workload/api/api_adapter.h"

namespace llmperf {

class ResponseHandler {
 public:
  // Starts a new response for `record` (which must outlive the response). Keeps buffers' capacity.
  // With `answer`, the answer text received (content, or completion text) is appended to it: the
  // next turn of a conversation carries it. `api` (which must outlive the response) reads the
  // body: chat and completions chunks, the Responses API's typed events, or one embeddings or
  // rerank body whose vectors (scores) must number record->items.
  void start(RequestRecord* record, std::string* answer = nullptr,
             const ApiAdapter& api = api_adapter(ApiKind::kChat));

  // One raw header line as curl delivers it (status line, "Name: value", or the blank line).
  void on_header_line(std::string_view line, int64_t now_ns);

  // Body bytes read at now_ns.
  void on_body(const char* data, size_t size, int64_t now_ns);

  // The transfer ended at now_ns. transport_error is kNone when the transport completed cleanly;
  // otherwise its kind and message describe what the transport saw. Fills the verdict and tokens.
  void finish(int64_t now_ns, ErrorKind transport_error, std::string_view transport_message);

  // The response is being parsed as an SSE stream (as opposed to a buffered JSON body).
  bool event_stream() const { return event_stream_; }

  // The idle timeout the response's `Keep-Alive: timeout=N` header advertised, in seconds.
  std::optional<int64_t> keep_alive_timeout_s() const { return keep_alive_timeout_s_; }

 private:
  void on_event(const SseEvent& event, int64_t now_ns);
  void fail(ErrorKind kind, std::string message);
  void finish_buffered_body();
  void decode(const SseEvent& event);
  void finish_stream();
  void fill_tokens();

  RequestRecord* record_ = nullptr;
  SseParser sse_;
  DecodedChunk chunk_;
  std::string body_;           // buffered body: non-SSE responses and HTTP error bodies
  bool event_stream_ = false;  // decided at the end of the headers
  bool headers_done_ = false;
  bool content_type_sse_ = false;
  bool done_seen_ = false;         // "data: [DONE]" was received
  int64_t events_ = 0;             // SSE events dispatched (any kind)
  int64_t usage_prompt_ = -1;      // last usage.prompt_tokens seen
  int64_t usage_completion_ = -1;  // last usage.completion_tokens seen
  int64_t usage_cached_ = -1;      // last usage.prompt_tokens_details.cached_tokens seen
  int64_t usage_reasoning_ = -1;   // last usage.completion_tokens_details.reasoning_tokens seen
  const ApiAdapter* api_ = nullptr;
  std::string* answer_ = nullptr;                // where the answer text goes (start's `answer`)
  std::optional<int64_t> keep_alive_timeout_s_;  // from a Keep-Alive header, if any
};

}  // namespace llmperf

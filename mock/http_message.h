// Minimal HTTP/1.1 for the mock: an incremental request parser over a connection's input buffer
// and the formatting of response heads. Only Content-Length bodies are accepted.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace llmperf::mock {

// One parsed request; the views point into the buffer that was parsed.
struct HttpRequest {
  std::string_view method;       // e.g. "POST"
  std::string_view path;         // request target without the query string
  std::string_view body;         // Content-Length bytes after the head
  bool keep_alive = true;        // the client allows another request on this connection
  bool expect_continue = false;  // the client sent "Expect: 100-continue"
  std::size_t size = 0;          // bytes of head + body, to consume from the buffer
};

// How far parsing a buffer got.
enum class ParseStatus {
  kNeedHead,  // the head is not complete yet
  kNeedBody,  // the head is complete, the body not yet (request fields are valid)
  kComplete,  // a whole request is available
  kError,     // the request cannot be served; see error_status / error_message
};

// Outcome of parse_http_request.
struct ParseResult {
  ParseStatus status = ParseStatus::kNeedHead;  // how far parsing got
  HttpRequest request;                          // valid for kNeedBody and kComplete
  int error_status = 0;                         // HTTP status to reply with on kError
  std::string_view error_message;               // reason to put in the error body on kError
};

// Largest request head accepted, in bytes.
inline constexpr std::size_t kMaxHeadBytes = 64 * 1024;
// Largest request body accepted, in bytes.
inline constexpr std::size_t kMaxBodyBytes = 64 * 1024 * 1024;

// Parses the request at the start of `buffer`.
ParseResult parse_http_request(std::string_view buffer);

// Framing of a response body.
enum class BodyFraming {
  kContentLength,  // Content-Length: <content_length>
  kChunked,        // Transfer-Encoding: chunked
};

// What goes into a response head besides the status line.
struct ResponseHead {
  int status = 200;                                   // HTTP status code
  std::string_view content_type;                      // Content-Type; empty = none
  BodyFraming framing = BodyFraming::kContentLength;  // how the body is delimited
  std::size_t content_length = 0;                     // body size for kContentLength
  bool keep_alive = true;                             // Connection: keep-alive or close
  std::string_view keep_alive_params;  // with keep_alive: "Keep-Alive: <this>"; empty = none
  bool event_stream = false;                          // add Cache-Control: no-cache
  std::string_view extra_headers;                     // complete "Name: value\r\n" lines to add
};

// Appends the status line and headers (always "Server: llmperf-mock"), including the blank line,
// to `out`.
void append_response_head(std::string& out, const ResponseHead& head);

}  // namespace llmperf::mock

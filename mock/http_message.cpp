// Parsing of HTTP/1.1 request heads and formatting of response heads for llmperf-mock.
#include "http_message.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>

namespace llmperf::mock {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool icontains(std::string_view haystack, std::string_view needle) {
  const auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                              [](char x, char y) {
                                return std::tolower(static_cast<unsigned char>(x)) ==
                                       std::tolower(static_cast<unsigned char>(y));
                              });
  return it != haystack.end();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

ParseResult error(int status, std::string_view message) {
  ParseResult result;
  result.status = ParseStatus::kError;
  result.error_status = status;
  result.error_message = message;
  return result;
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return status < 500 ? "Client Error" : "Server Error";
  }
}

}  // namespace

ParseResult parse_http_request(std::string_view buffer) {
  const std::size_t head_end = buffer.find("\r\n\r\n");
  if (head_end == std::string_view::npos) {
    if (buffer.size() > kMaxHeadBytes) return error(431, "request head too large");
    return {};
  }
  std::string_view head = buffer.substr(0, head_end + 2);

  const std::size_t line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  head.remove_prefix(line_end + 2);
  const std::size_t sp1 = request_line.find(' ');
  const std::size_t sp2 = request_line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return error(400, "malformed request line");
  ParseResult result;
  HttpRequest& req = result.request;
  req.method = request_line.substr(0, sp1);
  std::string_view target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = request_line.substr(sp2 + 1);
  if (!version.starts_with("HTTP/1.")) return error(400, "unsupported HTTP version");
  req.path = target.substr(0, target.find('?'));
  req.keep_alive = version != "HTTP/1.0";

  std::size_t content_length = 0;
  while (!head.empty()) {
    const std::size_t eol = head.find("\r\n");
    const std::string_view line = head.substr(0, eol);
    head.remove_prefix(eol + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return error(400, "malformed header line");
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-length")) {
      const auto [ptr, ec] =
          std::from_chars(value.data(), value.data() + value.size(), content_length);
      if (ec != std::errc{} || ptr != value.data() + value.size()) {
        return error(400, "invalid Content-Length");
      }
    } else if (iequals(name, "transfer-encoding")) {
      return error(501, "chunked request bodies are not supported; send Content-Length");
    } else if (iequals(name, "connection")) {
      if (icontains(value, "close")) req.keep_alive = false;
      if (icontains(value, "keep-alive")) req.keep_alive = true;
    } else if (iequals(name, "expect")) {
      req.expect_continue = icontains(value, "100-continue");
    }
  }
  if (content_length > kMaxBodyBytes) return error(413, "request body too large");

  const std::size_t body_start = head_end + 4;
  if (buffer.size() - body_start < content_length) {
    result.status = ParseStatus::kNeedBody;
    return result;
  }
  req.body = buffer.substr(body_start, content_length);
  req.size = body_start + content_length;
  result.status = ParseStatus::kComplete;
  return result;
}

void append_response_head(std::string& out, const ResponseHead& head) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "HTTP/1.1 {} {}\r\n", head.status, reason_phrase(head.status));
  out += "Server: llmperf-mock\r\n";
  if (!head.content_type.empty()) fmt::format_to(it, "Content-Type: {}\r\n", head.content_type);
  if (head.event_stream) out += "Cache-Control: no-cache\r\n";
  if (head.framing == BodyFraming::kChunked) {
    out += "Transfer-Encoding: chunked\r\n";
  } else {
    fmt::format_to(it, "Content-Length: {}\r\n", head.content_length);
  }
  out += head.keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  if (head.keep_alive && !head.keep_alive_params.empty()) {
    fmt::format_to(it, "Keep-Alive: {}\r\n", head.keep_alive_params);
  }
  out += head.extra_headers;
  out += "\r\n";
}

}  // namespace llmperf::mock

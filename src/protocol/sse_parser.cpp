// Line-level rules of the SSE parser: field dispatch, `retry` validation and event assembly.
// The byte-level slicing lives in the header template (sse_parser.h) so callbacks inline.
#include "protocol/sse_parser.h"

#include <limits>

namespace llmperf {

namespace {

// `retry:` is honoured only when it is a non-empty run of ASCII digits (WHATWG); -1 otherwise.
int64_t parse_retry(std::string_view value) {
  if (value.empty()) return -1;
  int64_t result = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return -1;
    const int64_t digit = c - '0';
    if (result > (std::numeric_limits<int64_t>::max() - digit) / 10) return -1;
    result = result * 10 + digit;
  }
  return result;
}

}  // namespace

void SseParser::reset() {
  partial_.clear();
  skip_lf_ = false;
  clear_event();
  retry_ms_ = -1;
  comment_lines_ = 0;
}

bool SseParser::process_line(std::string_view line) {
  if (line.empty()) {
    if (event_pending()) return true;
    clear_event();  // a blank line without data discards `event`/`id` (WHATWG)
    return false;
  }
  if (line.front() == ':') {
    ++comment_lines_;
    return false;
  }
  std::string_view field = line;
  std::string_view value;
  const size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) data_.push_back('\n');
    data_.append(value);
    has_data_ = true;
  } else if (field == "event") {
    event_.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_.assign(value);
  } else if (field == "retry") {
    const int64_t retry = parse_retry(value);
    if (retry >= 0) retry_ms_ = retry;
  } else if (other_field_.empty()) {
    other_field_.assign(field);
    other_value_.assign(value);
  }
  return false;
}

SseEvent SseParser::current_event() const {
  SseEvent event;
  event.event = event_;
  event.data = data_;
  event.id = id_;
  event.other_field = other_field_;
  event.other_value = other_value_;
  event.has_data = has_data_;
  return event;
}

void SseParser::clear_event() {
  data_.clear();
  event_.clear();
  id_.clear();
  other_field_.clear();
  other_value_.clear();
  has_data_ = false;
}

}  // namespace llmperf

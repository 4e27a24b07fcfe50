// Incremental Server-Sent Events parser (WHATWG "event stream" interpretation).
// Knows nothing about OpenAI: it turns arbitrary byte slices into events and produces identical
// events whatever the split points. Handles \n, \r\n and \r line ends (including a \r\n split
// across two slices), multi-line `data:`, `:` comments, `event:`/`id:`/`retry:`, and a final
// event without a trailing blank line (flush()). Non-standard fields (e.g. `error: {...}`) are
// surfaced in SseEvent::other_field/other_value instead of being dropped.
//
// Hot path: complete lines are processed straight from the caller's slice; only a line split
// across slices is copied into partial_. Buffers are reused, so a steady stream allocates nothing.
// Memory is bounded only by std::string growth: a server that never ends a line (or an event)
// grows partial_ (or data_) without limit; the caller's read timeout is the guard for now.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace llmperf {

// One dispatched event. Views are valid only during the callback.
struct SseEvent {
  std::string_view event;        // `event:` value ("" when absent)
  std::string_view data;         // `data:` lines joined with '\n' (no trailing newline)
  std::string_view id;           // `id:` value ("" when absent)
  std::string_view other_field;  // first non-standard field name in the event, e.g. "error"
  std::string_view other_value;  // its value
  bool has_data = false;         // at least one `data` line was seen
};

class SseParser {
 public:
  // Feeds bytes; calls on_event(const SseEvent&) for each event completed by these bytes.
  template <typename OnEvent>
  void feed(const char* bytes, size_t size, OnEvent&& on_event);

  // Ends the stream: dispatches a pending event that had no terminating blank line.
  template <typename OnEvent>
  void flush(OnEvent&& on_event);

  // Forgets all state so the parser can be reused for a new stream.
  void reset();

  int64_t retry_ms() const { return retry_ms_; }  // last `retry:` value, -1 if none
  uint64_t comment_lines() const { return comment_lines_; }

 private:
  // Processes one complete line (without its terminator). Returns true when the line was blank
  // and an event is ready to dispatch.
  bool process_line(std::string_view line);
  bool event_pending() const { return has_data_ || !other_field_.empty(); }
  SseEvent current_event() const;
  void clear_event();

  std::string partial_;         // bytes of an unterminated line carried to the next feed()
  bool skip_lf_ = false;        // previous slice ended in '\r': a leading '\n' belongs to it
  std::string data_;            // `data` lines of the pending event, joined with '\n'
  std::string event_;           // `event` value of the pending event
  std::string id_;              // `id` value of the pending event
  std::string other_field_;     // first non-standard field name of the pending event
  std::string other_value_;     // its value
  bool has_data_ = false;       // the pending event has at least one `data` line
  int64_t retry_ms_ = -1;       // last valid `retry` value, -1 if none
  uint64_t comment_lines_ = 0;  // `:` lines seen since construction or reset()
};

template <typename OnEvent>
void SseParser::feed(const char* bytes, size_t size, OnEvent&& on_event) {
  const char* p = bytes;
  const char* const end = bytes + size;
  if (skip_lf_ && p < end) {
    if (*p == '\n') ++p;
    skip_lf_ = false;
  }
  // Next '\n' and '\r' at or after p (end when none). Each is searched again only once p has
  // passed it, so a slice is scanned a bounded number of times whatever its line-end style.
  const char* next_lf = nullptr;
  const char* next_cr = nullptr;
  while (p < end) {
    if (next_lf == nullptr || next_lf < p) {
      const void* hit = std::memchr(p, '\n', static_cast<size_t>(end - p));
      next_lf = hit != nullptr ? static_cast<const char*>(hit) : end;
    }
    if (next_cr == nullptr || next_cr < p) {
      const void* hit = std::memchr(p, '\r', static_cast<size_t>(next_lf - p));
      // Not found before next_lf: remember next_lf as a lower bound, searched again later.
      next_cr = hit != nullptr ? static_cast<const char*>(hit) : next_lf;
    }
    const char* eol = next_cr < next_lf ? next_cr : next_lf;
    if (eol == end) {
      partial_.append(p, static_cast<size_t>(end - p));
      return;
    }
    const char* next = eol + 1;
    if (*eol == '\r') {
      if (next == end) {
        skip_lf_ = true;
      } else if (*next == '\n') {
        ++next;
      }
    }
    bool ready;
    if (partial_.empty()) {
      ready = process_line(std::string_view(p, static_cast<size_t>(eol - p)));
    } else {
      partial_.append(p, static_cast<size_t>(eol - p));
      ready = process_line(partial_);
      partial_.clear();
    }
    if (ready) {
      on_event(current_event());
      clear_event();
    }
    p = next;
  }
}

template <typename OnEvent>
void SseParser::flush(OnEvent&& on_event) {
  if (!partial_.empty()) {
    process_line(partial_);
    partial_.clear();
  }
  if (event_pending()) on_event(current_event());
  clear_event();
  skip_lf_ = false;
}

}  // namespace llmperf

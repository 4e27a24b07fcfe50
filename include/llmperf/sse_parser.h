// Incremental Server-Sent Events parser (WHATWG "event stream" interpretation).
// Knows nothing about OpenAI: it turns arbitrary byte slices into events and produces identical
// events whatever the split points. Handles \n, \r\n and \r line ends (including a \r\n split
// across two slices), multi-line `data:`, `:` comments, `event:`/`id:`/`retry:`, and a final
// event without a trailing blank line (flush()). Non-standard fields (e.g. `error: {...}`) are
// surfaced in SseEvent::other_field/other_value instead of being dropped.
#pragma once

#include <cstddef>
#include <cstdint>
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

  std::string partial_;      // bytes of an unterminated line carried to the next feed()
  bool skip_lf_ = false;     // previous slice ended in '\r': a leading '\n' belongs to it
  std::string data_;
  std::string event_;
  std::string id_;
  std::string other_field_;
  std::string other_value_;
  bool has_data_ = false;
  int64_t retry_ms_ = -1;
  uint64_t comment_lines_ = 0;
};

}  // namespace llmperf

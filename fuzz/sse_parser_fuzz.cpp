// libFuzzer target: the SSE parser must produce identical events whatever the split points
// (DESIGN §2). The first two input bytes choose two split points in the rest, which is fed whole
// and in three slices; the events (and the flushed tail) must match exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "protocol/sse_parser.h"

namespace {

// An owned copy of an SseEvent, comparable.
struct Event {
  std::string event, data, id, other_field, other_value;
  bool has_data = false;
  bool operator==(const Event&) const = default;
};

std::vector<Event> parse(const std::string& text, const std::vector<size_t>& cuts) {
  llmperf::SseParser parser;
  std::vector<Event> events;
  auto collect = [&events](const llmperf::SseEvent& e) {
    events.push_back({std::string(e.event), std::string(e.data), std::string(e.id),
                      std::string(e.other_field), std::string(e.other_value), e.has_data});
  };
  size_t from = 0;
  for (const size_t cut : cuts) {
    parser.feed(text.data() + from, cut - from, collect);
    from = cut;
  }
  parser.feed(text.data() + from, text.size() - from, collect);
  parser.flush(collect);
  return events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  size_t a = text.empty() ? 0 : data[0] % (text.size() + 1);
  size_t b = text.empty() ? 0 : data[1] % (text.size() + 1);
  if (a > b) std::swap(a, b);
  const std::vector<Event> whole = parse(text, {});
  const std::vector<Event> sliced = parse(text, {a, b});
  if (whole != sliced) std::abort();
  return 0;
}

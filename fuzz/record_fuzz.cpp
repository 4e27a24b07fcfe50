// libFuzzer target: record_from_json, the parser behind `llmperf report` (it reads requests.jsonl
// files that users keep, edit and move around). A line either becomes a record or is refused with
// std::runtime_error, never anything else; and a record it accepts survives record_to_json and
// back unchanged (with the anchor at 0, as record_from_json leaves times; a time before the
// anchor is then negative, which a record can only hold as "never").
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "report/report.h"

namespace {

int64_t when(int64_t t) { return t < 0 ? -1 : t; }

bool same(const llmperf::RequestRecord& a, const llmperf::RequestRecord& b) {
  return a.id == b.id && a.worker == b.worker && a.prompt_index == b.prompt_index &&
         a.stream == b.stream && a.warmup == b.warmup && when(a.planned_ns) == when(b.planned_ns) &&
         when(a.sent_ns) == when(b.sent_ns) && when(a.first_byte_ns) == when(b.first_byte_ns) &&
         when(a.first_content_ns) == when(b.first_content_ns) &&
         when(a.last_event_ns) == when(b.last_event_ns) && when(a.end_ns) == when(b.end_ns) &&
         a.chunk_ns == b.chunk_ns && a.input_tokens == b.input_tokens &&
         a.output_tokens == b.output_tokens && a.input_source == b.input_source &&
         a.output_source == b.output_source && a.output_chars == b.output_chars &&
         a.malformed_events == b.malformed_events && a.http_status == b.http_status &&
         a.error == b.error && a.response_id == b.response_id;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  llmperf::RequestRecord record;
  try {
    record = llmperf::record_from_json(line);
  } catch (const std::runtime_error&) {
    return 0;  // refused with a message: fine
  }
  const llmperf::RunInfo info;  // anchor 0
  const llmperf::RequestRecord again =
      llmperf::record_from_json(llmperf::record_to_json(record, info));
  if (!same(record, again)) std::abort();
  return 0;
}

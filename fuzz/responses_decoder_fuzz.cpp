// libFuzzer target: decode_responses_event never crashes or throws, calls a payload valid exactly
// when nlohmann accepts it as a JSON object, and keeps its facts consistent: output only with a
// positive code-point count, answer text only with answer output and never more code points than
// counted, the same facts whether or not the text is collected. The input's first line is the SSE
// event name and the rest the data; the whole input is also parsed as an SSE stream (whole, and
// split at a point chosen by its first byte) and every event decoded, with equal totals.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "protocol/responses_decoder.h"
#include "protocol/sse_parser.h"

namespace {

int64_t code_points(std::string_view text) {
  int64_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

void check(std::string_view event_name, std::string_view data) {
  llmperf::DecodedChunk with_content;
  with_content.want_content = true;
  llmperf::decode_responses_event(event_name, data, with_content);
  llmperf::DecodedChunk plain;
  llmperf::decode_responses_event(event_name, data, plain);

  bool object = false;
  if (nlohmann::json::accept(data)) object = nlohmann::json::parse(data).is_object();
  if (with_content.valid_json != object) std::abort();
  for (const llmperf::DecodedChunk* c : {&with_content, &plain}) {
    if (c->output_chars < 0) std::abort();
    if (c->has_output != (c->output_chars > 0)) std::abort();
    if (c->has_output != (c->has_answer || c->has_reasoning)) std::abort();
    if (!c->valid_json && (c->has_output || c->has_error || c->has_usage || c->completed)) {
      std::abort();
    }
    if (c->has_error && c->error_message.empty()) std::abort();
  }
  if (!plain.content.empty()) std::abort();
  if (!with_content.content.empty() && !with_content.has_answer) std::abort();
  if (code_points(with_content.content) > with_content.output_chars) std::abort();
  if (with_content.has_output != plain.has_output || with_content.has_answer != plain.has_answer ||
      with_content.has_reasoning != plain.has_reasoning ||
      with_content.output_chars != plain.output_chars ||
      with_content.has_usage != plain.has_usage ||
      with_content.prompt_tokens != plain.prompt_tokens ||
      with_content.completion_tokens != plain.completion_tokens ||
      with_content.completed != plain.completed ||
      with_content.finish_reason != plain.finish_reason ||
      with_content.has_error != plain.has_error ||
      with_content.error_message != plain.error_message ||
      with_content.response_id != plain.response_id) {
    std::abort();
  }
}

// Sum of the decoded events of `text` fed to an SseParser in two slices cut at `cut`.
struct Totals {
  int64_t events = 0, output_chars = 0, errors = 0, completed = 0;
  std::string content;
  bool operator==(const Totals&) const = default;
};

Totals decode_stream(std::string_view text, size_t cut) {
  Totals totals;
  llmperf::DecodedChunk chunk;
  chunk.want_content = true;
  llmperf::SseParser parser;
  auto on_event = [&totals, &chunk](const llmperf::SseEvent& event) {
    llmperf::decode_responses_event(event.event, event.data, chunk);
    ++totals.events;
    totals.output_chars += chunk.output_chars;
    totals.errors += chunk.has_error;
    totals.completed += chunk.completed;
    totals.content += chunk.content;
  };
  parser.feed(text.data(), cut, on_event);
  parser.feed(text.data() + cut, text.size() - cut, on_event);
  parser.flush(on_event);
  return totals;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  if (newline == std::string_view::npos) {
    check("", input);
  } else {
    check(input.substr(0, newline), input.substr(newline + 1));
  }
  const size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  if (!(decode_stream(input, 0) == decode_stream(input, cut))) std::abort();
  return 0;
}

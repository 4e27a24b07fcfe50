// Decodes one OpenAI-compatible JSON payload (a stream chunk, or a whole non-stream response)
// into the few facts llmperf measures. Tolerant by design (DESIGN §5): missing `object`/`role`,
// empty `choices`, usage on the same chunk as finish_reason or on its own, several tokens per
// chunk, empty content strings, and error objects (`{"error": {...}}` or `{"object": "error"}`).
// SAX-style decoding (a fast strict scanner, with nlohmann's sax_parse as the fallback and the
// authority on validity), so no DOM is allocated on the hot path: ~300 ns per chunk.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf {

struct DecodedChunk {
  bool valid_json = false;     // false: the payload was not a JSON object
  bool has_output = false;     // a non-empty content / reasoning_content / text / tool-call delta
  bool has_answer = false;     // ... of which an answer: content / text / tool call (not reasoning)
  bool has_reasoning = false;  // ... of which reasoning: reasoning_content / reasoning (chat), or
                               // the Responses API's reasoning text and summary deltas
  int64_t output_chars = 0;    // Unicode code points of the output text carried by this chunk
  bool has_usage = false;      // a `usage` object with token counts was present
  int64_t prompt_tokens = -1;  // usage.prompt_tokens, -1 when absent
  int64_t completion_tokens = -1;  // usage.completion_tokens, -1 when absent
  bool has_error = false;          // an error object was present
  std::string error_message;       // error.message (or the error string/object text)
  std::string finish_reason;       // choices[0].finish_reason when non-null
  std::string response_id;         // the top-level "id" (e.g. vLLM's "chatcmpl-..."), if any
  int64_t cached_tokens = -1;  // usage.prompt_tokens_details.cached_tokens, -1 when absent
  // usage.completion_tokens_details.reasoning_tokens (Responses API:
  // usage.output_tokens_details.reasoning_tokens), -1 when absent
  int64_t reasoning_tokens = -1;
  // The Responses API's terminal event (response.completed / response.incomplete): the stream's
  // end, as "data: [DONE]" is for chat and completions.
  bool completed = false;
  std::string content;         // with want_content: the answer text this chunk carries (content or
                               // completion text; not reasoning or tool calls)
  // Input, kept by clear(): set false once the caller has the response's id, so that later chunks
  // skip copying it (every chunk of a stream repeats it).
  bool want_response_id = true;
  // Input, kept by clear(): collect the answer text in `content` (--multi-turn, where the next
  // turn carries the answer received). Off: no copy is made.
  bool want_content = false;

  void clear();
};

// Decodes `payload` into `out` (cleared first). Never throws.
void decode_chunk(std::string_view payload, DecodedChunk& out);

// Best-effort human message from an HTTP error body: error.message / message / detail when the
// body is JSON, otherwise a trimmed excerpt of at most `max_chars` bytes (cut at a UTF-8 boundary).
// Also suits the value of a non-standard SSE `error: {...}` line (SseEvent::other_value).
std::string error_message_from_body(std::string_view body, size_t max_chars = 300);

}  // namespace llmperf

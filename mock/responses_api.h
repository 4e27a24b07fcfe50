// The reply shapes of OpenAI's Responses API (POST /v1/responses) in llmperf-mock. A streamed
// reply is named SSE events, `event: TYPE` + `data: {"type":TYPE,"sequence_number":k,...}`, k
// counting from 0 without gaps:
//   response.created, response.in_progress                          (with the headers)
//   response.output_item.added (reasoning, "rs_<seq>")              (with the first reasoning
//   delta) response.reasoning_text.delta                                   (one per reasoning
//   chunk) response.reasoning_text.done, response.output_item.done         (with the last reasoning
//   delta) response.output_item.added (message, "msg_<seq>"), response.content_part.added
//   response.output_text.delta                                      (one per answer chunk)
//   response.output_text.done, response.content_part.done, response.output_item.done
//   response.completed, or response.incomplete when max_output_tokens cut the output
// (the reasoning item only with reasoning tokens, the message only with answer tokens), and no
// `data: [DONE]`. The non-stream reply is the response object of the terminal event.
#pragma once

#include "openai_format.h"
#include "vocabulary.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf::mock {

// Progress of one streamed Responses reply.
struct ResponsesStream {
  std::int64_t sequence = 0;  // sequence_number of the next event
};

// Appends response.created and response.in_progress.
void append_responses_open(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                           const Vocabulary& vocabulary, std::string_view model_escaped);

// Appends the delta of content chunk `chunk`, after the events that open its output item when it
// is the item's first chunk and before those that close the item when it is its last. Non-empty
// `injected` (JSON-safe bytes) is one more delta of the same item, sent before the chunk's.
void append_responses_chunk(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                            const Vocabulary& vocabulary, std::int64_t chunk,
                            std::string_view injected);

// Appends the terminal response.completed (or response.incomplete) event with the usage.
void append_responses_close(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                            const Vocabulary& vocabulary, std::string_view model_escaped);

// Appends an `event: error` for an injected mid-stream failure.
void append_responses_error(std::string& out, ResponsesStream& stream);

// Appends the whole non-stream response object; `extra_text` (JSON-safe) ends the message text.
void append_responses_body(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                           std::string_view model_escaped, std::string_view extra_text = {});

}  // namespace llmperf::mock

// Decodes the OpenAI Responses API (/v1/responses) into the facts DecodedChunk holds, as
// decode_chunk does for chat and completions: one SSE event of a stream ("stream": true), or a
// whole non-stream body. What counts:
//   answer output     response.output_text.delta, response.refusal.delta,
//                     response.function_call_arguments.delta (non-empty "delta")
//   reasoning output  response.reasoning_text.delta, response.reasoning_summary_text.delta,
//                     response.reasoning.delta (older vLLM)
//   id                response.created / in_progress / queued / completed / incomplete / failed
//   end of stream     response.completed (finish_reason "stop") and response.incomplete
//                     (incomplete_details.reason; "max_output_tokens" becomes "length"), with usage
//   error             response.failed (response.error), `error` events, a top-level error object
// Anything else (output_item.added, content_part.*, *.done, unknown types) is valid JSON and
// nothing more: the *.done events repeat text the deltas already carried.
// A non-stream body (no type and no event name) is walked through output[]: message items'
// output_text/refusal parts are answer, reasoning items' content and summary texts are reasoning,
// function_call arguments are answer; status completed/incomplete/failed as for the events.
// Tolerant (DESIGN §5): fields in any order (vLLM sends "type" last), missing fields, numbers as
// floats, the chat names prompt_tokens/completion_tokens beside input_tokens/output_tokens.
// SAX decoding with no DOM (JsonScanner, nlohmann's sax_parse as the fallback and authority).
#pragma once

#include <string_view>

#include "protocol/chunk_decoder.h"

namespace llmperf {

// Decodes one Responses API event into `out` (cleared first; want_response_id and want_content
// are read). `event_name` is the SSE `event:` value ("" for a non-stream body); the data's own
// "type" wins when present. Never throws; valid_json is false unless `data` is a JSON object.
void decode_responses_event(std::string_view event_name, std::string_view data, DecodedChunk& out);

}  // namespace llmperf

// Byte-level formatting of the mock's OpenAI-compatible replies: SSE chunks shaped like vLLM's,
// whole non-stream objects and JSON error bodies. Everything appends to a caller-owned buffer so a
// connection reuses one allocation for a whole response.
#pragma once

#include "openai_request.h"
#include "vocabulary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmperf::mock {

// A failure injected into one completion request.
enum class Fault {
  kNone,        // answer normally
  kHttpError,   // reply with --fault-http-status
  kTooMany,     // reply 429 with Retry-After
  kDrop,        // close the socket after half the content chunks
  kStall,       // stop sending after half the content chunks, keep the connection
  kMalformed,   // insert a garbage line and a broken event halfway
  kErrorEvent,  // send an `error:` line halfway, then [DONE]
  kReset,       // reset the connection (RST) halfway
  kTruncate,    // end a chunked body without its terminating chunk
  kGarbage,     // reply 200 with an HTML page
  kHugeLine,    // add one content chunk of --huge-line-bytes
  kBadUtf8,     // add invalid UTF-8 bytes to the content
};

// Everything fixed when a completion request is accepted; drives every byte of its reply.
struct ResponsePlan {
  std::uint64_t seq = 0;                // request number (from 1), used in ids and the event log
  Endpoint endpoint = Endpoint::kChat;  // which API shape to answer in
  bool stream = false;                  // SSE reply rather than one JSON object
  std::int64_t created_s = 0;           // unix time reported as "created"
  std::int64_t completion_tokens = 0;   // tokens generated, reasoning included
  std::int64_t reasoning_tokens = 0;    // the first of them, sent as reasoning (--reasoning-tokens)
  std::int64_t prompt_tokens = 0;       // tokens of the prompt (tokenizer.h)
  std::int64_t tokens_per_chunk = 1;    // tokens per content chunk
  // content chunks: ceil(reasoning / tokens_per_chunk) + ceil(answer / tokens_per_chunk), so a
  // chunk never mixes reasoning and answer tokens
  std::int64_t chunk_count = 0;
  // chat: the delta/message key of reasoning text ("reasoning_content", or "reasoning")
  std::string_view reasoning_key = "reasoning_content";
  bool reasoning_details = false;  // chat usage: add completion_tokens_details.reasoning_tokens
  bool role_chunk = false;         // stream: role-only chunk with the headers
  bool usage_chunk = false;        // stream: separate usage chunk before [DONE]
  bool usage_on_finish = false;    // stream: usage on the finish_reason chunk
  bool usage_in_body = false;      // non-stream: include usage
  bool finish_stop = false;        // finish_reason "stop" instead of "length"
  bool incomplete = false;         // responses: max_output_tokens cut the output ("length")
  Fault fault = Fault::kNone;      // injected failure
  // usage.prompt_tokens_details.cached_tokens: prompt tokens found in the prefix cache when the
  // request started; unset (usage without details) when --prefix-cache-tokens is 0.
  std::optional<std::int64_t> cached_tokens;
};

// The tokens [first, last) of one content chunk and whether they are reasoning.
struct ChunkTokens {
  std::int64_t first = 0;  // index of its first token in the response
  std::int64_t last = 0;   // one past its last token
  bool reasoning = false;  // reasoning tokens (all of them come before the answer's)
};

// Content chunks that carry reasoning tokens: the first ones.
std::int64_t reasoning_chunks(const ResponsePlan& plan);
// Content chunks of `plan`: reasoning_chunks plus those of the answer.
std::int64_t count_chunks(const ResponsePlan& plan);
// The tokens of content chunk `chunk` (0-based).
ChunkTokens chunk_tokens(const ResponsePlan& plan, std::int64_t chunk);
// Tokens carried by content chunks [0, chunk).
std::int64_t tokens_before(const ResponsePlan& plan, std::int64_t chunk);
// Appends the JSON-escaped text of tokens [first, last).
void append_token_text(std::string& out, const Vocabulary& vocabulary, std::int64_t first,
                       std::int64_t last);

// Appends `data: {"id":...,"model":...,"choices":[` shared by all events of a streamed reply.
void append_event_prefix(std::string& out, const ResponsePlan& plan,
                         std::string_view model_escaped);

// Appends the role-only chat chunk.
void append_role_event(std::string& out, std::string_view prefix);

// Appends content chunk `chunk` (0-based); the last one carries finish_reason.
void append_content_event(std::string& out, std::string_view prefix, const ResponsePlan& plan,
                          const Vocabulary& vocabulary, std::int64_t chunk);

// Appends a content chunk carrying `text` verbatim (JSON-safe bytes, not necessarily UTF-8).
void append_text_event(std::string& out, std::string_view prefix, const ResponsePlan& plan,
                       std::string_view text);

// Appends the usage-only chunk with empty choices.
void append_usage_event(std::string& out, std::string_view prefix, const ResponsePlan& plan);

// Appends `data: [DONE]` and its blank line.
void append_done_event(std::string& out);

// Appends a line that is not SSE and an event whose data is not JSON.
void append_malformed_events(std::string& out);

// Appends a non-standard `error: {...}` line and its blank line.
void append_error_line(std::string& out);

// Appends the whole non-stream chat.completion / text_completion object.
// `extra_text` (JSON-safe bytes) is appended to the generated content verbatim.
void append_full_body(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                      std::string_view model_escaped, std::string_view extra_text = {});

// Returns {"error":{"message":...,"type":...,"code":...}}.
std::string error_body(std::string_view message, std::string_view type, int code);

}  // namespace llmperf::mock

// The raw facts of one request, written by the engine and read by metrics and reports.
// Records are the single source of truth: every statistic is derived from them after the run.
// All times are steady_clock nanoseconds (the same clock for every field); -1 means "never
// happened".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/http_phases.h"

namespace llmperf {

// Why a request failed. kNone means it succeeded. The stable text names (failure_kind_name) are
// what users see in summaries and requests.jsonl; HTTP failures are reported as "http_<status>".
enum class ErrorKind : uint8_t {
  kNone,
  kConnectRefused,   // TCP connection refused (server down, wrong port)
  kConnectTimeout,   // no connection within --connect-timeout
  kResolve,          // host name could not be resolved
  kTimeoutRead,      // no bytes for longer than --read-timeout
  kTimeoutTotal,     // the whole request took longer than --total-timeout
  kHttp,             // HTTP status >= 400 (see http_status)
  kStreamError,      // the server sent an error object or event inside the response
  kStreamTruncated,  // the connection ended before the response was complete
  kBadResponse,      // the body was not the SSE/JSON that was expected
  kNoOutput,         // the response completed without any generated output
  kTransport,        // any other transport failure (TLS, send error, ...)
  kInterrupted,      // interrupted by the user (Ctrl-C) before completing ("interrupted")
  kItemCount,        // embeddings or rerank: not one vector (score) per input (document)
  kNoResponse,       // the connection closed before any byte of a response arrived
  // Closed on purpose by --cancel-rate / --cancel-after, as a user closing a chat would: not a
  // failure; counted apart (RunSummary::cancelled) and kept out of the statistics by default.
  kCancelled,
};

// Where a token count came from.
enum class TokenSource : uint8_t {
  kNone,        // not known
  kUsage,       // the server's `usage` object
  kChunkCount,  // estimated: number of output-carrying stream chunks
  kCharCount,   // estimated: ceil(code points / 4) of the output text (non-stream without usage)
};

// Stable lowercase name of a failure kind: "connect_refused", "timeout_read", "http_429", ...
std::string failure_kind_name(ErrorKind kind, int http_status);
std::string_view token_source_name(TokenSource source);

struct RequestRecord {
  uint64_t id = 0;            // 0-based position in the run's dispatch order (warm-up included)
  uint32_t worker = 0;        // worker thread that ran the request
  uint32_t prompt_index = 0;  // index of the prompt in the dataset's accepted prompts
  bool stream = true;         // true when the request asked for an SSE stream
  bool warmup = false;        // true when excluded from statistics as warm-up
  // Several --url (replicas): the index of the URL the request went to in the run's list of URLs
  // (summary.json's config.urls); -1 with one URL.
  int32_t url_index = -1;

  int64_t planned_ns = -1;        // planned send time (open loop); equals sent_ns in closed loop
  // Open loop: how long the planned send waited for a free slot of its worker (every slot held
  // by an unfinished request: the in-flight cap, --parallel, was reached); 0: a slot was free at
  // the planned time; -1: closed loop, or not recorded. The rest of sent - planned is the
  // client's own lateness.
  int64_t slot_wait_ns = -1;
  int64_t sent_ns = -1;           // t_send: the request was handed to curl
  int64_t first_byte_ns = -1;     // first response byte (header or body) was read: TTFB
  int64_t first_content_ns = -1;  // first output-carrying chunk was read: TTFT
  int64_t last_event_ns = -1;     // last SSE event was read
  int64_t end_ns = -1;            // last byte of the response was read (or the failure was noticed)

  // Read time of every output-carrying chunk, in order (streaming only). ITL is their gaps.
  std::vector<int64_t> chunk_ns;

  // Reasoning models: the first chunk carrying answer output (content, text, a tool call; not
  // reasoning) was read at first_answer_ns (TTFAT), and was chunk_ns[first_answer_chunk]; the
  // chunks before it that carried reasoning only are reasoning_chunks. -1 / 0: none.
  int64_t first_answer_ns = -1;
  int32_t first_answer_chunk = -1;
  int32_t reasoning_chunks = 0;
  // Reasoning tokens among output_tokens (-1: the response carried no reasoning):
  // usage.completion_tokens_details.reasoning_tokens, or the reasoning chunks (estimated).
  int64_t reasoning_tokens = -1;
  TokenSource reasoning_source = TokenSource::kNone;
  // Embeddings: inputs in the request; rerank: documents (0 for the APIs that generate text).
  int32_t items = 0;

  // What the workload asked of this request (-1: it set no target; datasets of text): the tokens
  // the prompt was built to count as usage.prompt_tokens, and the output length sent as max_tokens.
  int64_t target_input_tokens = -1;
  int64_t target_output_tokens = -1;
  int64_t input_chars = 0;  // Unicode code points of the prompt text (all message contents)
  // --dataset shared_prefix: the group whose prefix the prompt starts with (-1: none), and
  // whether this request was the first of the run to use it.
  int32_t prefix_group = -1;
  bool prefix_first_use = false;
  // --multi-turn: the conversation (0-based, in dispatch order, warm-up included) and the turn
  // within it (0-based); -1 for requests that are not part of a conversation.
  int64_t session_id = -1;
  int32_t turn = -1;
  int32_t session_turns = 0;  // the turns its conversation was to have

  int64_t input_tokens = 0;   // prompt tokens (see input_source)
  int64_t output_tokens = 0;  // generated tokens (see output_source)
  // usage.prompt_tokens_details.cached_tokens: prompt tokens the server found in its prefix cache
  // (-1: not reported).
  int64_t cached_tokens = -1;
  TokenSource input_source = TokenSource::kNone;
  TokenSource output_source = TokenSource::kNone;
  int64_t output_chars = 0;      // Unicode code points of generated content (all kinds of delta)
  int32_t malformed_events = 0;  // events whose data was not decodable JSON (tolerated)
  // Times the request was sent again because the reused connection it went out on had been
  // closed by the server before any response byte (curl's own retries and llmperf's one resend on
  // a fresh connection). sent_ns stays the first send.
  int32_t resends = 0;
  // libcurl's timing of the transfer's phases, its connection (new or reused) and HTTP version,
  // read once at the transfer's end (the last send's, when it was resent).
  HttpPhases phases;

  int32_t http_status = 0;  // final HTTP status, 0 if no response was received
  ErrorKind error = ErrorKind::kNone;
  std::string error_message;  // human-readable reason, including a short body excerpt
  std::string finish_reason;  // the server's finish_reason, if any
  std::string response_id;    // the server's id for the response (first "id" seen), if any
  // The answer text received (content, or completion text; not reasoning), kept for
  // vllm_result.json's generated_texts while the run's --keep-text budget lasts; "" otherwise.
  std::string output_text;

  bool ok() const { return error == ErrorKind::kNone; }
};

}  // namespace llmperf

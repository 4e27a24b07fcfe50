// Command-line options of llmperf-mock, the simulated OpenAI-compatible server, and their parser.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "openai_request.h"
#include "tokenize_api.h"

namespace llmperf::mock {

// Where (if at all) token usage is reported in a streamed response.
enum class UsageMode {
  kSeparate,    // a final chunk with empty choices, only when stream_options.include_usage is set
  kWithFinish,  // on the chunk that carries finish_reason, always
  kNone,        // never, not even in non-stream responses
};

// Everything the server can be told on its command line; defaults match `--help`.
struct MockOptions {
  std::string host = "127.0.0.1";     // address to listen on
  std::uint16_t port = 8000;          // TCP port; 0 picks a free one
  std::string model = "mock-model";   // model name echoed in responses and /v1/models
  double ttft_ms = 0;                 // request received (or admitted) -> first content chunk
  double itl_ms = 0;                  // gap between consecutive content chunks
  double ttft_per_active_ms = 0;      // extra TTFT per other response in progress (load model)
  double jitter_ms = 0;               // uniform offset in [-J, +J] added to every delay
  std::uint64_t seed = 1;             // seed of the RNG behind jitter and faults
  int output_tokens = 32;             // tokens generated per response
  bool honour_max_tokens = false;     // use the request's max_tokens when present
  std::int64_t reasoning_tokens = 0;  // chat/responses: the first generated tokens are reasoning
  std::string reasoning_field = "reasoning_content";  // chat: key of the reasoning text
  std::int64_t image_tokens = kDefaultImageTokens;    // prompt tokens per image part
  std::int64_t embedding_dim = 16;              // floats per embedding vector without "dimensions"
  int tokens_per_chunk = 1;                     // tokens concatenated into one content chunk
  bool role_chunk = true;                       // send a role-only chunk together with the headers
  UsageMode usage_mode = UsageMode::kSeparate;  // where usage is reported
  bool connection_close = false;                // close the connection after every response
  // Close a connection idle this long after its last response (or since it was opened), in
  // seconds, as cpp-httplib (llama.cpp) and uvicorn (vLLM) do after 5 s; 0 = never.
  int keep_alive_timeout_s = 0;
  // Responses per connection; the last one carries "Connection: close" (cpp-httplib: 100);
  // 0 = unlimited.
  int keep_alive_max = 0;
  // Advertise the two above in "Keep-Alive: timeout=N, max=M" (cpp-httplib does, uvicorn not).
  bool keep_alive_header = true;
  // At the idle timeout, forget the connection without a FIN, as a load balancer or NAT does:
  // the client cannot tell, and its next request on it is answered with a reset (RST).
  bool keep_alive_silent = false;
  // Close the connection this many ms after each streamed response although the response said
  // "Connection: keep-alive", reading nothing more (a request sent meanwhile is reset), as
  // llama.cpp's server does right after every stream; < 0 = never.
  double close_after_stream_ms = -1;
  int max_active = 0;                 // concurrent responses before new ones wait; 0 = unlimited
  double fault_http_rate = 0;         // probability of an HTTP error reply
  int fault_http_status = 500;        // status of that reply
  double fault_429_rate = 0;          // probability of a 429 reply with Retry-After
  double fault_drop_rate = 0;         // probability of closing the socket mid-stream
  double fault_stall_rate = 0;        // probability of going silent mid-stream
  double fault_malformed_rate = 0;    // probability of a garbage line and a broken event
  double fault_error_event_rate = 0;  // probability of an `error:` line mid-stream
  double fault_reset_rate = 0;        // probability of a TCP reset (RST) mid-reply
  double fault_truncate_rate = 0;     // probability of a chunked body without its last chunk
  double fault_garbage_rate = 0;      // probability of a 200 whose body is HTML, not SSE/JSON
  double fault_huge_line_rate = 0;    // probability of one extra content chunk of huge_line_bytes
  double fault_bad_utf8_rate = 0;     // probability of invalid UTF-8 bytes in the content
  // probability of an embeddings reply with one vector fewer than inputs (own draw, after the
  // other faults spared the request)
  double fault_embedding_missing_rate = 0;
  std::int64_t huge_line_bytes = 4 << 20;  // content bytes of the --fault-huge-line-rate chunk
  TokenizeApi tokenize_api = TokenizeApi::kAll;  // which tokenize API shapes are served
  std::int64_t max_model_len = 32768;  // context length reported by /tokenize and /v1/models
  bool truncate_prompts = false;  // cut prompts of max_model_len tokens or more, as llama.cpp does
  std::int64_t kv_cache_tokens = 65536;  // KV capacity in tokens (/metrics; scheduler mode)
  std::int64_t prefix_cache_tokens = 0;  // prefix-cache capacity in tokens; 0 = no cache
  std::int64_t cache_block_tokens = 16;  // tokens per prefix-cache block
  double prefill_us_per_token = 0;       // TTFT added per prompt token not in the cache, in us
  bool serve_metrics = true;             // answer GET /metrics; false: 404
  bool serve_profiler = true;            // answer POST /start_profile, /stop_profile; false: 404
  // Scheduler mode (engine_config.h), on when either of the first two is given (> 0): a model of
  // vLLM's continuous-batching engine paces every token.
  std::int64_t max_num_seqs = 0;            // sequences running at once; 0 = not given
  std::int64_t max_num_batched_tokens = 0;  // tokens per engine step; 0 = not given
  bool enable_chunked_prefill = true;       // a prompt's prefill may span engine steps
  double step_ms = 5;                       // fixed cost of an engine step, in ms
  double step_us_per_token = 10;            // cost of an engine step per batched token, in us
  // KV-cache tokens that the activations of one batched token take away from --kv-cache-tokens
  // (vLLM sizes its KV cache after a profiling run of a full batch); 0 = none
  double kv_tokens_per_batched_token = 0;
  std::string event_log;  // file receiving the server's event timestamps; empty = off
  bool verbose = false;   // log each request to stderr
};

// Scheduler mode is on: --max-num-seqs or --max-num-batched-tokens was given.
inline bool scheduler_mode(const MockOptions& options) {
  return options.max_num_seqs > 0 || options.max_num_batched_tokens > 0;
}

// Result of parsing argv: options to run with, or an exit code (0 after --help, 2 on bad usage).
using ParseOutcome = std::variant<MockOptions, int>;

// Parses argv; prints help or the reason for a failure itself.
ParseOutcome parse_mock_options(int argc, char** argv);

}  // namespace llmperf::mock

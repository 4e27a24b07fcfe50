// Binds MockOptions to CLI11 flags, documents them for --help and validates their values.
#include "mock_options.h"

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace llmperf::mock {
namespace {

constexpr const char* kDescription =
    "llmperf-mock: a simulated OpenAI-compatible server for llmperf's demo, tests and benchmarks.\n"
    "Endpoints: POST /v1/chat/completions, POST /v1/completions, POST /v1/responses (OpenAI\n"
    "Responses API), POST /v1/embeddings (also /embeddings), POST /v1/rerank (also /rerank,\n"
    "/v2/rerank), GET /v1/models, GET /health,\n"
    "GET /version, GET /metrics (Prometheus, vLLM's names), POST /start_profile and\n"
    "/stop_profile (no-ops, logged), and the tokenize API (POST /tokenize, /detokenize,\n"
    "/apply-template, /chat_tokenize) in the shapes of vLLM, llama.cpp and TGI (--tokenize-api).\n"
    "After listening it prints one line: 'llmperf-mock listening on http://HOST:PORT'.";

constexpr const char* kFooter =
    "Token accounting (the usage object is exact):\n"
    "  completion_tokens = number of tokens generated: --output-tokens, capped by the request's\n"
    "    max_tokens (or max_completion_tokens); exactly max_tokens when the request sets\n"
    "    \"ignore_eos\": true or with --honour-max-tokens. Tokens cycle over a fixed vocabulary "
    "of\n"
    "    ASCII words and multi-byte UTF-8 (e.g. ' hello', ' 你好', ' café').\n"
    "  prompt_tokens = what the mock's tokenizer counts, as its /tokenize API does: runs of ASCII\n"
    "    letters and digits cut into pieces of at most 4 bytes (a space before a word joins its\n"
    "    first piece), every other ASCII byte and every other code point one token, the markers\n"
    "    <s> <|im_start|> <|im_end|> one token each. Chat: BOS + the ChatML text\n"
    "    '<|im_start|>ROLE\\nCONTENT<|im_end|>\\n' per message + '<|im_start|>assistant\\n' (one\n"
    "    user message of C tokens counts C + 11); content may be a string or an array of parts,\n"
    "    whose text parts count as their text does, and each image part (type image_url, or\n"
    "    input_image in /v1/responses; its URL is never fetched) adds --image-tokens (the\n"
    "    tokenize API counts the text only). Responses: 'instructions' is a system message and\n"
    "    'input' a user message (a string) or the messages (an array), counted as chat.\n"
    "    Completions: BOS + the prompt's tokens; a token-id array counts one per id.\n"
    "  Reasoning (--reasoning-tokens R > 0, chat and responses): the first min(R,\n"
    "    completion_tokens) generated tokens are reasoning, sent before the answer (chat:\n"
    "    delta/message key --reasoning-field; responses: a reasoning output item);\n"
    "    completion_tokens counts both, and usage adds completion_tokens_details.reasoning_tokens\n"
    "    (responses: output_tokens_details.reasoning_tokens). A chunk never mixes the two.\n"
    "  Embeddings: prompt_tokens = the tokens of every input, a string's with BOS (as a\n"
    "    completions prompt), a token-id array one per id. Rerank: prompt_tokens = sum over\n"
    "    documents of 1 (BOS) + tokens(query) + tokens(document).\n"
    "Timing: the first content chunk is due --ttft-ms (plus --ttft-per-active-ms per other\n"
    "  response in progress, jittered) plus --prefill-us-per-token per uncached prompt token\n"
    "  after the request is received, or after it is admitted when --max-active held it; later\n"
    "  chunks are due --itl-ms apart (absolute deadlines); reasoning and answer chunks alike.\n"
    "  Non-stream replies are sent after ttft + itl * (chunks - 1); embeddings and rerank\n"
    "  replies (never streamed) after the TTFT, the prefill of all their prompt tokens included\n"
    "  (they bypass the prefix cache).\n"
    "Scheduler mode (--max-num-seqs or --max-num-batched-tokens given), a deterministic model\n"
    "  of vLLM's continuous-batching engine, replaces the timing above. One engine loop runs\n"
    "  steps back to back while there is work. Each step schedules, first come first served, one\n"
    "  decode token for every running sequence past its prefill, then prefill tokens up to the\n"
    "  budget left (--max-num-batched-tokens minus the decodes): prefills split earlier first,\n"
    "  then waiting requests, admitted while fewer than --max-num-seqs run and their reservation\n"
    "  (prompt + completion tokens) fits the KV cache (--kv-cache-tokens minus\n"
    "  --kv-tokens-per-batched-token x the budget); the first that cannot be admitted stops\n"
    "  admission. Without chunked prefill a prompt is admitted only whole, or waits for the next\n"
    "  step. A step takes --step-ms + --step-us-per-token x batched tokens / 1000 ms; requests\n"
    "  arriving during a step wait for the next. A request's headers (and role chunk) go out\n"
    "  when it is admitted, its first token at the end of the step that completes its prefill,\n"
    "  then one per step. Nothing is preempted (the reservation is the final length).\n"
    "  Refused at start-up as vLLM refuses (log lines, then a traceback ending in 'ValueError:\n"
    "  ...' on stderr, exit 1, before listening): --max-num-batched-tokens < --max-model-len\n"
    "  without chunked prefill; --max-num-batched-tokens < --max-num-seqs; no KV cache left; a KV\n"
    "  cache smaller than --max-model-len. Answered 400 (BadRequestError) at once: prompt +\n"
    "  completion (max_tokens, else the tokens the mock would generate) beyond --max-model-len;\n"
    "  without chunked prefill a prompt longer than the budget; a reservation beyond the whole\n"
    "  KV cache. The prefix cache is looked up when a request arrives; cached tokens need no\n"
    "  prefill. /metrics: vllm:num_requests_waiting counts requests not admitted yet. Scheduler\n"
    "  mode ignores --ttft-ms, --itl-ms, --ttft-per-active-ms, --jitter-ms (--seed then drives\n"
    "  only faults), --prefill-us-per-token and --max-active, with a warning.\n"
    "/v1/responses stream: 'event: TYPE' + 'data: {\"type\":TYPE,\"sequence_number\":k,...}',\n"
    "  k = 0, 1, 2...: response.created and response.in_progress with the headers; with\n"
    "  reasoning, response.output_item.added (reasoning), one response.reasoning_text.delta per\n"
    "  chunk, response.reasoning_text.done, response.output_item.done; then\n"
    "  response.output_item.added (message), response.content_part.added, one\n"
    "  response.output_text.delta per chunk, response.output_text.done,\n"
    "  response.content_part.done, response.output_item.done; last response.completed with the\n"
    "  output and usage, or response.incomplete (incomplete_details.reason 'max_output_tokens')\n"
    "  when max_output_tokens was set and the finish_reason would be 'length'. No [DONE].\n"
    "  max_output_tokens acts as chat's max_tokens. Without stream: the response object.\n"
    "Prefix cache (--prefix-cache-tokens > 0), like vLLM's automatic prefix caching: the prompt's\n"
    "  token ids (those counted as prompt_tokens) are cut into full blocks of\n"
    "  --cache-block-tokens B; block i is keyed by a hash of (key of block i-1, its B ids), so a\n"
    "  block matches only when everything before it matches. When a request starts (gets its\n"
    "  slot) its leading cached blocks are counted, cached_tokens = B * that count, at most\n"
    "  prompt_tokens - 1 rounded down to a multiple of B; then all its full blocks are inserted\n"
    "  (or touched), so a request admitted later hits them even while this one is prefilling.\n"
    "  Least recently used blocks are evicted beyond floor(capacity / B) blocks, a prompt's\n"
    "  tail before its head. usage then carries prompt_tokens_details.cached_tokens. Without\n"
    "  the cache every prompt token is uncached.\n"
    "finish_reason is 'stop' when the request's max_tokens exceeded the tokens generated,\n"
    "  'length' otherwise.\n"
    "Faults: one uniform draw per completion request picks at most one fault, checked in the\n"
    "  order http, 429, drop, stall, malformed, error-event, reset, truncate, garbage, huge-line,\n"
    "  bad-utf8; the rates must sum to <= 1. Mid-stream faults strike halfway through the content\n"
    "  chunks; in a /v1/responses stream error-event is 'event: error' with\n"
    "  {\"type\":\"error\",\"code\":\"server_error\",...}, which ends the stream, and huge-line "
    "and\n"
    "  bad-utf8 are one more delta. --fault-embedding-missing-rate is its own draw, made only for\n"
    "  embeddings requests the others spared. Embeddings and rerank: as non-stream replies\n"
    "  (huge-line and bad-utf8 change nothing).\n"
    "  Non-stream replies: drop closes without reply, stall never answers, malformed\n"
    "  sends half the JSON object, error-event a 200 with an error object, reset sends half the\n"
    "  body then RST, truncate half the body chunked without the last chunk, huge-line and\n"
    "  bad-utf8 add their text to the content.\n"
    "Event log lines: 'recv <seq> <ns>' when a request was fully received and\n"
    "  'evt <seq> <index> <ns>' just before the write of content chunk <index> (0 = first) was\n"
    "  started (a non-stream reply logs its body as index 0); ns is steady_clock "
    "(CLOCK_MONOTONIC)\n"
    "  nanoseconds; 'start_profile <ns>' / 'stop_profile <ns>' when the profiler endpoints were\n"
    "  called. The file is written at SIGINT/SIGTERM.\n"
    "/metrics (vLLM's series, labels engine=\"0\" and model_name): vllm:num_requests_running,\n"
    "  vllm:num_requests_waiting (held by --max-active), vllm:kv_cache_usage_perc (prompt +\n"
    "  generated tokens of running requests / --kv-cache-tokens, at most 1),\n"
    "  vllm:prompt_tokens_total (added when a request starts) and vllm:generation_tokens_total\n"
    "  (added as chunks are written): both equal the sums of usage over completed requests;\n"
    "  vllm:request_success_total by finished_reason stop|length|abort (abort: client gone,\n"
    "  injected fault, shutdown), vllm:num_preemptions_total (0),\n"
    "  vllm:prefix_cache_queries_total and vllm:prefix_cache_hits_total (prompt tokens and\n"
    "  cached_tokens of the requests looked up in the prefix cache; 0 without one), and\n"
    "  histograms in vLLM's buckets of what the mock did: vllm:time_to_first_token_seconds\n"
    "  (recv to the first content write, as in the event log), vllm:inter_token_latency_seconds\n"
    "  (one per gap between content chunks), vllm:e2e_request_latency_seconds,\n"
    "  vllm:request_queue_time_seconds.";

// Accepts numbers >= 0 and says so briefly when given anything else.
const CLI::Validator kNonNegative(
    [](std::string& value) -> std::string {
      double number = -1;
      const bool ok = CLI::detail::lexical_cast(value, number) && number >= 0;
      return ok ? std::string() : "must be a number >= 0, got " + value;
    },
    "NONNEGATIVE");

UsageMode usage_mode_from(const std::string& name) {
  if (name == "with-finish") return UsageMode::kWithFinish;
  if (name == "none") return UsageMode::kNone;
  return UsageMode::kSeparate;
}

TokenizeApi tokenize_api_from(const std::string& name) {
  if (name == "vllm") return TokenizeApi::kVllm;
  if (name == "llamacpp") return TokenizeApi::kLlamaCpp;
  if (name == "tgi") return TokenizeApi::kTgi;
  if (name == "none") return TokenizeApi::kNone;
  return TokenizeApi::kAll;
}

// The value forms --enable-chunked-prefill accepts, as vLLM's older string flag did.
std::optional<bool> parse_python_bool(const std::string& text) {
  if (text == "true" || text == "True" || text == "1") return true;
  if (text == "false" || text == "False" || text == "0") return false;
  return std::nullopt;
}

void add_scheduler_options(CLI::App& app, MockOptions& o, std::string& chunked_prefill,
                           bool& no_chunked_prefill) {
  const auto positive = CLI::Range(std::int64_t{1}, std::int64_t{1} << 40);
  app.add_option("--max-num-seqs", o.max_num_seqs,
                 "Scheduler mode: sequences the engine runs at once (default when only "
                 "--max-num-batched-tokens is given: min(256, it)). Giving this or "
                 "--max-num-batched-tokens turns scheduler mode on")
      ->check(positive)
      ->default_str("off");
  app.add_option("--max-num-batched-tokens", o.max_num_batched_tokens,
                 "Scheduler mode: token budget of one engine step, decode + prefill (default when "
                 "only --max-num-seqs is given: 2048 with chunked prefill, max(--max-model-len, "
                 "2048) without). Giving this or --max-num-seqs turns scheduler mode on")
      ->check(positive)
      ->default_str("off");
  auto* enable =
      app.add_option("--enable-chunked-prefill", chunked_prefill,
                     "Scheduler mode: split a prompt's prefill across engine steps: true, false, "
                     "True, False, 1 or 0; alone it means true")
          ->expected(0, 1)
          ->default_str("true");
  app.add_flag("--no-enable-chunked-prefill", no_chunked_prefill,
               "Scheduler mode: admit a prompt only whole, as --enable-chunked-prefill false")
      ->excludes(enable);
  app.add_option("--step-ms", o.step_ms, "Scheduler mode: fixed cost of every engine step, in ms")
      ->check(kNonNegative);
  app.add_option("--step-us-per-token", o.step_us_per_token,
                 "Scheduler mode: cost of an engine step per batched token, in microseconds")
      ->check(kNonNegative);
  app.add_option("--kv-tokens-per-batched-token", o.kv_tokens_per_batched_token,
                 "Scheduler mode: KV-cache tokens that the activations of a full batch take per "
                 "token of --max-num-batched-tokens, as vLLM sizes its KV cache after a "
                 "profiling run (0 = none): a larger budget leaves fewer sequences room")
      ->check(kNonNegative);
}

void add_options(CLI::App& app, MockOptions& o, std::string& usage_mode, std::string& tokenize_api,
                 std::string& chunked_prefill, bool& no_chunked_prefill) {
  app.option_defaults()->always_capture_default();
  app.add_option("--host", o.host, "Address to listen on");
  app.add_option("--port", o.port, "TCP port to listen on (0 picks a free port)");
  app.add_option("--model", o.model, "Model name reported in responses and /v1/models");

  app.add_option("--ttft-ms", o.ttft_ms, "Delay before the first content chunk, in ms")
      ->check(kNonNegative);
  app.add_option("--ttft-per-active-ms", o.ttft_per_active_ms,
                 "Extra TTFT per other response in progress, in ms: latency that rises with load")
      ->check(kNonNegative);
  app.add_option("--itl-ms", o.itl_ms, "Gap between consecutive content chunks, in ms")
      ->check(kNonNegative);
  app.add_option("--jitter-ms", o.jitter_ms,
                 "Uniform random offset in [-J, +J] ms added to every delay (clamped at 0)")
      ->check(kNonNegative);
  app.add_option("--seed", o.seed, "Seed of the RNG behind jitter and fault injection");
  app.add_option("--output-tokens", o.output_tokens, "Tokens generated per response")
      ->check(CLI::Range(1, 100'000'000));
  app.add_flag("--honour-max-tokens,--honor-max-tokens", o.honour_max_tokens,
               "Generate the request's max_tokens (or max_completion_tokens) when present");
  app.add_option("--reasoning-tokens", o.reasoning_tokens,
                 "Chat and responses: the first N generated tokens are reasoning, streamed before "
                 "the answer and counted in usage's reasoning_tokens (0 = off)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{100'000'000}));
  app.add_option("--reasoning-field", o.reasoning_field,
                 "Chat: key of the reasoning text in deltas and messages: reasoning_content (as "
                 "DeepSeek and older vLLM) or reasoning (newer vLLM)")
      ->check(CLI::IsMember({"reasoning_content", "reasoning"}));
  app.add_option("--image-tokens", o.image_tokens,
                 "Prompt tokens each image part of a chat or responses prompt counts")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000}));
  app.add_option("--embedding-dim", o.embedding_dim,
                 "Floats per embedding vector when the request has no \"dimensions\"")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{65536}));
  app.add_option("--tokens-per-chunk", o.tokens_per_chunk,
                 "Tokens concatenated into one content chunk (the last may carry fewer)")
      ->check(CLI::Range(1, 1'000'000));
  app.add_flag("--role-chunk,!--no-role-chunk", o.role_chunk,
               "Send a role-only chat chunk together with the response headers, before the TTFT "
               "delay (default on; --no-role-chunk turns it off)");

  app.add_option("--usage-mode", usage_mode,
                 "Where usage goes: separate (final chunk with empty choices, when the request "
                 "sets stream_options.include_usage), with-finish (on the finish_reason chunk), "
                 "none (never, not even in non-stream replies)")
      ->check(CLI::IsMember({"separate", "with-finish", "none"}));
  app.add_flag("--connection-close", o.connection_close,
               "Send 'Connection: close' and close the connection after every response");
  app.add_option("--keep-alive-timeout", o.keep_alive_timeout_s,
                 "Close a connection that has been idle this many seconds since its last "
                 "response (or since it was opened), as cpp-httplib in llama.cpp and uvicorn in "
                 "vLLM do after 5 s (0 = never)")
      ->check(CLI::Range(0, 86'400));
  app.add_option("--keep-alive-max", o.keep_alive_max,
                 "Requests served per connection; the last response says 'Connection: close' "
                 "(cpp-httplib: 100; 0 = unlimited)")
      ->check(CLI::Range(0, 1'000'000'000));
  app.add_flag("--keep-alive-header,!--no-keep-alive-header", o.keep_alive_header,
               "With --keep-alive-timeout or --keep-alive-max, advertise them in 'Keep-Alive: "
               "timeout=N, max=M' as cpp-httplib does (default on; --no-keep-alive-header stays "
               "silent, as uvicorn does)");
  app.add_flag("--keep-alive-silent", o.keep_alive_silent,
               "At --keep-alive-timeout, forget the connection without closing it, as a load "
               "balancer or NAT does: the next request on it is answered with a reset (RST)");
  app.add_option("--close-after-stream-ms", o.close_after_stream_ms,
                 "Close the connection this many ms after each streamed response although it "
                 "said 'Connection: keep-alive', without reading a request sent meanwhile (it is "
                 "reset), as llama.cpp's server does right after every stream (< 0 = never)");
  app.add_option("--max-active", o.max_active,
                 "Responses in progress before new requests are held without any headers until "
                 "a slot frees (0 = unlimited)")
      ->check(kNonNegative);

  const auto rate = CLI::Range(0.0, 1.0);
  app.add_option("--fault-http-rate", o.fault_http_rate,
                 "Probability of replying with --fault-http-status and a JSON error body")
      ->check(rate);
  app.add_option("--fault-http-status", o.fault_http_status, "Status of injected HTTP errors")
      ->check(CLI::Range(400, 599));
  app.add_option("--fault-429-rate", o.fault_429_rate,
                 "Probability of replying 429 with 'Retry-After: 1' and a JSON error body")
      ->check(rate);
  app.add_option("--fault-drop-rate", o.fault_drop_rate,
                 "Probability of closing the socket abruptly after half the tokens")
      ->check(rate);
  app.add_option("--fault-stall-rate", o.fault_stall_rate,
                 "Probability of going silent after half the tokens, keeping the connection open")
      ->check(rate);
  app.add_option("--fault-malformed-rate", o.fault_malformed_rate,
                 "Probability of inserting 'this is not sse' and 'data: {not json' mid-stream")
      ->check(rate);
  app.add_option("--fault-error-event-rate", o.fault_error_event_rate,
                 "Probability of an 'error: {...}' line mid-stream, followed by [DONE]")
      ->check(rate);

  app.add_option("--fault-reset-rate", o.fault_reset_rate,
                 "Probability of resetting the connection (RST, SO_LINGER 0) halfway")
      ->check(rate);
  app.add_option("--fault-truncate-rate", o.fault_truncate_rate,
                 "Probability of closing a chunked body without its terminating chunk (stream: "
                 "after [DONE]; non-stream: after half the object)")
      ->check(rate);
  app.add_option("--fault-garbage-rate", o.fault_garbage_rate,
                 "Probability of a 200 reply whose body is an HTML page (neither SSE nor JSON)")
      ->check(rate);
  app.add_option("--fault-huge-line-rate", o.fault_huge_line_rate,
                 "Probability of one extra content chunk of --huge-line-bytes on a single line")
      ->check(rate);
  app.add_option("--huge-line-bytes", o.huge_line_bytes, "Content bytes of a huge-line chunk")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app.add_option("--fault-bad-utf8-rate", o.fault_bad_utf8_rate,
                 "Probability of invalid UTF-8 bytes inside the generated content")
      ->check(rate);

  app.add_option("--fault-embedding-missing-rate", o.fault_embedding_missing_rate,
                 "Probability of an embeddings reply (200) with one vector fewer than inputs; "
                 "drawn apart from the other faults, not part of their sum")
      ->check(rate);

  app.add_option("--tokenize-api", tokenize_api,
                 "Tokenize API shapes served: all (each request answered in the shape its fields "
                 "name), vllm, llamacpp, tgi, or none (404, like a hosted API)")
      ->check(CLI::IsMember({"all", "vllm", "llamacpp", "tgi", "none"}));
  app.add_option("--max-model-len", o.max_model_len,
                 "Context length reported as max_model_len by /tokenize (vLLM shape) and "
                 "/v1/models; in scheduler mode also the longest prompt + completion accepted")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_flag("--truncate-prompts", o.truncate_prompts,
               "Cut a prompt of --max-model-len tokens or more as llama.cpp's server does (whole "
               "blocks of half the context dropped from its start until it fits); usage reports "
               "the cut length. Default: prompts are counted whole");
  app.add_option("--kv-cache-tokens", o.kv_cache_tokens,
                 "KV-cache capacity in tokens behind /metrics' vllm:kv_cache_usage_perc; in "
                 "scheduler mode also what running sequences reserve from")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--prefix-cache-tokens", o.prefix_cache_tokens,
                 "Capacity in tokens of an LRU prefix cache of prompt blocks (0 = no cache); "
                 "usage then reports prompt_tokens_details.cached_tokens")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  app.add_option("--cache-block-tokens", o.cache_block_tokens,
                 "Tokens per prefix-cache block: only full blocks are cached")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  app.add_option("--prefill-us-per-token", o.prefill_us_per_token,
                 "Prefill cost added to TTFT per prompt token not found in the prefix cache "
                 "(every prompt token without a cache), in microseconds")
      ->check(kNonNegative);
  add_scheduler_options(app, o, chunked_prefill, no_chunked_prefill);
  app.add_flag("--metrics,!--no-metrics", o.serve_metrics,
               "Serve GET /metrics (default on; --no-metrics answers 404)");
  app.add_flag("--profiler,!--no-profiler", o.serve_profiler,
               "Answer POST /start_profile and /stop_profile (default on; --no-profiler answers "
               "404, like vLLM without VLLM_TORCH_PROFILER_DIR)");

  app.add_option("--event-log", o.event_log,
                 "Write the server's receive/write timestamps to this file at shutdown");
  app.add_flag("--verbose", o.verbose, "Log every request to stderr");
}

}  // namespace

ParseOutcome parse_mock_options(int argc, char** argv) {
  MockOptions options;
  CLI::App app{kDescription, "llmperf-mock"};
  app.footer(kFooter);
  std::string usage_mode = "separate";
  std::string tokenize_api = "all";
  std::string chunked_prefill = "true";
  bool no_chunked_prefill = false;
  add_options(app, options, usage_mode, tokenize_api, chunked_prefill, no_chunked_prefill);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  options.usage_mode = usage_mode_from(usage_mode);
  options.tokenize_api = tokenize_api_from(tokenize_api);
  const std::optional<bool> chunked = parse_python_bool(chunked_prefill);
  if (!chunked) {
    fmt::print(stderr,
               "llmperf-mock: --enable-chunked-prefill takes true, false, True, False, 1 or 0, "
               "got '{}'\n",
               chunked_prefill);
    return 2;
  }
  options.enable_chunked_prefill = *chunked && !no_chunked_prefill;
  const double fault_sum =
      options.fault_http_rate + options.fault_429_rate + options.fault_drop_rate +
      options.fault_stall_rate + options.fault_malformed_rate + options.fault_error_event_rate +
      options.fault_reset_rate + options.fault_truncate_rate + options.fault_garbage_rate +
      options.fault_huge_line_rate + options.fault_bad_utf8_rate;
  if (fault_sum > 1.0 + 1e-9) {
    fmt::print(stderr, "llmperf-mock: the --fault-*-rate values sum to {}, which exceeds 1\n",
               fault_sum);
    return 2;
  }
  return options;
}

}  // namespace llmperf::mock

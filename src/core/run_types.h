// The small types every stage shares with the Config: which API the target speaks, the ramp-up,
// turn-delay and cancel-after rules, one run of a sweep and the flags a benchmark resolves. A
// stage that needs only these includes this header, not core/config.h (the whole Config).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

// Which request/response shape the target speaks (derived from --api and the URL path).
enum class ApiKind : uint8_t {
  kChat,         // /v1/chat/completions: {"messages": [...]}
  kCompletions,  // /v1/completions: {"prompt": "..."}
  kEmbeddings,   // /v1/embeddings: {"input": [...]}, one vector per input, no generation
  kRerank,       // /v1/rerank: {"query", "documents": [...]}, one score per document
  kResponses,    // /v1/responses: OpenAI's Responses API, typed SSE events
};

// Stable lowercase name of an API kind: "chat", "completions", "embeddings", "rerank",
// "responses" (summary.json's "api_kind").
std::string_view api_kind_name(ApiKind kind);
// The inverse of api_kind_name(); chat for names it does not know.
ApiKind api_kind_from_name(std::string_view name);
// True for the APIs that generate text (chat, completions, responses): TTFT, TPOT and output
// tokens mean something for them. Embeddings and rerank score their inputs in one reply.
inline bool generates_text(ApiKind kind) {
  return kind == ApiKind::kChat || kind == ApiKind::kCompletions || kind == ApiKind::kResponses;
}

// vLLM's ramp-up (--ramp-up-strategy, --ramp-up-start-rps, --ramp-up-end-rps): the request rate
// moves from start to end across a run, request by request, so one run crosses the knee of the
// latency curve.
struct RampUp {
  std::string strategy;  // "linear" | "exponential"; "" = off
  double start_rps = 0;
  double end_rps = 0;
  bool on() const { return !strategy.empty(); }
  // The rate of request `index` of `count` (vLLM's formula): progress p = index / (count - 1);
  // linear start + (end - start) p, exponential start (end / start)^p.
  double rate_at(int64_t index, int64_t count) const;
};

// --turn-delay: the think time before each turn after the first of a conversation, drawn per
// turn: fixed ("2", seconds), uniform ("1-3") or exponential with a mean ("exp:2").
struct TurnDelay {
  enum class Kind : uint8_t { kFixed, kUniform, kExponential };
  Kind kind = Kind::kFixed;
  double low_s = 0;   // fixed: the delay; uniform: the lower end; exponential: the mean
  double high_s = 0;  // uniform: the upper end
  bool on() const { return low_s > 0 || high_s > 0; }
  // The delay before turn `turn` of conversation `session` (ns), reproducible from `seed`.
  int64_t draw_ns(uint64_t seed, int64_t session, int64_t turn) const;
  std::string text() const;  // as given: "2 s", "1-3 s", "exp mean 2 s"
};

// --cancel-after: when a request chosen by --cancel-rate is closed: after `seconds` from its
// send, or once `chunks` output-carrying chunks were read ("ttft": 1, "N-tokens": N; a chunk
// usually carries one token). Exactly one of the two is set (>= 0).
struct CancelAfter {
  double seconds = -1;
  int64_t chunks = -1;
  std::string text() const;  // as the flag reads: "2.5 s", "ttft", "20 tokens"
};
// Parses --cancel-after's value; nullopt when it is none of SECONDS, ttft, N-tokens.
std::optional<CancelAfter> parse_cancel_after(std::string_view value);

// What a benchmark resolves before its first run where the flags leave it open
// (plan/run_plan.h's plan_benchmark): the model, which without --model is the one the server
// lists, and for a trace -n (the requests it holds) and --rate (their mean rate). summary.json's
// config block records these values, as the benchmark ran them.
struct ResolvedFlags {
  std::string model;
  std::vector<int64_t> number;
  std::vector<double> rate;
};

// One run of a sweep. With --rate the rates drive the sweep and --parallel caps requests in
// flight; every list pairs by position and a single value applies to every run. Each of those
// runs is repeated for every --input-tokens x --output-tokens pair (inputs outer).
struct RunSpec {
  int parallel = 1;    // concurrency (closed loop) or in-flight cap (open loop)
  int64_t number = 1;  // measured requests
  double rate = -1;    // requests/s; -1: closed loop
  // The grid cell of --input-tokens x --output-tokens: fixed lengths of this run (-1: none).
  int64_t input_tokens = -1;
  int64_t output_tokens = -1;
};

}  // namespace llmperf

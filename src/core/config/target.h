// The target: which server is measured, how llmperf reaches it (URLs, API, TLS, HTTP/2, timeouts)
// and what it checks before the first run (--ready-check-timeout-sec, --probe).
// A section of core/config.h's Config (Config::target); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/run_types.h"

namespace llmperf {

struct TargetConfig {
  // --api: openai (chat, completions, embeddings, rerank or responses by the URL path), or
  // EvalScope's openai_embedding | openai_rerank | openai_responses, which name the API outright.
  std::string api = "openai";
  std::string url = "http://127.0.0.1:8000/v1/chat/completions";  // --url (the first, if several)
  // --url given more than once: every replica's URL, in the order given (urls[0] == url); empty
  // with one --url. Requests are spread over them by --url-policy.
  std::vector<std::string> urls;
  std::string url_policy = "round-robin";  // --url-policy: round-robin | least-inflight
  std::string model;    // --model ("": the one model the server's /v1/models lists)
  std::string api_key;  // --api-key or $OPENAI_API_KEY; secret, never written anywhere
  std::vector<std::pair<std::string, std::string>> headers;  // --headers k=v ...
  bool insecure = false;  // --insecure: skip TLS certificate verification
  std::string cacert;     // --cacert: CA bundle (PEM) to verify the server with; empty = system's
  bool http2 = false;     // --http2: HTTP/2 over TLS (ALPN h2), streams multiplexed
  bool http2_prior_knowledge = false;  // --http2-prior-knowledge: HTTP/2 in clear text (h2c)
  // --max-streams-per-connection: HTTP/2 streams carried at once by one connection; 0: as many
  // as the server allows (its SETTINGS_MAX_CONCURRENT_STREAMS).
  int64_t max_streams_per_connection = 0;
  double ready_timeout_s = 0;  // --ready-check-timeout-sec: wait for /v1/models to answer (0: no)
  bool probe = true;           // --no-probe skips the start-up probe request

  // --- timeouts (seconds; 0 disables) ---
  double connect_timeout_s = 600;  // --connect-timeout
  double read_timeout_s = 600;     // --read-timeout: longest silence between reads
  double total_timeout_s = 21600;  // --total-timeout: whole request

  // Set by resolve_config() (cli/cli.h): from --api, or from the URL path.
  ApiKind api_kind = ApiKind::kChat;
};

}  // namespace llmperf

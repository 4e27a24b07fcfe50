// The server's own tokenizer, through its tokenize API (protocol/tokenize_api.h): which shape the
// server speaks is probed once; then every batch of encode/decode/count calls runs concurrently
// through an HttpPool, and counts and encodings are cached by text. Prompts are counted exactly as
// the server will count the request: chat prompts with the chat template (vLLM's chat form of
// /tokenize, llama.cpp's /apply-template then /tokenize, TGI's /chat_tokenize), completion prompts
// raw with special tokens; a text on its own (count_text) is /tokenize of the plain text with
// special tokens (vLLM's add_special_tokens, llama.cpp's add_special; TGI always adds them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "http/http_pool.h"
#include "server/side_channel.h"
#include "protocol/tokenize_api.h"
#include "workload/tokenizer.h"

namespace llmperf {

struct ServerTokenizerOptions {
  std::string base_url;  // where /tokenize lives: --url without its /v1/... path, or --tokenize-url
  std::string model;     // sent as "model" (vLLM shape)
  bool chat = true;      // prompts go to the chat API: count them with the chat template
  HttpPoolOptions http;  // headers (API key), timeouts, TLS
};

// What probing found.
struct TokenizerProbe {
  std::unique_ptr<Tokenizer> tokenizer;  // null when no tokenize API answered usably
  // Without an exact chat count: the server tokenizes, but its template is not counted (an old
  // SGLang); the caller may add a template overhead calibrated from usage.
  bool template_uncounted = false;
  int64_t max_model_len = 0;  // the context length the /tokenize answer gave (vLLM's); 0: none
  std::vector<std::string> attempts;  // "POST http://.../tokenize (vLLM shape): HTTP 404 ...", ...
};

// Probes `options.base_url` for a tokenize API, vLLM's shape first, then llama.cpp's, then TGI's
// (each told apart by the keys of its answer, not only by its status). Never throws for what the
// server answers; throws std::runtime_error only when curl cannot be set up.
TokenizerProbe probe_server_tokenizer(const ServerTokenizerOptions& options);

// Adds a fixed number of tokens to every count of `inner` (a chat template overhead calibrated
// from usage, for a server that tokenizes but cannot count its template). Not exact.
std::unique_ptr<Tokenizer> with_template_overhead(std::unique_ptr<Tokenizer> inner,
                                                  int64_t overhead, std::string detail);

}  // namespace llmperf

// Decodes the response of a pooling endpoint, embeddings or rerank, into the few facts llmperf
// checks and counts. Shapes read:
//   embeddings  {"data":[{"embedding":[...]}],"usage":{...}} (OpenAI, vLLM, llama.cpp /v1),
//               base64 vectors ("encoding_format":"base64"), llama.cpp's /embedding top-level
//               array of {"index","embedding":[[...]]}, TEI's /embed array of vectors [[...]]
//   rerank      {"results":[{"index","relevance_score"}],"usage":{"total_tokens"}} (vLLM, Jina,
//               Cohere v2, llama.cpp), "data" in place of "results", TEI's top-level array of
//               {"index","score"}
//   errors      {"error":{...}} or {"error":"..."}, {"object":"error","message":...},
//               {"detail":...} (FastAPI)
// Bodies can be megabytes of floats: SAX decoding with no DOM and nothing allocated per number
// (JsonScanner, nlohmann's sax_parse as the fallback and authority on validity).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf {

struct PoolingResponse {
  bool valid_json = false;  // the body was a JSON object or array
  // Embeddings: entries of data[] (or of a top-level array) that hold an "embedding", plus TEI's
  // bare vectors. Rerank: entries of results[] (or data[], or of a top-level array).
  int64_t items = 0;
  int64_t dimension = -1;  // embeddings: length of the first well-formed vector (-1: none)
  // Items that fail their check. Embeddings: a vector that is empty, not an array of numbers (nor
  // of equal-length arrays of numbers, llama.cpp's per-token form), an empty or malformed base64
  // string, or whose length differs from `dimension`. Rerank: no numeric relevance_score / score.
  int64_t bad_items = 0;
  bool has_usage = false;      // usage held prompt_tokens or total_tokens
  int64_t prompt_tokens = -1;  // usage.prompt_tokens; when absent, usage.total_tokens (vLLM's
                               // rerank and Jina give only total_tokens); -1 when neither
  int64_t total_tokens = -1;   // usage.total_tokens, -1 when absent
  bool has_error = false;      // an error object, "object":"error" or a FastAPI "detail"
  std::string error_message;   // its message (or a short excerpt of the body)
  std::string response_id;     // the top-level "id", if any
};

enum class PoolingKind : uint8_t { kEmbeddings, kRerank };

// Decodes `body` into `out` (reset first). Never throws.
void decode_pooling_response(PoolingKind kind, std::string_view body, PoolingResponse& out);

}  // namespace llmperf

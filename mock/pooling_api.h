// llmperf-mock's pooling endpoints, in the shapes of OpenAI and vLLM (Jina/Cohere for rerank):
//   POST /v1/embeddings, /embeddings
//     {"input": string | [string] | [id] | [[id]], "encoding_format": "float", "dimensions": D}
//     -> {"object":"list","data":[{"object":"embedding","index":i,"embedding":[D floats]}...],
//         "model", "usage":{"prompt_tokens":P,"total_tokens":P}}
//     one unit vector per input, a function of the input alone; D = "dimensions", else
//     --embedding-dim; P = the tokens of every input (a string's tokens without BOS, a token-id
//     array its length). "encoding_format":"base64" is refused with a 400.
//   POST /v1/rerank, /rerank, /v2/rerank
//     {"query": string, "documents": [string | {"text": string}], "top_n": N,
//      "return_documents": bool}
//     -> {"id":"rerank-<seq>","model","usage":{"prompt_tokens":P,"total_tokens":P},
//         "results":[{"index":i,"relevance_score":s,"document":{"text":...}}...]}
//     scores in (0, 1), a function of (query, document); results sorted by score, highest first
//     (ties by index), the top_n of them (all when top_n is absent or 0), "document" only with
//     return_documents; P = sum over documents of tokens(query) + tokens(document), tokens
//     without BOS.
// A malformed body is a 400 {"error":{"message","type":"invalid_request_error","code":400}}.
#pragma once

#include "openai_request.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace llmperf::mock {

// What an embeddings or rerank request asks for.
struct PoolingRequest {
  Endpoint endpoint = Endpoint::kEmbeddings;  // kEmbeddings or kRerank
  // embeddings: one key per input (its text, or its token ids written out), which the vector is
  // derived from; rerank: the documents' texts
  std::vector<std::string> inputs;
  std::string query;               // rerank: the query
  std::int64_t dimensions = 0;     // embeddings: floats per vector
  std::int64_t top_n = 0;          // rerank: results returned; 0 = all
  bool return_documents = false;   // rerank: echo each result's document text
  std::int64_t prompt_tokens = 0;  // usage.prompt_tokens (see above)
};

// A parsed request, or the reason for a 400.
using PoolingParse = std::variant<PoolingRequest, std::string>;

// Parses a body received on `endpoint` (kEmbeddings or kRerank); `default_dimensions` is
// --embedding-dim.
PoolingParse parse_pooling_request(Endpoint endpoint, std::string_view body,
                                   std::int64_t default_dimensions);

// How one pooling reply is sent.
struct PoolingReply {
  std::uint64_t seq = 0;           // request number, in the rerank id
  std::string_view model_escaped;  // model name, JSON-escaped
  bool drop_last_vector = false;   // --fault-embedding-missing-rate: one vector fewer than inputs
};

// Appends the reply object to `request`.
void append_pooling_body(std::string& out, const PoolingRequest& request,
                         const PoolingReply& reply);

}  // namespace llmperf::mock

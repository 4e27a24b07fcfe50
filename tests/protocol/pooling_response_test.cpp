// Tests for the pooling response decoder: embeddings bodies (OpenAI/vLLM, base64, llama.cpp's
// /embedding array, TEI's bare vectors), rerank bodies (vLLM, Jina, Cohere, TEI), the checks that
// make an item bad, usage, error shapes and invalid bodies.
#include "protocol/pooling_response.h"

#include <gtest/gtest.h>

#include <string>

namespace llmperf {
namespace {

PoolingResponse embeddings(std::string_view body) {
  PoolingResponse out;
  decode_pooling_response(PoolingKind::kEmbeddings, body, out);
  return out;
}

PoolingResponse rerank(std::string_view body) {
  PoolingResponse out;
  decode_pooling_response(PoolingKind::kRerank, body, out);
  return out;
}

// An OpenAI-style embeddings body: one vector per entry of `dimensions`, of that length.
std::string embeddings_body(const std::vector<int>& dimensions) {
  std::string body = R"({"object":"list","data":[)";
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (i > 0) body += ',';
    body += R"({"object":"embedding","index":)" + std::to_string(i) + R"(,"embedding":[)";
    for (int j = 0; j < dimensions[i]; ++j) {
      if (j > 0) body += ',';
      body += j % 3 == 0 ? "-0.0123456789" : (j % 3 == 1 ? "0.98765e-2" : "1");
    }
    body += "]}";
  }
  body += R"(],"model":"BAAI/bge-m3","usage":{"prompt_tokens":17,"total_tokens":17}})";
  return body;
}

TEST(PoolingEmbeddings, OpenAiBody) {
  const PoolingResponse r = embeddings(embeddings_body({8, 8, 8}));
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 3);
  EXPECT_EQ(r.dimension, 8);
  EXPECT_EQ(r.bad_items, 0);
  EXPECT_TRUE(r.has_usage);
  EXPECT_EQ(r.prompt_tokens, 17);
  EXPECT_EQ(r.total_tokens, 17);
  EXPECT_FALSE(r.has_error);
  EXPECT_TRUE(r.response_id.empty());
}

TEST(PoolingEmbeddings, VllmBodyWithIdAndUsageFirst) {
  const PoolingResponse r = embeddings(
      R"({"usage":{"prompt_tokens":9,"total_tokens":9,"completion_tokens":0},"id":"embd-7f3a",
      "object":"list","created":1755444000,"model":"intfloat/e5-small",
      "data":[{"index":0,"object":"embedding","embedding":[0.5,-1.25e-3,3]}]})");
  EXPECT_EQ(r.items, 1);
  EXPECT_EQ(r.dimension, 3);
  EXPECT_EQ(r.bad_items, 0);
  EXPECT_EQ(r.prompt_tokens, 9);
  EXPECT_EQ(r.response_id, "embd-7f3a");
}

TEST(PoolingEmbeddings, MismatchedDimensionsAreBad) {
  const PoolingResponse r = embeddings(embeddings_body({4, 4, 3, 4, 5}));
  EXPECT_EQ(r.items, 5);
  EXPECT_EQ(r.dimension, 4);
  EXPECT_EQ(r.bad_items, 2);
}

TEST(PoolingEmbeddings, MalformedVectorsAreBad) {
  const PoolingResponse r = embeddings(R"({"data":[
      {"embedding":[1,2]},
      {"embedding":[]},
      {"embedding":[1,"2"]},
      {"embedding":[1,null]},
      {"embedding":[1,{}]},
      {"embedding":null},
      {"embedding":7},
      {"embedding":{"float":[1,2]}},
      {"embedding":[[1,2],3]},
      {"embedding":[1,2]}]})");
  EXPECT_EQ(r.items, 10);
  EXPECT_EQ(r.dimension, 2);
  EXPECT_EQ(r.bad_items, 8);
}

TEST(PoolingEmbeddings, FirstWellFormedVectorSetsTheDimension) {
  const PoolingResponse r = embeddings(R"({"data":[{"embedding":[]},{"embedding":[1,2,3]}]})");
  EXPECT_EQ(r.items, 2);
  EXPECT_EQ(r.dimension, 3);
  EXPECT_EQ(r.bad_items, 1);
}

TEST(PoolingEmbeddings, EntriesWithoutEmbeddingAreNotItems) {
  const PoolingResponse r =
      embeddings(R"({"data":[{"index":0},{"embedding":[1]},"x",3,null],"embedding":[1,2]})");
  EXPECT_EQ(r.items, 1);
  EXPECT_EQ(r.dimension, 1);
  EXPECT_EQ(r.bad_items, 0);
}

TEST(PoolingEmbeddings, EmptyData) {
  const PoolingResponse r = embeddings(R"({"object":"list","data":[],"usage":{"prompt_tokens":0,
      "total_tokens":0}})");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 0);
  EXPECT_EQ(r.dimension, -1);
  EXPECT_EQ(r.bad_items, 0);
  EXPECT_TRUE(r.has_usage);
  EXPECT_EQ(r.prompt_tokens, 0);
}

TEST(PoolingEmbeddings, Base64Vectors) {
  // 16 base64 characters = 12 bytes = 3 float32s; 8 characters = 6 bytes, not whole floats.
  const PoolingResponse r = embeddings(R"({"data":[
      {"embedding":"AACAPwAAAEAAAEBA"},
      {"embedding":"zczMPc3MTD6amZk+"},
      {"embedding":"AACAPwAA"},
      {"embedding":"AACAPw=="},
      {"embedding":""},
      {"embedding":"not base64!"}]})");
  EXPECT_EQ(r.items, 6);
  EXPECT_EQ(r.dimension, 3);
  // "AACAPwAA" has an unknown length (fine); "AACAPw==" is 1 float (differs); "" and "not
  // base64!" are malformed.
  EXPECT_EQ(r.bad_items, 3);
}

TEST(PoolingEmbeddings, LlamaCppEmbeddingArray) {
  // llama.cpp's non-OAI /embedding: a top-level array, one row per pooled vector (or per token).
  const PoolingResponse r = embeddings(R"([
      {"index":0,"embedding":[[0.1,0.2,0.3,0.4]]},
      {"index":1,"embedding":[[0.1,0.2,0.3,0.4],[0.5,0.6,0.7,0.8]]},
      {"index":2,"embedding":[[0.1,0.2,0.3,0.4],[0.5,0.6]]},
      {"index":3,"embedding":[[]]}])");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 4);
  EXPECT_EQ(r.dimension, 4);
  EXPECT_EQ(r.bad_items, 2);
  EXPECT_FALSE(r.has_usage);
}

TEST(PoolingEmbeddings, TeiBareVectors) {
  const PoolingResponse r = embeddings("[[0.1,0.2],[0.3,0.4],[0.5]]");
  EXPECT_EQ(r.items, 3);
  EXPECT_EQ(r.dimension, 2);
  EXPECT_EQ(r.bad_items, 1);
}

TEST(PoolingEmbeddings, LargeBodyIsCountedExactly) {
  const PoolingResponse r = embeddings(embeddings_body(std::vector<int>(64, 1024)));
  EXPECT_EQ(r.items, 64);
  EXPECT_EQ(r.dimension, 1024);
  EXPECT_EQ(r.bad_items, 0);
}

TEST(PoolingEmbeddings, UnicodeEscapeTakesTheFallbackPath) {
  // JsonScanner gives up on \u escapes; nlohmann's parser must give the same facts.
  const PoolingResponse r = embeddings(
      R"({"model":"caf\u00e9","data":[{"embedding":[1,2.5]}],"usage":{"prompt_tokens":3.0}})");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 1);
  EXPECT_EQ(r.dimension, 2);
  EXPECT_EQ(r.prompt_tokens, 3);
}

TEST(PoolingRerank, VllmBody) {
  const PoolingResponse r = rerank(R"({"id":"rerank-5a1c","model":"BAAI/bge-reranker-v2-m3",
      "usage":{"total_tokens":151},"results":[
      {"index":1,"document":{"text":"Paris is the capital of France."},"relevance_score":0.9990234375},
      {"index":0,"document":{"text":"Berlin"},"relevance_score":0.0001}]})");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 2);
  EXPECT_EQ(r.bad_items, 0);
  EXPECT_EQ(r.dimension, -1);
  EXPECT_TRUE(r.has_usage);
  EXPECT_EQ(r.total_tokens, 151);
  EXPECT_EQ(r.prompt_tokens, 151);  // only total_tokens: prompt_tokens follows it
  EXPECT_EQ(r.response_id, "rerank-5a1c");
}

TEST(PoolingRerank, CohereBody) {
  const PoolingResponse r = rerank(R"({"results":[{"index":3,"relevance_score":0.999071},
      {"index":4,"relevance_score":0.7867867},{"index":0,"relevance_score":0.32713068}],
      "id":"07734bd2-2473-4f07-94e1-0d9f0e6843cf","meta":{"api_version":{"version":"2"},
      "billed_units":{"search_units":1}}})");
  EXPECT_EQ(r.items, 3);
  EXPECT_EQ(r.bad_items, 0);
  EXPECT_FALSE(r.has_usage);
  EXPECT_EQ(r.prompt_tokens, -1);
  EXPECT_EQ(r.response_id, "07734bd2-2473-4f07-94e1-0d9f0e6843cf");
}

TEST(PoolingRerank, JinaAndLlamaCppBodies) {
  PoolingResponse r = rerank(R"({"model":"jina-reranker-v2-base-multilingual",
      "usage":{"total_tokens":38,"prompt_tokens":38},"results":[{"index":0,
      "document":{"text":"x"},"relevance_score":0.5}]})");
  EXPECT_EQ(r.items, 1);
  EXPECT_EQ(r.prompt_tokens, 38);
  r = rerank(R"({"model":"bge","object":"list","usage":{"prompt_tokens":20,"total_tokens":20},
      "results":[{"index":0,"relevance_score":-2.75},{"index":1,"relevance_score":3}]})");
  EXPECT_EQ(r.items, 2);
  EXPECT_EQ(r.bad_items, 0);  // negative logits and integers are numbers
  EXPECT_EQ(r.prompt_tokens, 20);
}

TEST(PoolingRerank, DataInPlaceOfResults) {
  const PoolingResponse r = rerank(R"({"data":[{"index":0,"relevance_score":0.1},
      {"index":1,"score":0.2}]})");
  EXPECT_EQ(r.items, 2);
  EXPECT_EQ(r.bad_items, 0);
}

TEST(PoolingRerank, TeiArray) {
  const PoolingResponse r = rerank(R"([{"index":1,"score":0.9983},{"index":0,"score":0.0042}])");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 2);
  EXPECT_EQ(r.bad_items, 0);
}

TEST(PoolingRerank, ResultsWithoutNumericScoreAreBad) {
  const PoolingResponse r = rerank(R"({"results":[{"index":0,"relevance_score":0.5},
      {"index":1},{"index":2,"relevance_score":"0.5"},{"index":3,"relevance_score":null},
      {"index":4,"relevance_score":[0.5]},{"index":5,"score":{"v":1}},7,
      {"relevance_score":0.1,"relevance_score":"x"}]})");
  EXPECT_EQ(r.items, 8);
  EXPECT_EQ(r.bad_items, 7);
}

TEST(PoolingRerank, EmbeddingsKindIgnoresResults) {
  const PoolingResponse r = embeddings(R"({"results":[{"index":0,"relevance_score":0.5}]})");
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 0);
}

TEST(PoolingErrors, Shapes) {
  PoolingResponse r =
      embeddings(R"({"error":{"message":"input too long","type":"invalid_request_error",
      "code":400}})");
  EXPECT_TRUE(r.has_error);
  EXPECT_EQ(r.error_message, "input too long");
  r = rerank(
      R"({"object":"error","message":"model does not support rerank","type":"BadRequestError",
      "param":null,"code":400})");
  EXPECT_TRUE(r.has_error);
  EXPECT_EQ(r.error_message, "model does not support rerank");
  r = embeddings(R"({"detail":"Not Found"})");
  EXPECT_TRUE(r.has_error);
  EXPECT_EQ(r.error_message, "Not Found");
  r = embeddings(
      R"({"detail":[{"loc":["body","input"],"msg":"field required","type":"missing"}]})");
  EXPECT_TRUE(r.has_error);
  EXPECT_NE(r.error_message.find("field required"), std::string::npos) << r.error_message;
  r = rerank(R"({"error":"Input validation error: `inputs` must have less than 512 tokens",
      "error_type":"Validation"})");
  EXPECT_TRUE(r.has_error);
  EXPECT_EQ(r.error_message, "Input validation error: `inputs` must have less than 512 tokens");
  r = embeddings(R"({"error":{"code":503}})");
  EXPECT_TRUE(r.has_error);
  EXPECT_FALSE(r.error_message.empty());
}

TEST(PoolingErrors, NullErrorAndDetailAreNotErrors) {
  const PoolingResponse r =
      embeddings(R"({"error":null,"detail":null,"data":[{"embedding":[1]}]})");
  EXPECT_FALSE(r.has_error);
  EXPECT_EQ(r.items, 1);
}

TEST(PoolingInvalid, NotAJsonObjectOrArray) {
  for (const char* body : {"", "42", "\"text\"", "null", "{", "[1,2", R"({"data":[]} x)",
                           "<html>502 Bad Gateway</html>", "{\"id\":\"\xff\"}"}) {
    for (const PoolingKind kind : {PoolingKind::kEmbeddings, PoolingKind::kRerank}) {
      PoolingResponse r;
      r.items = 99;  // reset by the decoder
      decode_pooling_response(kind, body, r);
      EXPECT_FALSE(r.valid_json) << body;
      EXPECT_EQ(r.items, 0) << body;
      EXPECT_EQ(r.dimension, -1) << body;
      EXPECT_FALSE(r.has_error) << body;
    }
  }
}

TEST(PoolingInvalid, DeepNestingIsTolerated) {
  std::string body = R"({"x":)";
  for (int i = 0; i < 100; ++i) body += "[";
  for (int i = 0; i < 100; ++i) body += "]";
  body += R"(,"data":[{"embedding":[1,2]}]})";
  const PoolingResponse r = embeddings(body);
  EXPECT_TRUE(r.valid_json);
  EXPECT_EQ(r.items, 1);
  EXPECT_EQ(r.dimension, 2);
}

}  // namespace
}  // namespace llmperf

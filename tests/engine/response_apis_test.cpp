// Unit tests of the response handler for reasoning streams, the Responses API and the embeddings
// and rerank replies: raw bytes with chosen read times -> RequestRecord.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/response_handler.h"

namespace llmperf {
namespace {

struct ApiExchange {
  RequestRecord record;
  ResponseHandler handler;

  explicit ApiExchange(ApiKind api = ApiKind::kChat, bool stream = true, int32_t items = 0) {
    record.stream = stream;
    record.sent_ns = 0;
    record.items = items;
    handler.start(&record, nullptr, api_adapter(api));
  }
  void headers(int status, const std::string& content_type, int64_t t = 10) {
    handler.on_header_line("HTTP/1.1 " + std::to_string(status) + " X", t);
    handler.on_header_line("Content-Type: " + content_type, t);
    handler.on_header_line("", t);
  }
  void body(const std::string& bytes, int64_t t) { handler.on_body(bytes.data(), bytes.size(), t); }
  void finish(int64_t t) { handler.finish(t, ErrorKind::kNone, ""); }
};

std::string delta(const std::string& key, const std::string& text) {
  return "data: {\"choices\":[{\"index\":0,\"delta\":{\"" + key + "\":\"" + text + "\"}}]}\n\n";
}

TEST(ReasoningStream, SplitsTheReasoningPhaseFromTheAnswer) {
  ApiExchange x;
  x.headers(200, "text/event-stream");
  x.body(delta("reasoning_content", "Let"), 100);
  x.body(delta("reasoning_content", " me"), 120);
  x.body(delta("reasoning_content", " think"), 150);
  x.body(delta("content", "Yes"), 400);
  x.body(delta("content", "."), 420);
  x.body(
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9,"
      "\"completion_tokens_details\":{\"reasoning_tokens\":6}}}\n\ndata: [DONE]\n\n",
      430);
  x.finish(440);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.first_content_ns, 100);  // TTFT: the first output of any kind
  EXPECT_EQ(r.first_answer_ns, 400);   // TTFAT: the first answer token
  EXPECT_EQ(r.reasoning_chunks, 3);
  EXPECT_EQ(r.first_answer_chunk, 3);
  EXPECT_EQ(r.chunk_ns.size(), 5u);
  EXPECT_EQ(r.output_tokens, 9);
  EXPECT_EQ(r.reasoning_tokens, 6);
  EXPECT_EQ(r.reasoning_source, TokenSource::kUsage);
}

TEST(ReasoningStream, WithoutUsageDetailsReasoningTokensAreChunkCounts) {
  ApiExchange x;
  x.headers(200, "text/event-stream");
  x.body(delta("reasoning", "a"), 100);  // newer vLLM's key
  x.body(delta("reasoning", "b"), 110);
  x.body(delta("content", "c"), 200);
  x.body("data: [DONE]\n\n", 210);
  x.finish(220);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.first_answer_ns, 200);
  EXPECT_EQ(r.reasoning_tokens, 2);
  EXPECT_EQ(r.reasoning_source, TokenSource::kChunkCount);
  EXPECT_EQ(r.output_tokens, 3);
  EXPECT_EQ(r.output_source, TokenSource::kChunkCount);
}

TEST(ReasoningStream, StreamWithoutReasoningHasTtfatEqualToTtft) {
  ApiExchange x;
  x.headers(200, "text/event-stream");
  x.body(delta("content", "a"), 100);
  x.body(delta("content", "b"), 110);
  x.body(
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,"
      "\"completion_tokens_details\":{\"reasoning_tokens\":0}}}\n\ndata: [DONE]\n\n",
      120);
  x.finish(130);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.first_answer_ns, r.first_content_ns);
  EXPECT_EQ(r.first_answer_chunk, 0);
  EXPECT_EQ(r.reasoning_chunks, 0);
  EXPECT_EQ(r.reasoning_tokens, -1);  // OpenAI's 0 for a model that does not reason
}

TEST(ReasoningStream, ReasoningOnlyStreamHasNoAnswer) {
  ApiExchange x;
  x.headers(200, "text/event-stream");
  x.body(delta("reasoning_content", "hmm"), 100);
  x.body("data: [DONE]\n\n", 110);
  x.finish(120);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;  // output of some kind: cut by max_tokens mid-thought
  EXPECT_EQ(r.first_answer_ns, -1);
  EXPECT_EQ(r.reasoning_chunks, 1);
  EXPECT_EQ(r.reasoning_tokens, 1);
}

std::string event(const std::string& type, const std::string& fields) {
  return "event: " + type + "\ndata: {\"type\":\"" + type + "\"" + fields + "}\n\n";
}

TEST(ResponsesApi, StreamOfTypedEventsIsMeasuredLikeChat) {
  ApiExchange x(ApiKind::kResponses);
  x.headers(200, "text/event-stream");
  x.body(event("response.created", ",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"}"),
         20);
  x.body(event("response.reasoning_text.delta", ",\"delta\":\"think\""), 100);
  x.body(event("response.output_text.delta", ",\"delta\":\"Hi\""), 300);
  x.body(event("response.output_text.delta", ",\"delta\":\" there\""), 320);
  x.body(event("response.output_text.done", ",\"text\":\"Hi there\""), 321);
  x.body(event("response.completed",
               ",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"usage\":{"
               "\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":4},"
               "\"output_tokens\":3,\"output_tokens_details\":{\"reasoning_tokens\":1}}}"),
         330);
  x.finish(340);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.response_id, "resp_1");
  EXPECT_EQ(r.first_content_ns, 100);
  EXPECT_EQ(r.first_answer_ns, 300);
  EXPECT_EQ(r.chunk_ns, (std::vector<int64_t>{100, 300, 320}));
  EXPECT_EQ(r.input_tokens, 12);
  EXPECT_EQ(r.cached_tokens, 4);
  EXPECT_EQ(r.output_tokens, 3);
  EXPECT_EQ(r.reasoning_tokens, 1);
  EXPECT_EQ(r.output_chars, 5 + 2 + 6);  // the .done text is not counted again
}

TEST(ResponsesApi, FailedEventFailsTheRequestWithItsMessage) {
  ApiExchange x(ApiKind::kResponses);
  x.headers(200, "text/event-stream");
  x.body(event("response.output_text.delta", ",\"delta\":\"a\""), 100);
  x.body(event("response.failed",
               ",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\","
               "\"message\":\"out of memory\"}}"),
         200);
  x.finish(210);
  EXPECT_EQ(x.record.error, ErrorKind::kStreamError);
  EXPECT_NE(x.record.error_message.find("out of memory"), std::string::npos)
      << x.record.error_message;
}

TEST(ResponsesApi, StreamWithoutOutputSaysNoCompletedEventCame) {
  ApiExchange x(ApiKind::kResponses);
  x.headers(200, "text/event-stream");
  x.body(event("response.created", ",\"response\":{\"id\":\"resp_1\"}"), 20);
  x.finish(30);
  EXPECT_EQ(x.record.error, ErrorKind::kNoOutput);
  EXPECT_NE(x.record.error_message.find("no response.completed"), std::string::npos)
      << x.record.error_message;
}

TEST(ResponsesApi, NonStreamBodyCountsReasoningAndAnswer) {
  ApiExchange x(ApiKind::kResponses, false);
  x.headers(200, "application/json");
  x.body(
      "{\"id\":\"resp_2\",\"object\":\"response\",\"status\":\"completed\",\"output\":["
      "{\"type\":\"reasoning\",\"content\":[{\"type\":\"reasoning_text\",\"text\":\"hm\"}]},"
      "{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"Yes\"}]}],"
      "\"usage\":{\"input_tokens\":3,\"output_tokens\":4,"
      "\"output_tokens_details\":{\"reasoning_tokens\":2}}}",
      100);
  x.finish(110);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.input_tokens, 3);
  EXPECT_EQ(r.output_tokens, 4);
  EXPECT_EQ(r.reasoning_tokens, 2);
  EXPECT_EQ(r.first_content_ns, -1);
}

TEST(PoolingReply, EmbeddingsWithOneVectorPerInputSucceed) {
  ApiExchange x(ApiKind::kEmbeddings, false, 2);
  x.headers(200, "application/json");
  x.body(
      "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[0.1,"
      "0.2]},{\"object\":\"embedding\",\"index\":1,\"embedding\":[0.3,0.4]}],\"usage\":{"
      "\"prompt_tokens\":11,\"total_tokens\":11}}",
      100);
  x.finish(110);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.input_tokens, 11);
  EXPECT_EQ(r.input_source, TokenSource::kUsage);
  EXPECT_EQ(r.output_tokens, 0);
  EXPECT_EQ(r.end_ns, 100);
}

TEST(PoolingReply, EmbeddingsMissingAVectorFailWithItemCount) {
  ApiExchange x(ApiKind::kEmbeddings, false, 3);
  x.headers(200, "application/json");
  x.body("{\"data\":[{\"embedding\":[0.1]},{\"embedding\":[0.3]}],\"usage\":{\"prompt_tokens\":4}}",
         100);
  x.finish(110);
  EXPECT_EQ(x.record.error, ErrorKind::kItemCount);
  EXPECT_EQ(failure_kind_name(x.record.error, x.record.http_status), "item_count");
  EXPECT_EQ(x.record.error_message, "response holds 2 vectors for 3 inputs");
}

TEST(PoolingReply, RerankTakesTotalTokensAndAllowsTopN) {
  ApiExchange x(ApiKind::kRerank, false, 4);
  x.headers(200, "application/json");
  x.body(
      "{\"id\":\"rerank-1\",\"results\":[{\"index\":2,\"relevance_score\":0.9},{\"index\":0,"
      "\"relevance_score\":0.1}],\"usage\":{\"total_tokens\":40}}",
      100);
  x.finish(110);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.input_tokens, 40);
  EXPECT_EQ(r.response_id, "rerank-1");
}

TEST(PoolingReply, RerankWithMoreScoresThanDocumentsFails) {
  ApiExchange x(ApiKind::kRerank, false, 1);
  x.headers(200, "application/json");
  x.body("{\"results\":[{\"index\":0,\"relevance_score\":0.9},{\"index\":1,\"relevance_score\":1}]}",
         100);
  x.finish(110);
  EXPECT_EQ(x.record.error, ErrorKind::kItemCount);
}

TEST(PoolingReply, ErrorBodyInA200IsAStreamError) {
  ApiExchange x(ApiKind::kEmbeddings, false, 1);
  x.headers(200, "application/json");
  x.body("{\"error\":{\"message\":\"input too long\"}}", 100);
  x.finish(110);
  EXPECT_EQ(x.record.error, ErrorKind::kStreamError);
  EXPECT_NE(x.record.error_message.find("input too long"), std::string::npos);
}

}  // namespace
}  // namespace llmperf

// Unit tests of the response handler: raw HTTP header lines and body bytes with chosen read times
// -> RequestRecord, for each server shape of DESIGN §5 and each failure rule of DESIGN §3.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/response_handler.h"

namespace llmperf {
namespace {

// Feeds a response to a fresh handler: headers at t=10, then each body piece at its own time.
struct Exchange {
  RequestRecord record;
  ResponseHandler handler;

  explicit Exchange(bool stream = true) {
    record.stream = stream;
    record.sent_ns = 0;
    handler.start(&record);
  }
  void headers(int status, const std::string& content_type, int64_t t = 10) {
    handler.on_header_line("HTTP/1.1 " + std::to_string(status) + " X", t);
    handler.on_header_line("Content-Type: " + content_type, t);
    handler.on_header_line("", t);
  }
  void body(const std::string& bytes, int64_t t) { handler.on_body(bytes.data(), bytes.size(), t); }
  void finish(int64_t t, ErrorKind transport = ErrorKind::kNone, const std::string& message = "") {
    handler.finish(t, transport, message);
  }
};

std::string chunk(const std::string& content) {
  return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + content +
         "\"},\"finish_reason\":null}]}\n\n";
}

const char* const kRoleChunk =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
const char* const kUsageChunk =
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3}}\n\n";

TEST(ResponseHandler, RoleChunkDoesNotCountAsFirstToken) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body(kRoleChunk, 20);
  x.body(chunk("a"), 100);
  x.body(chunk("b") + chunk("c"), 130);  // two chunks in one read share its stamp
  x.body(kUsageChunk, 140);
  x.body("data: [DONE]\n\n", 150);
  x.finish(160);
  const RequestRecord& r = x.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.first_byte_ns, 10);
  EXPECT_EQ(r.first_content_ns, 100);
  EXPECT_EQ(r.chunk_ns, (std::vector<int64_t>{100, 130, 130}));
  EXPECT_EQ(r.end_ns, 150);  // last byte read, not when the transfer was reaped
  EXPECT_EQ(r.output_tokens, 3);
  EXPECT_EQ(r.output_source, TokenSource::kUsage);
  EXPECT_EQ(r.input_tokens, 7);
  EXPECT_EQ(r.http_status, 200);
}

// cpp-httplib (llama.cpp's server) advertises how long it keeps an idle connection; the worker
// reuses connections only below it.
TEST(ResponseHandler, ReadsTheKeepAliveTimeout) {
  Exchange x;
  x.handler.on_header_line("HTTP/1.1 200 OK", 10);
  x.handler.on_header_line("Keep-Alive: timeout=5, max=100", 10);
  x.handler.on_header_line("Content-Type: text/event-stream", 10);
  x.handler.on_header_line("", 10);
  x.body(chunk("a"), 20);
  x.finish(30);
  ASSERT_TRUE(x.record.ok()) << x.record.error_message;
  EXPECT_EQ(x.handler.keep_alive_timeout_s(), 5);

  x.handler.start(&x.record);  // the next response, without the header (uvicorn)
  EXPECT_EQ(x.handler.keep_alive_timeout_s(), std::nullopt);
  x.headers(200, "text/event-stream");
  EXPECT_EQ(x.handler.keep_alive_timeout_s(), std::nullopt);
  x.handler.on_header_line("keep-alive: max=3", 11);
  EXPECT_EQ(x.handler.keep_alive_timeout_s(), std::nullopt);
}

TEST(ResponseHandler, KeepsTheServersResponseId) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body("data: {\"id\":\"chatcmpl-1\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n", 20);
  x.body("data: {\"id\":\"chatcmpl-2\",\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n", 30);
  x.finish(40);
  EXPECT_EQ(x.record.response_id, "chatcmpl-1");  // the first one seen

  Exchange plain(false);
  plain.headers(200, "application/json");
  plain.body(R"({"id":"cmpl-7","choices":[{"message":{"content":"hi"}}]})", 20);
  plain.finish(30);
  EXPECT_EQ(plain.record.response_id, "cmpl-7");
}

TEST(ResponseHandler, WithoutUsageTokensAreEstimatedFromChunks) {
  Exchange x;
  x.headers(200, "text/event-stream; charset=utf-8");
  x.body(chunk("你好") + chunk("") + chunk("世界"), 50);
  x.finish(60);
  ASSERT_TRUE(x.record.ok());
  EXPECT_EQ(x.record.chunk_ns.size(), 2u);  // the empty content is not output
  EXPECT_EQ(x.record.output_tokens, 2);
  EXPECT_EQ(x.record.output_source, TokenSource::kChunkCount);
  EXPECT_EQ(x.record.output_chars, 4);
  EXPECT_EQ(x.record.input_source, TokenSource::kNone);
}

TEST(ResponseHandler, UtfEightSplitAcrossReadsIsReassembled) {
  const std::string all = chunk("你好") + "data: [DONE]\n\n";
  for (size_t cut = 1; cut < all.size(); ++cut) {
    Exchange x;
    x.headers(200, "text/event-stream");
    x.body(all.substr(0, cut), 20);
    x.body(all.substr(cut), 30);
    x.finish(40);
    ASSERT_TRUE(x.record.ok()) << "cut " << cut;
    EXPECT_EQ(x.record.output_chars, 2) << "cut " << cut;
    ASSERT_EQ(x.record.chunk_ns.size(), 1u);
    // The event completes with the read that delivers its blank line.
    const size_t event_end = chunk("你好").size();
    EXPECT_EQ(x.record.chunk_ns[0], cut >= event_end ? 20 : 30) << "cut " << cut;
  }
}

TEST(ResponseHandler, HttpErrorCarriesTheServersMessage) {
  Exchange x;
  x.headers(400, "application/json");
  x.body(R"({"error":{"message":"max_tokens is too large","type":"invalid_request"}})", 20);
  x.finish(30);
  EXPECT_EQ(x.record.error, ErrorKind::kHttp);
  EXPECT_EQ(failure_kind_name(x.record.error, x.record.http_status), "http_400");
  EXPECT_NE(x.record.error_message.find("HTTP 400"), std::string::npos);
  EXPECT_NE(x.record.error_message.find("max_tokens is too large"), std::string::npos);
}

TEST(ResponseHandler, ErrorLineInsideAStreamFailsTheRequest) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body(chunk("a"), 20);
  x.body("error: {\"message\":\"engine overloaded\",\"code\":500}\n\n", 30);
  x.body("data: [DONE]\n\n", 40);
  x.finish(50);
  EXPECT_EQ(x.record.error, ErrorKind::kStreamError);
  EXPECT_NE(x.record.error_message.find("engine overloaded"), std::string::npos);
}

TEST(ResponseHandler, ErrorObjectInAChunkFailsTheRequest) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body("data: {\"object\":\"error\",\"message\":\"out of KV cache\",\"code\":500}\n\n", 30);
  x.finish(50);
  EXPECT_EQ(x.record.error, ErrorKind::kStreamError);
  EXPECT_NE(x.record.error_message.find("out of KV cache"), std::string::npos);
}

TEST(ResponseHandler, StreamWithoutOutputFails) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body(std::string(kRoleChunk) + kUsageChunk + "data: [DONE]\n\n", 30);
  x.finish(40);
  EXPECT_EQ(x.record.error, ErrorKind::kNoOutput);
}

TEST(ResponseHandler, MalformedEventsAreToleratedWhenOutputFollows) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body("this is not sse\n\ndata: {not json\n\n" + chunk("a") + "data: [DONE]\n\n", 30);
  x.finish(40);
  EXPECT_TRUE(x.record.ok()) << x.record.error_message;
  EXPECT_EQ(x.record.malformed_events, 1);
}

TEST(ResponseHandler, TransportFailureKeepsTheFirstReason) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body(chunk("a"), 20);
  x.finish(30, ErrorKind::kStreamTruncated, "connection ended early");
  EXPECT_EQ(x.record.error, ErrorKind::kStreamTruncated);
  EXPECT_EQ(x.record.error_message, "connection ended early");
  EXPECT_EQ(x.record.chunk_ns.size(), 1u);
}

TEST(ResponseHandler, NonStreamResponseHasNoChunkTimes) {
  Exchange x(/*stream=*/false);
  x.headers(200, "application/json");
  x.body(R"({"choices":[{"message":{"role":"assistant","content":"hi there"},)", 20);
  x.body(R"("finish_reason":"stop"}],"usage":{"prompt_tokens":4,"completion_tokens":2}})", 25);
  x.finish(30);
  ASSERT_TRUE(x.record.ok()) << x.record.error_message;
  EXPECT_TRUE(x.record.chunk_ns.empty());
  EXPECT_EQ(x.record.first_content_ns, -1);
  EXPECT_EQ(x.record.end_ns, 25);
  EXPECT_EQ(x.record.output_tokens, 2);
  EXPECT_EQ(x.record.finish_reason, "stop");
}

TEST(ResponseHandler, StreamRequestAnsweredWithJsonIsMeasuredAsNonStream) {
  Exchange x(/*stream=*/true);
  x.headers(200, "application/json");
  x.body(R"({"choices":[{"message":{"content":"abcdefgh"}}]})", 20);
  x.finish(30);
  ASSERT_TRUE(x.record.ok()) << x.record.error_message;
  EXPECT_FALSE(x.record.stream);
  EXPECT_EQ(x.record.output_tokens, 2);  // ceil(8 code points / 4), estimated
  EXPECT_EQ(x.record.output_source, TokenSource::kCharCount);
}

TEST(ResponseHandler, BodyThatIsNotJsonIsABadResponse) {
  Exchange x(/*stream=*/false);
  x.headers(200, "text/html");
  x.body("<html>gateway</html>", 20);
  x.finish(30);
  EXPECT_EQ(x.record.error, ErrorKind::kBadResponse);
  EXPECT_NE(x.record.error_message.find("gateway"), std::string::npos);
}

TEST(ResponseHandler, FinalEventWithoutBlankLineIsStillCounted) {
  Exchange x;
  x.headers(200, "text/event-stream");
  x.body(chunk("a") + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}", 20);
  x.finish(30);
  ASSERT_TRUE(x.record.ok());
  EXPECT_EQ(x.record.chunk_ns.size(), 2u);
}

}  // namespace
}  // namespace llmperf

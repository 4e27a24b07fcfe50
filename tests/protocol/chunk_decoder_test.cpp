// Tests for the chunk decoder: one test per server shape of DESIGN §5, error shapes, invalid
// payloads, code-point counting, error_message_from_body, and a differential test holding the
// fast JSON scanner to nlohmann's parser on valid, invalid and mutated payloads.
#include "protocol/chunk_decoder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/json_scanner.h"
#include "protocol/sse_parser.h"

namespace llmperf {
namespace {

DecodedChunk decode(std::string_view payload) {
  DecodedChunk out;
  decode_chunk(payload, out);
  return out;
}

TEST(ChunkDecoder, RoleOnlyChunkIsNotOutput) {
  const DecodedChunk c = decode(
      R"({"id":"x","object":"chat.completion.chunk","choices":[{"index":0,)"
      R"("delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_output);
  EXPECT_EQ(c.output_chars, 0);
  EXPECT_FALSE(c.has_usage);
  EXPECT_FALSE(c.has_error);
  EXPECT_EQ(c.finish_reason, "");
}

TEST(ChunkDecoder, ResponseIdIsTheTopLevelIdOnly) {
  const std::string chunk =
      R"({"id":"chatcmpl-9c2e","object":"chat.completion.chunk","choices":[{"index":0,"delta":)"
      R"({"content":"hi","tool_calls":[{"id":"call_1","function":{"name":"f"}}]}}]})";
  EXPECT_EQ(decode(chunk).response_id, "chatcmpl-9c2e");  // not the tool call's id
  // The same through nlohmann's fallback (an escape the fast scanner leaves to it).
  EXPECT_EQ(decode(R"({"id":"cmpl-A","choices":[]})").response_id, "cmpl-A");
  EXPECT_EQ(decode(R"({"choices":[]})").response_id, "");
}

TEST(ChunkDecoder, UsageOnlyChunkWithEmptyChoices) {
  const DecodedChunk c =
      decode(R"({"id":"x","object":"chat.completion.chunk","choices":[],)"
             R"("usage":{"prompt_tokens":21,"total_tokens":28,"completion_tokens":7}})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_output);
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 21);
  EXPECT_EQ(c.completion_tokens, 7);
}

TEST(ChunkDecoder, UsageOnTheFinishChunk) {
  const DecodedChunk c =
      decode(R"({"choices":[{"finish_reason":"length","index":0,"delta":{"content":" of"}}],)"
             R"("usage":{"completion_tokens":6,"prompt_tokens":15,"total_tokens":21}})");
  EXPECT_TRUE(c.has_output);
  EXPECT_EQ(c.output_chars, 3);
  EXPECT_EQ(c.finish_reason, "length");
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 15);
  EXPECT_EQ(c.completion_tokens, 6);
}

TEST(ChunkDecoder, NullUsageAndNullFinishReason) {
  const DecodedChunk c = decode(
      R"({"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"usage":null})");
  EXPECT_TRUE(c.has_output);
  EXPECT_FALSE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, -1);
  EXPECT_EQ(c.completion_tokens, -1);
  EXPECT_EQ(c.finish_reason, "");
}

TEST(ChunkDecoder, MultiTokenChunk) {
  const DecodedChunk c =
      decode(R"({"choices":[{"index":0,"delta":{"content":" can I help you"}}]})");
  EXPECT_TRUE(c.has_output);
  EXPECT_EQ(c.output_chars, 15);
}

TEST(ChunkDecoder, EmptyContentIsNotOutput) {
  const DecodedChunk c =
      decode(R"({"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]})");
  EXPECT_FALSE(c.has_output);
  EXPECT_EQ(c.finish_reason, "stop");
}

TEST(ChunkDecoder, NullContentIsNotOutput) {
  const DecodedChunk c = decode(R"({"choices":[{"index":0,"delta":{"role":null,"content":null,)"
                                R"("reasoning_content":null,"tool_calls":null}}]})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_output);
}

TEST(ChunkDecoder, ReasoningContentAndReasoningCount) {
  const DecodedChunk a =
      decode(R"({"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"Let"}}]})");
  EXPECT_TRUE(a.has_output);
  EXPECT_EQ(a.output_chars, 3);
  const DecodedChunk b = decode(R"({"choices":[{"index":0,"delta":{"reasoning":"Hmm,"}}]})");
  EXPECT_TRUE(b.has_output);
  EXPECT_EQ(b.output_chars, 4);
}

TEST(ChunkDecoder, ToolCallDelta) {
  const DecodedChunk name =
      decode(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1",)"
             R"("type":"function","function":{"name":"get_weather","arguments":""}}]}}]})");
  EXPECT_TRUE(name.has_output);
  EXPECT_EQ(name.output_chars, 11);
  const DecodedChunk args = decode(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,)"
                                   R"("function":{"arguments":"{\"city\":"}}]}}]})");
  EXPECT_TRUE(args.has_output);
  EXPECT_EQ(args.output_chars, 8);
  const DecodedChunk empty =
      decode(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1",)"
             R"("type":"function","function":{"arguments":""}}]}}]})");
  EXPECT_FALSE(empty.has_output);
}

TEST(ChunkDecoder, CompletionsText) {
  const DecodedChunk c =
      decode(R"({"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":" world",)"
             R"("logprobs":null,"finish_reason":null}]})");
  EXPECT_TRUE(c.has_output);
  EXPECT_EQ(c.output_chars, 6);
}

TEST(ChunkDecoder, NonStreamMessageWithUsage) {
  const DecodedChunk c =
      decode(R"({"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,)"
             R"("message":{"role":"assistant","content":"Hello there","reasoning_content":"Hi?",)"
             R"("tool_calls":[]},"finish_reason":"stop"}],)"
             R"("usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}})");
  EXPECT_TRUE(c.has_output);
  EXPECT_EQ(c.output_chars, 14);
  EXPECT_EQ(c.finish_reason, "stop");
  EXPECT_EQ(c.prompt_tokens, 5);
  EXPECT_EQ(c.completion_tokens, 3);
}

TEST(ChunkDecoder, FinishReasonOnlyFromFirstChoice) {
  const DecodedChunk c = decode(R"({"choices":[{"index":0,"delta":{},"finish_reason":null},)"
                                R"({"index":1,"delta":{"content":"b"},"finish_reason":"stop"}]})");
  EXPECT_EQ(c.finish_reason, "");
  EXPECT_TRUE(c.has_output);  // output from any choice counts
}

TEST(ChunkDecoder, IgnoresLookalikeKeysOutsideTheirPlace) {
  const DecodedChunk c = decode(
      R"({"content":"top","text":"top","delta":{"content":"x"},"choices":[{"index":0,)"
      R"("logprobs":{"content":[{"token":"a","text":"a"}]},"delta":{"extra":{"content":"deep"}}}],)"
      R"("meta":{"usage":{"prompt_tokens":99}},"error_count":1,"message":"hello"})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_output);
  EXPECT_FALSE(c.has_usage);
  EXPECT_FALSE(c.has_error);
}

TEST(ChunkDecoder, DeepNestingIsTolerated) {
  std::string payload = R"({"choices":[{"index":0,"delta":{"content":"ok"}}],"x":)";
  for (int i = 0; i < 50; ++i) payload += R"({"a":[)";
  for (int i = 0; i < 50; ++i) payload += "]}";
  payload += "}";
  const DecodedChunk c = decode(payload);
  EXPECT_TRUE(c.valid_json);
  EXPECT_EQ(c.output_chars, 2);
}

TEST(ChunkDecoder, ErrorObject) {
  const DecodedChunk c = decode(
      R"({"error":{"message":"CUDA out of memory","type":"InternalServerError","code":500}})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "CUDA out of memory");
  EXPECT_FALSE(c.has_output);
}

TEST(ChunkDecoder, ErrorString) {
  const DecodedChunk c = decode(R"({"error":"Input validation error: too long"})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "Input validation error: too long");
}

TEST(ChunkDecoder, ErrorObjectWithoutMessageKeepsItsText) {
  const DecodedChunk c = decode(R"({"error":{"code":503,"type":"overloaded"}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_NE(c.error_message.find("overloaded"), std::string::npos);
}

TEST(ChunkDecoder, NullErrorIsNotAnError) {
  const DecodedChunk c = decode(R"({"error":null,"choices":[{"delta":{"content":"a"}}]})");
  EXPECT_FALSE(c.has_error);
  EXPECT_TRUE(c.has_output);
}

TEST(ChunkDecoder, VllmObjectError) {
  const DecodedChunk c =
      decode(R"({"message":"This model's maximum context length is 32768 tokens.",)"
             R"("type":"BadRequestError","param":null,"code":400,"object":"error"})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "This model's maximum context length is 32768 tokens.");
}

TEST(ChunkDecoder, InvalidJsonNeverThrows) {
  for (const std::string_view payload :
       {R"({"choices":[{"delta":{"content":"trunc)", "[DONE]", "", "   ", "{", "nul",
        R"({"a":1} trailing)", R"(["array"])", R"("just a string")", "42",
        "{\"choices\":[{\"delta\":{\"content\":\"\xff\xfe\"}}]}"}) {
    DecodedChunk c;
    c.has_output = true;  // stale state must be cleared
    EXPECT_NO_THROW(decode_chunk(payload, c)) << payload;
    EXPECT_FALSE(c.valid_json) << payload;
    EXPECT_FALSE(c.has_output) << payload;
    EXPECT_FALSE(c.has_error) << payload;
  }
}

TEST(ChunkDecoder, ChineseContentCountsCodePoints) {
  const DecodedChunk c =
      decode(R"({"choices":[{"index":0,"delta":{"content":"很高兴为您服务。"}}]})");
  EXPECT_TRUE(c.has_output);
  EXPECT_EQ(c.output_chars, 8);
  const DecodedChunk escaped =
      decode(R"({"choices":[{"delta":{"content":"\u4f60\u597d\ud83d\ude00"}}]})");
  EXPECT_EQ(escaped.output_chars, 3);  // two CJK characters and one emoji (a surrogate pair)
}

TEST(ChunkDecoder, ReusedOutputIsCleared) {
  DecodedChunk c;
  decode_chunk(R"({"error":"x","choices":[{"finish_reason":"stop","text":"a"}],)"
               R"("usage":{"prompt_tokens":1}})",
               c);
  ASSERT_TRUE(c.has_error);
  decode_chunk(R"({"choices":[]})", c);
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_error);
  EXPECT_EQ(c.error_message, "");
  EXPECT_EQ(c.finish_reason, "");
  EXPECT_FALSE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, -1);
  EXPECT_EQ(c.output_chars, 0);
}

TEST(ErrorMessageFromBody, OpenAiErrorObject) {
  EXPECT_EQ(error_message_from_body(
                R"({"error":{"message":"Rate limit reached","type":"requests","code":"429"}})"),
            "Rate limit reached");
}

TEST(ErrorMessageFromBody, ErrorString) {
  EXPECT_EQ(error_message_from_body(R"({"error":"Model is overloaded","error_type":"overloaded"})"),
            "Model is overloaded");
}

TEST(ErrorMessageFromBody, VllmTopLevelMessage) {
  EXPECT_EQ(error_message_from_body(
                R"({"object":"error","message":"max_tokens must be at least 1","code":400})"),
            "max_tokens must be at least 1");
}

TEST(ErrorMessageFromBody, FastApiDetail) {
  EXPECT_EQ(error_message_from_body(R"({"detail":"Not Found"})"), "Not Found");
  const std::string list = error_message_from_body(
      R"({"detail":[{"loc":["body","model"],"msg":"field required","type":"value_error"}]})");
  EXPECT_NE(list.find("field required"), std::string::npos);
}

TEST(ErrorMessageFromBody, NonJsonBodyIsTrimmedExcerpt) {
  EXPECT_EQ(error_message_from_body("\n  <html>\r\n<body>502 Bad Gateway</body></html>\n"),
            "<html>  <body>502 Bad Gateway</body></html>");
  EXPECT_EQ(error_message_from_body(""), "");
  EXPECT_EQ(error_message_from_body(R"({"unrelated":1})"), R"({"unrelated":1})");
}

TEST(ErrorMessageFromBody, TruncatesAtUtf8Boundary) {
  const std::string body = "错误错误错误";  // 6 characters, 3 bytes each
  EXPECT_EQ(error_message_from_body(body, 7), "错误");
  EXPECT_EQ(error_message_from_body(body, 6), "错误");
  EXPECT_EQ(error_message_from_body(body, 2), "");
  EXPECT_EQ(error_message_from_body(std::string(1000, 'x')).size(), 300u);
  EXPECT_EQ(error_message_from_body(R"({"error":{"message":"错误错误"}})", 4), "错");
}

// Logs every SAX event as text, from either nlohmann or JsonScanner.
class RecordingHandler {
 public:
  std::vector<std::string> log;  // one entry per event

  bool null() { return add("null"); }
  bool boolean(bool value) { return add(value ? "true" : "false"); }
  bool number_integer(int64_t value) { return add("int " + std::to_string(value)); }
  bool number_unsigned(uint64_t value) { return add("uint " + std::to_string(value)); }
  bool number_float(double /*value*/, const std::string& text) { return add("float " + text); }
  bool float_number(std::string_view text) { return add("float " + std::string(text)); }
  bool string(std::string_view value) { return add("string " + std::string(value)); }
  bool binary(nlohmann::json::binary_t& /*value*/) { return add("binary"); }
  bool key(std::string_view name) { return add("key " + std::string(name)); }
  bool start_object(std::size_t /*elements*/) { return add("{"); }
  bool end_object() { return add("}"); }
  bool start_array(std::size_t /*elements*/) { return add("["); }
  bool end_array() { return add("]"); }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

 private:
  bool add(std::string entry) {
    log.push_back(std::move(entry));
    return true;
  }
};

// Checks the scanner's contract on one payload: when it accepts, nlohmann accepts too and both
// report the same events. Returns whether the scanner accepted.
bool scanner_agrees_with_nlohmann(std::string_view payload) {
  RecordingHandler fast;
  const bool fast_ok = JsonScanner<RecordingHandler>(payload, fast).scan();
  RecordingHandler slow;
  bool slow_ok = false;
  try {
    slow_ok = nlohmann::json::sax_parse(payload.begin(), payload.end(), &slow);
  } catch (...) {
    slow_ok = false;
  }
  if (fast_ok) {
    EXPECT_TRUE(slow_ok) << "scanner accepted invalid JSON: " << payload;
    EXPECT_EQ(fast.log, slow.log) << payload;
  }
  return fast_ok;
}

// The data of every event in the SSE fixtures: real-looking chunks.
std::vector<std::string> fixture_payloads() {
  std::vector<std::string> payloads;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(LLMPERF_FIXTURES_DIR) + "/sse")) {
    if (entry.path().extension() != ".sse") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    SseParser parser;
    auto collect = [&payloads](const SseEvent& e) {
      if (!e.data.empty()) payloads.emplace_back(e.data);
      if (!e.other_value.empty()) payloads.emplace_back(e.other_value);
    };
    const std::string bytes = text.str();
    parser.feed(bytes.data(), bytes.size(), collect);
    parser.flush(collect);
  }
  return payloads;
}

TEST(JsonScanner, AgreesWithNlohmannOnFixtureChunks) {
  const std::vector<std::string> payloads = fixture_payloads();
  ASSERT_GT(payloads.size(), 50u);
  size_t accepted = 0;
  for (const std::string& payload : payloads) accepted += scanner_agrees_with_nlohmann(payload);
  EXPECT_GT(accepted, 40u);  // the fast path is the common path
}

TEST(JsonScanner, AcceptsValidEdgeCases) {
  for (const std::string_view payload :
       {R"({})", R"([])", R"( { "a" : [ 1 , -2 , 0 , -0 , 1.5 , -0.25e+3 , 2E9 , 1e-7 ] } )",
        R"({"a":true,"b":false,"c":null,"d":"","e":[[],{}]})",
        R"({"s":"tab\t quote\" slash\/ back\\ nl\n cr\r b\b f\f"})", "\t\n\r {\"k\":1}\n",
        R"({"zh":"中文","emoji":"😀","latin":"é","max":"ô¿¿"})",
        R"({"n":123456789012345678})", R"("top-level string")", "42", "null",
        R"({"logprob":-9.536738616588991e-07,"tiny":1e-400,"big":1.5e200})"}) {
    EXPECT_TRUE(scanner_agrees_with_nlohmann(payload)) << payload;
  }
}

TEST(JsonScanner, GivesUpOnWhatItDoesNotHandle) {
  for (const std::string_view payload : {R"({"u":"\u4f60"})", R"({"n":1234567890123456789})",
                                         R"({"a":1} x)", "", "1e400", "171E8000003", "-1.5e309"}) {
    EXPECT_FALSE(scanner_agrees_with_nlohmann(payload)) << payload;
  }
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "[";
  for (int i = 0; i < 70; ++i) deep += "]";
  EXPECT_FALSE(scanner_agrees_with_nlohmann(deep));
}

TEST(JsonScanner, RejectsInvalidJson) {
  for (const std::string_view payload : {"{",
                                         "}",
                                         "[1,]",
                                         R"({"a":1,})",
                                         R"({"a" 1})",
                                         R"({a:1})",
                                         "01",
                                         "1.",
                                         ".5",
                                         "-",
                                         "+1",
                                         "1e",
                                         "1e+",
                                         "tru",
                                         "nul",
                                         "falsey",
                                         R"({"a":"unterminated)",
                                         "\"ctl\x01\"",
                                         "\"bad escape \\x\"",
                                         "\"overlong \xc0\x80\"",
                                         "\"overlong \xe0\x80\x80\"",
                                         "\"surrogate \xed\xa0\x80\"",
                                         "\"too big \xf4\x90\x80\x80\"",
                                         "\"truncated \xe4\xbd\"",
                                         "\"lone continuation \x80\"",
                                         "\"invalid lead \xff\"",
                                         "[1 2]",
                                         R"({"a":1}})",
                                         "[DONE]"}) {
    EXPECT_FALSE(scanner_agrees_with_nlohmann(payload)) << payload;
  }
}

TEST(JsonScanner, AgreesWithNlohmannOnMutatedChunks) {
  const std::vector<std::string> payloads = fixture_payloads();
  std::mt19937 rng(2024);  // fixed seed: the same mutations on every run
  constexpr std::string_view kBytes =
      "{}[]:,\"\\ 0123456789.-+eEtrufalsn\x01\x7f\x80\xbf\xc3\xe4\xf0\xff";
  for (int round = 0; round < 20000; ++round) {
    std::string payload = payloads[rng() % payloads.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !payload.empty(); ++e) {
      const size_t at = rng() % payload.size();
      switch (rng() % 3) {
        case 0:
          payload[at] = kBytes[rng() % kBytes.size()];
          break;
        case 1:
          payload.erase(at, 1);
          break;
        default:
          payload.insert(at, 1, kBytes[rng() % kBytes.size()]);
          break;
      }
    }
    scanner_agrees_with_nlohmann(payload);
    if (HasFailure()) {
      ADD_FAILURE() << "round " << round;
      return;
    }
  }
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST(ChunkDecoderSessions, CachedTokensComeFromPromptTokensDetails) {
  const DecodedChunk c = decode(
      R"({"choices":[],"usage":{"prompt_tokens":300,"completion_tokens":20,)"
      R"("prompt_tokens_details":{"cached_tokens":256}}})");
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 300);
  EXPECT_EQ(c.cached_tokens, 256);
  // A cached_tokens anywhere else is not the prompt's.
  const DecodedChunk other = decode(
      R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens_details":{"cached_tokens":1}},)"
      R"("cached_tokens":2})");
  EXPECT_EQ(other.cached_tokens, -1);
  EXPECT_EQ(decode(R"({"choices":[],"usage":{"prompt_tokens":3}})").cached_tokens, -1);
}

TEST(ChunkDecoderSessions, AnswerTextIsCollectedOnlyWhenWanted) {
  const std::string payload =
      R"({"choices":[{"delta":{"reasoning_content":"hmm","content":"Hi \"you\"\n"}}]})";
  DecodedChunk c;
  decode_chunk(payload, c);
  EXPECT_TRUE(c.content.empty());
  c.want_content = true;
  decode_chunk(payload, c);
  EXPECT_EQ(c.content, "Hi \"you\"\n");  // unescaped; reasoning is not part of the answer
  // Escapes the fast scanner leaves to nlohmann (\u) are decoded once, not appended twice.
  decode_chunk(R"({"choices":[{"delta":{"content":"caf\u00e9"}}]})", c);
  EXPECT_EQ(c.content, "café");
  // Completions text and a whole non-stream message count too; tool calls do not.
  decode_chunk(R"({"choices":[{"text":"abc"}]})", c);
  EXPECT_EQ(c.content, "abc");
  decode_chunk(R"({"choices":[{"message":{"content":"whole","tool_calls":[{"function":)"
               R"({"name":"f","arguments":"{}"}}]}}]})",
               c);
  EXPECT_EQ(c.content, "whole");
}

}  // namespace
}  // namespace llmperf

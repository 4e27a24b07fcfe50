// Tests for the Responses API decoder: recorded stream transcripts (tests/fixtures/responses/)
// fed through the SSE parser split at every byte offset, with the totals of the decoded events
// compared to hand-computed values; the non-stream bodies; one test per event type; tolerance
// cases (field order, missing usage, floats, \u escapes, invalid payloads).
#include "protocol/responses_decoder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/sse_parser.h"

namespace llmperf {
namespace {

std::string read_responses_fixture(const std::string& name) {
  const std::string path = std::string(LLMPERF_FIXTURES_DIR) + "/responses/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

DecodedChunk decode(std::string_view event_name, std::string_view data, bool want_content = false) {
  DecodedChunk out;
  out.want_content = want_content;
  decode_responses_event(event_name, data, out);
  return out;
}

// What a client keeps of one stream: the sum of its decoded events.
struct StreamTotals {
  int events = 0;               // events dispatched by the SSE parser
  int invalid_events = 0;       // events whose data was not a JSON object
  int answer_events = 0;        // events with has_answer
  int reasoning_events = 0;     // events with has_reasoning
  int64_t answer_chars = 0;     // code points of answer output
  int64_t reasoning_chars = 0;  // code points of reasoning output
  std::string content;          // answer text (want_content)
  int usage_events = 0;         // events with has_usage
  int64_t prompt_tokens = -1;   // from the last event with usage
  int64_t completion_tokens = -1;
  int64_t cached_tokens = -1;
  int64_t reasoning_tokens = -1;
  bool completed = false;     // a terminal event was seen
  std::string finish_reason;  // the last non-empty finish_reason
  int error_events = 0;       // events with has_error
  std::string error_message;  // the last error message
  std::string response_id;    // the first response id

  bool operator==(const StreamTotals&) const = default;
};

void PrintTo(const StreamTotals& t, std::ostream* os) {
  *os << "{events=" << t.events << " invalid=" << t.invalid_events
      << " answer_events=" << t.answer_events << " reasoning_events=" << t.reasoning_events
      << " answer_chars=" << t.answer_chars << " reasoning_chars=" << t.reasoning_chars
      << " content='" << t.content << "' usage_events=" << t.usage_events
      << " tokens=" << t.prompt_tokens << "/" << t.completion_tokens << "/" << t.cached_tokens
      << "/" << t.reasoning_tokens << " completed=" << t.completed << " finish='" << t.finish_reason
      << "' error_events=" << t.error_events << " error='" << t.error_message << "' id='"
      << t.response_id << "'}";
}

// Feeds `text` to an SseParser in two slices cut at `cut`, decoding every event.
StreamTotals decode_stream(std::string_view text, size_t cut) {
  StreamTotals totals;
  DecodedChunk chunk;
  chunk.want_content = true;
  SseParser parser;
  auto on_event = [&totals, &chunk](const SseEvent& event) {
    ++totals.events;
    decode_responses_event(event.event, event.data, chunk);
    if (!chunk.valid_json) ++totals.invalid_events;
    if (chunk.has_answer) {
      ++totals.answer_events;
      totals.answer_chars += chunk.output_chars;
    }
    if (chunk.has_reasoning) {
      ++totals.reasoning_events;
      totals.reasoning_chars += chunk.output_chars;
    }
    totals.content += chunk.content;
    if (chunk.has_usage) {
      ++totals.usage_events;
      totals.prompt_tokens = chunk.prompt_tokens;
      totals.completion_tokens = chunk.completion_tokens;
      totals.cached_tokens = chunk.cached_tokens;
      totals.reasoning_tokens = chunk.reasoning_tokens;
    }
    totals.completed = totals.completed || chunk.completed;
    if (!chunk.finish_reason.empty()) totals.finish_reason = chunk.finish_reason;
    if (chunk.has_error) {
      ++totals.error_events;
      totals.error_message = chunk.error_message;
    }
    if (!chunk.response_id.empty()) {
      totals.response_id = chunk.response_id;
      chunk.want_response_id = false;  // as the engine does once it has the id
    }
  };
  parser.feed(text.data(), cut, on_event);
  parser.feed(text.data() + cut, text.size() - cut, on_event);
  parser.flush(on_event);
  return totals;
}

// One recorded transcript and its totals, computed by hand from the deltas it was written from.
struct Transcript {
  std::string file;
  StreamTotals expected;
};

void PrintTo(const Transcript& t, std::ostream* os) { *os << t.file; }

std::vector<Transcript> transcripts() {
  std::vector<Transcript> list;
  {  // (a) OpenAI: reasoning summary deltas, then output_text deltas, usage with cached/reasoning
    StreamTotals t;
    t.events = 26;
    t.answer_events =
        8;  // "There" " are" " four" " primes" " below" " 10:" " 2, 3, 5 and 7" " — café."
    t.answer_chars = 5 + 4 + 5 + 7 + 6 + 4 + 14 + 8;
    t.reasoning_events = 5;  // "**Counting" " primes" "**\n\n" "I list" " the primes below 10."
    t.reasoning_chars = 10 + 7 + 4 + 6 + 21;
    t.content = "There are four primes below 10: 2, 3, 5 and 7 — café.";
    t.usage_events = 1;
    t.prompt_tokens = 1310;
    t.completion_tokens = 212;
    t.cached_tokens = 1152;
    t.reasoning_tokens = 128;
    t.completed = true;
    t.finish_reason = "stop";
    t.response_id = "resp_68a1f3c2b7e08190a5d4c3b2a1f0e9d80c7b6a5f4e3d2c1b";
    list.push_back({"openai_reasoning.sse", t});
  }
  {  // (b) vLLM: reasoning_text deltas, "type" last in every event, Chinese text
    StreamTotals t;
    t.events = 23;
    t.reasoning_events =
        6;  // "Okay" ", the user" " greets me in" " Chinese: 你好" "." " I should..."
    t.reasoning_chars = 4 + 10 + 13 + 12 + 1 + 25;
    t.answer_events = 5;  // "你好" "！" "有什么" "可以帮你的吗" "？"
    t.answer_chars = 2 + 1 + 3 + 6 + 1;
    t.content = "你好！有什么可以帮你的吗？";
    t.usage_events = 1;
    t.prompt_tokens = 42;
    t.completion_tokens = 57;
    t.cached_tokens = 16;
    t.reasoning_tokens = 31;
    t.completed = true;
    t.finish_reason = "stop";
    t.response_id = "resp_3f2a9c1e8b7d4e6fa0b1c2d3e4f5a6b7";
    list.push_back({"vllm_reasoning.sse", t});
  }
  {  // (c) ends in response.incomplete; no `event:` lines; \u escapes incl. a surrogate pair
    StreamTotals t;
    t.events = 10;
    t.answer_events = 6;  // "Café " "culture" " in Paris" " 😀" " began" " in the"
    t.answer_chars = 5 + 7 + 9 + 2 + 6 + 7;
    t.content = "Café culture in Paris 😀 began in the";
    t.usage_events = 1;
    t.prompt_tokens = 20;
    t.completion_tokens = 16;
    t.cached_tokens = 0;
    t.reasoning_tokens = 0;
    t.completed = true;
    t.finish_reason = "length";
    t.response_id = "resp_0b1c2d3e4f5061728394a5b6c7d8e9f0";
    list.push_back({"incomplete.sse", t});
  }
  {  // (d) response.failed after three deltas
    StreamTotals t;
    t.events = 8;
    t.answer_events = 3;  // "The" " capital" " of"
    t.answer_chars = 3 + 8 + 3;
    t.content = "The capital of";
    t.error_events = 1;
    t.error_message =
        "The model produced invalid content. Consider modifying your prompt if you are seeing this "
        "error persistently.";
    t.response_id = "resp_68a2000000000000aaaabbbbccccdddd";
    list.push_back({"failed.sse", t});
  }
  {  // (e) `event: error` after three deltas; CRLF line ends
    StreamTotals t;
    t.events = 6;
    t.answer_events = 3;  // "Sure" ", here" " is"
    t.answer_chars = 4 + 6 + 3;
    t.content = "Sure, here is";
    t.error_events = 1;
    t.error_message =
        "Rate limit reached for gpt-4.1-mini on tokens per min (TPM): Limit 200000, Used 199980, "
        "Requested 250.";
    t.response_id = "resp_68a3000000000000123456789abcdef0";
    list.push_back({"error_event.sse", t});
  }
  {  // function_call_arguments deltas count as answer output
    StreamTotals t;
    t.events = 10;
    t.answer_events = 5;  // {"  city  ":"  Paris  ","unit":"c"}
    t.answer_chars = 2 + 4 + 3 + 5 + 13;
    t.content = R"({"city":"Paris","unit":"c"})";
    t.usage_events = 1;
    t.prompt_tokens = 61;
    t.completion_tokens = 18;
    t.cached_tokens = 0;
    t.reasoning_tokens = 0;
    t.completed = true;
    t.finish_reason = "stop";
    t.response_id = "resp_68a4000000000000fc0000000000000a";
    list.push_back({"function_call.sse", t});
  }
  return list;
}

TEST(ResponsesTranscripts, EveryStreamFixtureIsListed) {
  std::set<std::string> on_disk;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(LLMPERF_FIXTURES_DIR) + "/responses")) {
    if (entry.path().extension() == ".sse") on_disk.insert(entry.path().filename().string());
  }
  std::set<std::string> listed;
  for (const Transcript& t : transcripts()) listed.insert(t.file);
  EXPECT_EQ(on_disk, listed);
}

class ResponsesTranscriptTest : public ::testing::TestWithParam<Transcript> {};

TEST_P(ResponsesTranscriptTest, SameTotalsAtEveryTwoWaySplit) {
  const std::string text = read_responses_fixture(GetParam().file);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(decode_stream(text, 0), GetParam().expected);
  for (size_t cut = 1; cut <= text.size(); ++cut) {
    ASSERT_EQ(decode_stream(text, cut), GetParam().expected) << "split at byte " << cut;
  }
}

std::string transcript_test_name(const ::testing::TestParamInfo<Transcript>& param) {
  return param.param.file.substr(0, param.param.file.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ResponsesTranscriptTest, ::testing::ValuesIn(transcripts()),
                         transcript_test_name);

// Non-stream bodies.

TEST(ResponsesBody, ReasoningAndMessage) {
  const DecodedChunk c = decode("", read_responses_fixture("nonstream_reasoning.json"), true);
  EXPECT_TRUE(c.valid_json);
  EXPECT_TRUE(c.has_output);
  EXPECT_TRUE(c.has_answer);
  EXPECT_TRUE(c.has_reasoning);
  // the summary text (48 code points) and the message text (53)
  EXPECT_EQ(c.output_chars, 48 + 53);
  EXPECT_EQ(c.content, "There are four primes below 10: 2, 3, 5 and 7 — café.");
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "stop");
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 1310);
  EXPECT_EQ(c.completion_tokens, 212);
  EXPECT_EQ(c.cached_tokens, 1152);
  EXPECT_EQ(c.reasoning_tokens, 128);
  EXPECT_EQ(c.response_id, "resp_68a1f3c2b7e08190a5d4c3b2a1f0e9d80c7b6a5f4e3d2c1b");
  EXPECT_FALSE(c.has_error);  // "error": null
}

TEST(ResponsesBody, IncompleteWithUsageFirstAndFloatTokens) {
  const DecodedChunk c = decode("", read_responses_fixture("nonstream_incomplete.json"), true);
  EXPECT_TRUE(c.valid_json);
  EXPECT_TRUE(c.has_answer);
  EXPECT_TRUE(c.has_reasoning);
  EXPECT_EQ(c.output_chars, 65 + 2);  // reasoning_text content, then "你好" (\u escaped)
  EXPECT_EQ(c.content, "你好");       // reasoning text is not answer content
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "length");
  EXPECT_EQ(c.prompt_tokens, 35);
  EXPECT_EQ(c.completion_tokens, 64);  // sent as 64.0
  EXPECT_EQ(c.cached_tokens, -1);
  EXPECT_EQ(c.reasoning_tokens, 60);
  EXPECT_EQ(c.response_id, "resp_4e3b9c1e8b7d4e6fa0b1c2d3e4f5a6b7");
}

TEST(ResponsesBody, FailedStatusIsAnError) {
  const DecodedChunk c = decode("", R"({"id":"resp_1","object":"response","status":"failed",
      "error":{"code":"server_error","message":"boom"},"output":[],"usage":null})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "boom");
  EXPECT_FALSE(c.completed);
  EXPECT_FALSE(c.has_usage);
}

TEST(ResponsesBody, FunctionCallAndRefusalAreAnswers) {
  const DecodedChunk c = decode("", R"({"object":"response","status":"completed","output":[
      {"type":"function_call","name":"f","arguments":"{\"a\":1}","call_id":"c"},
      {"content":[{"refusal":"No.","type":"refusal"}],"type":"message"}]})",
                                true);
  EXPECT_TRUE(c.has_answer);
  EXPECT_FALSE(c.has_reasoning);
  EXPECT_EQ(c.output_chars, 7 + 3);
  EXPECT_EQ(c.content, "No.");  // tool-call arguments are not answer text
}

TEST(ResponsesBody, ItemTypeAfterItsContent) {
  // "type" last, as a serializer with declaration order may send it: the item is still judged.
  const DecodedChunk c = decode("", R"({"output":[
      {"content":[{"text":"think","type":"reasoning_text"}],"summary":[{"text":"sum","type":"summary_text"}],"type":"reasoning"},
      {"content":[{"text":"ans","type":"output_text"}],"type":"message"},
      {"content":[{"text":"ignored","type":"output_text"}],"type":"web_search_call"}]})",
                                true);
  EXPECT_TRUE(c.has_reasoning);
  EXPECT_TRUE(c.has_answer);
  EXPECT_EQ(c.output_chars, 5 + 3 + 3);
  EXPECT_EQ(c.content, "ans");
  EXPECT_FALSE(c.completed);  // no status
}

TEST(ResponsesBody, EmptyOutputIsNotOutput) {
  const DecodedChunk c = decode("", R"({"object":"response","status":"completed","output":[]})");
  EXPECT_TRUE(c.valid_json);
  EXPECT_FALSE(c.has_output);
  EXPECT_EQ(c.output_chars, 0);
  EXPECT_TRUE(c.completed);
}

TEST(ResponsesBody, HttpErrorBodies) {
  DecodedChunk c =
      decode("", R"({"error":{"message":"Invalid 'input'","type":"invalid_request_error",
      "param":"input","code":null}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "Invalid 'input'");
  c = decode("",
             R"({"object":"error","message":"model not found","type":"NotFoundError","code":404})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "model not found");
  c = decode("", R"({"error":{"code":"bad"}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "bad");
}

// One test per stream event type.

TEST(ResponsesEvents, OutputTextDelta) {
  const DecodedChunk c = decode("response.output_text.delta",
                                R"({"type":"response.output_text.delta","sequence_number":4,
      "item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hello world","logprobs":[]})",
                                true);
  EXPECT_TRUE(c.valid_json);
  EXPECT_TRUE(c.has_output);
  EXPECT_TRUE(c.has_answer);
  EXPECT_FALSE(c.has_reasoning);
  EXPECT_EQ(c.output_chars, 11);
  EXPECT_EQ(c.content, "Hello world");
  EXPECT_FALSE(c.has_usage);
  EXPECT_FALSE(c.completed);
  EXPECT_TRUE(c.finish_reason.empty());
  EXPECT_TRUE(c.response_id.empty());
}

TEST(ResponsesEvents, ContentIsCollectedOnlyWhenWanted) {
  const DecodedChunk c = decode("", R"({"type":"response.output_text.delta","delta":"Hi"})");
  EXPECT_TRUE(c.has_answer);
  EXPECT_EQ(c.output_chars, 2);
  EXPECT_TRUE(c.content.empty());
}

TEST(ResponsesEvents, RefusalAndFunctionArgumentsAreAnswers) {
  for (const char* type : {"response.refusal.delta", "response.function_call_arguments.delta"}) {
    const std::string data = std::string(R"({"type":")") + type + R"(","delta":"abc"})";
    const DecodedChunk c = decode(type, data, true);
    EXPECT_TRUE(c.has_answer) << type;
    EXPECT_FALSE(c.has_reasoning) << type;
    EXPECT_EQ(c.output_chars, 3) << type;
    EXPECT_EQ(c.content, "abc") << type;
  }
}

TEST(ResponsesEvents, ReasoningDeltasAreNotAnswers) {
  for (const char* type : {"response.reasoning_text.delta", "response.reasoning_summary_text.delta",
                           "response.reasoning.delta"}) {
    const std::string data = std::string(R"({"type":")") + type + R"(","delta":"hmm, ok"})";
    const DecodedChunk c = decode(type, data, true);
    EXPECT_TRUE(c.has_output) << type;
    EXPECT_TRUE(c.has_reasoning) << type;
    EXPECT_FALSE(c.has_answer) << type;
    EXPECT_EQ(c.output_chars, 7) << type;
    EXPECT_TRUE(c.content.empty()) << type;
  }
}

TEST(ResponsesEvents, CreatedAndInProgressCarryOnlyTheId) {
  for (const char* type : {"response.created", "response.in_progress"}) {
    const std::string data = std::string(R"({"type":")") + type +
                             R"(","response":{"id":"resp_9","status":"in_progress","output":[
        {"type":"message","content":[{"type":"output_text","text":"not counted"}]}],
        "usage":{"input_tokens":3,"output_tokens":0}}})";
    const DecodedChunk c = decode(type, data, true);
    EXPECT_EQ(c.response_id, "resp_9") << type;
    EXPECT_FALSE(c.has_output) << type;
    EXPECT_FALSE(c.has_usage) << type;
    EXPECT_FALSE(c.completed) << type;
    EXPECT_TRUE(c.content.empty()) << type;
  }
}

TEST(ResponsesEvents, ResponseIdOnlyWhenWanted) {
  DecodedChunk c;
  c.want_response_id = false;
  decode_responses_event("", R"({"type":"response.created","response":{"id":"resp_9"}})", c);
  EXPECT_TRUE(c.valid_json);
  EXPECT_TRUE(c.response_id.empty());
}

TEST(ResponsesEvents, Completed) {
  const DecodedChunk c = decode("response.completed", R"({"type":"response.completed",
      "response":{"id":"resp_2","status":"completed","output":[{"type":"message","content":[
      {"type":"output_text","text":"full text again"}]}],"usage":{"input_tokens":10,
      "input_tokens_details":{"cached_tokens":4},"output_tokens":20,
      "output_tokens_details":{"reasoning_tokens":5},"total_tokens":30}}})",
                                true);
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "stop");
  EXPECT_FALSE(c.has_output);  // the deltas already carried it
  EXPECT_TRUE(c.content.empty());
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 10);
  EXPECT_EQ(c.completion_tokens, 20);
  EXPECT_EQ(c.cached_tokens, 4);
  EXPECT_EQ(c.reasoning_tokens, 5);
  EXPECT_EQ(c.response_id, "resp_2");
  EXPECT_FALSE(c.has_error);
}

TEST(ResponsesEvents, CompletedWithoutUsage) {
  const DecodedChunk c =
      decode("", R"({"type":"response.completed","response":{"id":"r","usage":null}})");
  EXPECT_TRUE(c.completed);
  EXPECT_FALSE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, -1);
  EXPECT_EQ(c.completion_tokens, -1);
}

TEST(ResponsesEvents, CompletedWithUsageFirstAndFloats) {
  const DecodedChunk c = decode("", R"({"response":{"usage":{"output_tokens":7.0,
      "input_tokens":1.2e1,"output_tokens_details":{"reasoning_tokens":2.0}},"id":"r"},
      "type":"response.completed"})");
  EXPECT_TRUE(c.completed);
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 12);
  EXPECT_EQ(c.completion_tokens, 7);
  EXPECT_EQ(c.reasoning_tokens, 2);
  EXPECT_EQ(c.cached_tokens, -1);
}

TEST(ResponsesEvents, ChatStyleUsageNamesAreRead) {
  const DecodedChunk c = decode("", R"({"type":"response.completed","response":{"usage":{
      "prompt_tokens":5,"completion_tokens":6,"prompt_tokens_details":{"cached_tokens":1}}}})");
  EXPECT_EQ(c.prompt_tokens, 5);
  EXPECT_EQ(c.completion_tokens, 6);
  EXPECT_EQ(c.cached_tokens, 1);
}

TEST(ResponsesEvents, IncompleteReasons) {
  DecodedChunk c = decode("", R"({"type":"response.incomplete","response":{"status":"incomplete",
      "incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":1,"output_tokens":2}}})");
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "length");
  EXPECT_EQ(c.completion_tokens, 2);
  c = decode("", R"({"type":"response.incomplete","response":{
      "incomplete_details":{"reason":"content_filter"}}})");
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "content_filter");
  EXPECT_FALSE(c.has_usage);
  c = decode("response.incomplete", R"({"response":{"incomplete_details":null}})");
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(c.finish_reason, "incomplete");
}

TEST(ResponsesEvents, FailedMessageFallsBackToCodeThenExcerpt) {
  DecodedChunk c = decode("", R"({"type":"response.failed","response":{"id":"r","status":"failed",
      "error":{"code":"server_error","message":"it broke"},"usage":{"input_tokens":3,"output_tokens":0}}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "it broke");
  EXPECT_TRUE(c.has_usage);
  EXPECT_EQ(c.prompt_tokens, 3);
  EXPECT_FALSE(c.completed);
  c = decode("", R"({"type":"response.failed","response":{"error":{"code":"server_error"}}})");
  EXPECT_EQ(c.error_message, "server_error");
  c = decode("", R"({"type":"response.failed","response":{"error":null}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_NE(c.error_message.find("response.failed"), std::string::npos) << c.error_message;
}

TEST(ResponsesEvents, ErrorEventShapes) {
  DecodedChunk c = decode("error", R"({"type":"error","code":"rate_limit_exceeded",
      "message":"slow down","param":null,"sequence_number":3})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "slow down");
  c = decode("error", R"({"type":"error","error":{"type":"invalid_request_error","code":"x",
      "message":"nested message","param":null},"sequence_number":1})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "nested message");
  c = decode("error", R"({"code":500})");  // the event name says what it is
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "500");
  c = decode("error", R"({})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "{}");
}

TEST(ResponsesEvents, ErrorObjectInAnyEventIsAnError) {
  const DecodedChunk c = decode("", R"({"error":{"message":"overloaded"}})");
  EXPECT_TRUE(c.has_error);
  EXPECT_EQ(c.error_message, "overloaded");
  EXPECT_FALSE(c.has_output);
}

TEST(ResponsesEvents, OtherEventsAreOnlyValidJson) {
  const char* const kEvents[] = {
      R"({"type":"response.output_item.added","item":{"type":"message","content":[{"type":"output_text","text":"x"}]}})",
      R"({"type":"response.content_part.added","part":{"type":"output_text","text":"x"}})",
      R"({"type":"response.output_text.done","text":"the whole answer"})",
      R"({"type":"response.reasoning_summary_text.done","text":"the whole summary"})",
      R"({"type":"response.function_call_arguments.done","arguments":"{}"})",
      R"({"type":"response.audio.delta","delta":"AAAA"})",
      R"({"type":"something.new","delta":"x","usage":{"input_tokens":1}})",
  };
  for (const char* data : kEvents) {
    const DecodedChunk c = decode("", data, true);
    EXPECT_TRUE(c.valid_json) << data;
    EXPECT_FALSE(c.has_output) << data;
    EXPECT_EQ(c.output_chars, 0) << data;
    EXPECT_TRUE(c.content.empty()) << data;
    EXPECT_FALSE(c.has_usage) << data;
    EXPECT_FALSE(c.completed) << data;
    EXPECT_FALSE(c.has_error) << data;
  }
}

// Tolerance.

TEST(ResponsesTolerance, EventNameWhenDataHasNoType) {
  DecodedChunk c = decode("response.output_text.delta", R"({"delta":"abc"})");
  EXPECT_TRUE(c.has_answer);
  EXPECT_EQ(c.output_chars, 3);
  c = decode("response.reasoning_text.delta", R"({"delta":"abc"})");
  EXPECT_TRUE(c.has_reasoning);
}

TEST(ResponsesTolerance, DataTypeWinsOverEventName) {
  const DecodedChunk c = decode("response.output_text.delta",
                                R"({"type":"response.reasoning_text.delta","delta":"abc"})");
  EXPECT_TRUE(c.has_reasoning);
  EXPECT_FALSE(c.has_answer);
}

TEST(ResponsesTolerance, TypeAfterDelta) {
  const DecodedChunk c = decode(
      "", R"({"delta":"late type","item_id":"m","type":"response.output_text.delta"})", true);
  EXPECT_TRUE(c.has_answer);
  EXPECT_EQ(c.output_chars, 9);
  EXPECT_EQ(c.content, "late type");
}

TEST(ResponsesTolerance, UnicodeEscapesCountAsOneCodePoint) {
  const DecodedChunk c =
      decode("", R"({"type":"response.output_text.delta","delta":"caf\u00e9 \ud83d\ude00"})", true);
  EXPECT_TRUE(c.valid_json);
  EXPECT_EQ(c.output_chars, 6);
  EXPECT_EQ(c.content, "café 😀");
}

TEST(ResponsesTolerance, EmptyOrMissingDeltaIsNotOutput) {
  for (const char* data : {R"({"type":"response.output_text.delta","delta":""})",
                           R"({"type":"response.output_text.delta"})",
                           R"({"type":"response.output_text.delta","delta":null})",
                           R"({"type":"response.reasoning_text.delta","delta":""})"}) {
    const DecodedChunk c = decode("", data, true);
    EXPECT_TRUE(c.valid_json) << data;
    EXPECT_FALSE(c.has_output) << data;
    EXPECT_FALSE(c.has_answer) << data;
    EXPECT_FALSE(c.has_reasoning) << data;
    EXPECT_TRUE(c.content.empty()) << data;
  }
}

TEST(ResponsesTolerance, RepeatedDeltaKeyKeepsTheLast) {
  const DecodedChunk c =
      decode("", R"({"delta":"first","type":"response.output_text.delta","delta":"2nd"})", true);
  EXPECT_EQ(c.output_chars, 3);
  EXPECT_EQ(c.content, "2nd");
}

TEST(ResponsesTolerance, NotAJsonObject) {
  for (const char* data :
       {"", "[DONE]", "[]", R"([{"type":"response.output_text.delta","delta":"x"}])", "42",
        R"("text")", "null", R"({"type":"response.output_text.delta","delta":"x")",
        R"({"type":"response.output_text.delta","delta":"x"} trailing)", "{\"delta\":\"\xff\"}"}) {
    DecodedChunk c = decode("response.output_text.delta", data, true);
    EXPECT_FALSE(c.valid_json) << data;
    EXPECT_FALSE(c.has_output) << data;
    EXPECT_FALSE(c.has_error) << data;
    EXPECT_TRUE(c.content.empty()) << data;
  }
}

TEST(ResponsesTolerance, DeepNestingIsTolerated) {
  std::string data = R"({"type":"response.output_text.delta","x":)";
  for (int i = 0; i < 40; ++i) data += R"({"delta":[)";
  data += "1";
  for (int i = 0; i < 40; ++i) data += "]}";
  data += R"(,"delta":"ok"})";
  const DecodedChunk c = decode("", data);
  EXPECT_TRUE(c.valid_json);
  EXPECT_EQ(c.output_chars, 2);
}

TEST(ResponsesTolerance, ReusedOutputIsCleared) {
  DecodedChunk c;
  c.want_content = true;
  decode_responses_event("", R"({"type":"response.completed","response":{"id":"r",
      "usage":{"input_tokens":1,"output_tokens":2}}})",
                         c);
  ASSERT_TRUE(c.completed);
  decode_responses_event("", R"({"type":"response.output_text.delta","delta":"x"})", c);
  EXPECT_FALSE(c.completed);
  EXPECT_FALSE(c.has_usage);
  EXPECT_TRUE(c.finish_reason.empty());
  EXPECT_TRUE(c.response_id.empty());
  EXPECT_EQ(c.content, "x");
  EXPECT_TRUE(c.want_content);
  decode_responses_event("", "not json", c);
  EXPECT_FALSE(c.valid_json);
  EXPECT_TRUE(c.content.empty());
  EXPECT_TRUE(c.want_content);
}

}  // namespace
}  // namespace llmperf

// Tests for the incremental SSE parser: recorded server transcripts fed whole, split at every byte
// offset, one byte at a time and at random cut points, plus one direct test per parsing rule.
#include "protocol/sse_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace llmperf {
namespace {

// An SseEvent that owns its bytes, so it outlives the callback.
struct OwnedEvent {
  std::string event;        // `event:` value
  std::string data;         // joined `data:` lines
  std::string id;           // `id:` value
  std::string other_field;  // first non-standard field name
  std::string other_value;  // its value
  bool has_data = false;    // at least one `data` line

  bool operator==(const OwnedEvent&) const = default;
};

void PrintTo(const OwnedEvent& e, std::ostream* os) {
  *os << "{event='" << e.event << "' data='" << e.data << "' id='" << e.id << "' other='"
      << e.other_field << "':'" << e.other_value << "' has_data=" << e.has_data << "}";
}

// Everything observable after parsing one stream.
struct ParseResult {
  std::vector<OwnedEvent> events;  // dispatched events in order
  int64_t retry_ms = -1;           // parser's retry_ms() at the end
  uint64_t comment_lines = 0;      // parser's comment_lines() at the end

  bool operator==(const ParseResult&) const = default;
};

void PrintTo(const ParseResult& r, std::ostream* os) {
  *os << "retry_ms=" << r.retry_ms << " comments=" << r.comment_lines << " events=[";
  for (const OwnedEvent& e : r.events) {
    PrintTo(e, os);
    *os << " ";
  }
  *os << "]";
}

// Parses `text` fed as the slices delimited by `cuts` (sorted offsets), then flushes.
ParseResult parse_with_cuts(std::string_view text, const std::vector<size_t>& cuts) {
  ParseResult result;
  SseParser parser;
  auto collect = [&result](const SseEvent& e) {
    result.events.push_back(OwnedEvent{std::string(e.event), std::string(e.data), std::string(e.id),
                                       std::string(e.other_field), std::string(e.other_value),
                                       e.has_data});
  };
  size_t begin = 0;
  for (const size_t cut : cuts) {
    parser.feed(text.data() + begin, cut - begin, collect);
    begin = cut;
  }
  parser.feed(text.data() + begin, text.size() - begin, collect);
  parser.flush(collect);
  result.retry_ms = parser.retry_ms();
  result.comment_lines = parser.comment_lines();
  return result;
}

ParseResult parse_whole(std::string_view text) { return parse_with_cuts(text, {}); }

std::string read_fixture(const std::string& name) {
  const std::string path = std::string(LLMPERF_FIXTURES_DIR) + "/sse/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

const std::vector<std::string>& fixture_names() {
  static const std::vector<std::string> kNames = {
      "vllm_chat.sse",          "sglang_chat.sse",     "tgi_chat.sse",
      "llamacpp_chat.sse",      "crlf_stream.sse",     "cr_only_stream.sse",
      "keepalive_comments.sse", "event_id_retry.sse",  "multiline_data.sse",
      "no_trailing_blank.sse",  "error_midstream.sse", "chinese_content.sse",
  };
  return kNames;
}

TEST(SseTranscripts, EveryFixtureFileIsListed) {
  std::set<std::string> on_disk;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(LLMPERF_FIXTURES_DIR) + "/sse")) {
    if (entry.path().extension() == ".sse") on_disk.insert(entry.path().filename().string());
  }
  const std::set<std::string> listed(fixture_names().begin(), fixture_names().end());
  EXPECT_EQ(on_disk, listed);
}

class SseTranscriptTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SseTranscriptTest, SameEventsAtEveryTwoWaySplit) {
  const std::string text = read_fixture(GetParam());
  ASSERT_FALSE(text.empty());
  const ParseResult whole = parse_whole(text);
  ASSERT_FALSE(whole.events.empty());
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    ASSERT_EQ(parse_with_cuts(text, {cut}), whole) << "split at byte " << cut;
  }
}

TEST_P(SseTranscriptTest, SameEventsOneByteAtATime) {
  const std::string text = read_fixture(GetParam());
  std::vector<size_t> cuts(text.size());
  for (size_t i = 0; i < cuts.size(); ++i) cuts[i] = i;
  EXPECT_EQ(parse_with_cuts(text, cuts), parse_whole(text));
}

TEST_P(SseTranscriptTest, SameEventsAtRandomMultiWaySplits) {
  const std::string text = read_fixture(GetParam());
  const ParseResult whole = parse_whole(text);
  std::mt19937 rng(12345);  // fixed seed: the same cuts on every run
  std::uniform_int_distribution<size_t> offset(0, text.size());
  std::uniform_int_distribution<int> pieces(2, 12);
  for (int round = 0; round < 200; ++round) {
    std::vector<size_t> cuts(static_cast<size_t>(pieces(rng)));
    for (size_t& cut : cuts) cut = offset(rng);
    std::sort(cuts.begin(), cuts.end());
    ASSERT_EQ(parse_with_cuts(text, cuts), whole) << "round " << round;
  }
}

// Test names are the fixture names without extension.
std::string fixture_test_name(const ::testing::TestParamInfo<std::string>& param) {
  return param.param.substr(0, param.param.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SseTranscriptTest, ::testing::ValuesIn(fixture_names()),
                         fixture_test_name);

// Hand-written expectations for the whole-transcript parse.

TEST(SseTranscripts, VllmChat) {
  const ParseResult r = parse_whole(read_fixture("vllm_chat.sse"));
  ASSERT_EQ(r.events.size(), 10u);
  EXPECT_NE(r.events[0].data.find(R"("role":"assistant")"), std::string::npos);
  EXPECT_NE(r.events[8].data.find(R"("choices":[])"), std::string::npos);
  EXPECT_NE(r.events[8].data.find(R"("completion_tokens":7)"), std::string::npos);
  EXPECT_EQ(r.events[9].data, "[DONE]");
  for (const OwnedEvent& e : r.events) {
    EXPECT_TRUE(e.has_data);
    EXPECT_EQ(e.event, "");
    EXPECT_EQ(e.other_field, "");
  }
}

TEST(SseTranscripts, SglangAndLlamaCppCounts) {
  EXPECT_EQ(parse_whole(read_fixture("sglang_chat.sse")).events.size(), 10u);
  const ParseResult llama = parse_whole(read_fixture("llamacpp_chat.sse"));
  ASSERT_EQ(llama.events.size(), 6u);
  EXPECT_EQ(llama.events[0].data.rfind(R"({"choices":[{"finish_reason":null)", 0), 0u);
}

TEST(SseTranscripts, TgiDataWithoutSpace) {
  const ParseResult r = parse_whole(read_fixture("tgi_chat.sse"));
  ASSERT_EQ(r.events.size(), 7u);
  EXPECT_EQ(r.events[0].data.front(), '{');
  EXPECT_EQ(r.events[6].data, "[DONE]");
}

TEST(SseTranscripts, CrlfAndCrOnlyLineEnds) {
  const ParseResult crlf = parse_whole(read_fixture("crlf_stream.sse"));
  ASSERT_EQ(crlf.events.size(), 6u);
  EXPECT_EQ(crlf.comment_lines, 1u);
  for (const OwnedEvent& e : crlf.events) EXPECT_EQ(e.data.find('\r'), std::string::npos);
  EXPECT_EQ(crlf.events[4].event, "note");
  EXPECT_EQ(crlf.events[4].id, "42");
  EXPECT_EQ(crlf.events[4].data, "line one\nline two");
  EXPECT_EQ(crlf.events[5].data, "[DONE]");

  const ParseResult cr = parse_whole(read_fixture("cr_only_stream.sse"));
  ASSERT_EQ(cr.events.size(), 3u);
  EXPECT_NE(cr.events[1].data.find(R"("content":" beta")"), std::string::npos);
  EXPECT_EQ(cr.events[2].data, "[DONE]");
}

TEST(SseTranscripts, KeepAliveComments) {
  const ParseResult r = parse_whole(read_fixture("keepalive_comments.sse"));
  EXPECT_EQ(r.events.size(), 3u);
  EXPECT_EQ(r.comment_lines, 5u);
}

TEST(SseTranscripts, EventIdRetry) {
  const ParseResult r = parse_whole(read_fixture("event_id_retry.sse"));
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_EQ(r.retry_ms, 3000);
  EXPECT_EQ(r.events[0].event, "message_start");
  EXPECT_EQ(r.events[0].id, "1");
  EXPECT_EQ(r.events[1].event, "content_block_delta");
  EXPECT_EQ(r.events[1].data, R"({"type":"delta","text":"Hi"})");
  EXPECT_EQ(r.events[2].event, "ping");
  EXPECT_EQ(r.events[2].id, "3");
  EXPECT_EQ(r.events[3].event, "message_stop");
  EXPECT_EQ(r.events[3].id, "");
}

TEST(SseTranscripts, MultilineData) {
  const ParseResult r = parse_whole(read_fixture("multiline_data.sse"));
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_EQ(r.events[0].data,
            "{\"choices\":[{\"index\":0,\n  \"delta\":{\"content\":\"multi\"}}]}");
  EXPECT_EQ(r.events[1].data, "first\n\nthird");
  EXPECT_EQ(r.events[2].data, "");
  EXPECT_TRUE(r.events[2].has_data);
  EXPECT_EQ(r.events[3].data, "[DONE]");
}

TEST(SseTranscripts, NoTrailingBlankLineNeedsFlush) {
  const std::string text = read_fixture("no_trailing_blank.sse");
  SseParser parser;
  std::vector<std::string> data;
  auto collect = [&data](const SseEvent& e) { data.emplace_back(e.data); };
  parser.feed(text.data(), text.size(), collect);
  EXPECT_EQ(data.size(), 2u);
  parser.flush(collect);
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(data[2], "[DONE]");
}

TEST(SseTranscripts, ErrorLineMidStream) {
  const ParseResult r = parse_whole(read_fixture("error_midstream.sse"));
  ASSERT_EQ(r.events.size(), 4u);
  const OwnedEvent& error = r.events[2];
  EXPECT_FALSE(error.has_data);
  EXPECT_EQ(error.other_field, "error");
  EXPECT_EQ(error.other_value,
            R"({"message":"CUDA out of memory","type":"InternalServerError","code":500})");
  EXPECT_EQ(r.events[3].data, "[DONE]");
}

TEST(SseTranscripts, ChineseContent) {
  const ParseResult r = parse_whole(read_fixture("chinese_content.sse"));
  ASSERT_EQ(r.events.size(), 7u);
  EXPECT_NE(r.events[4].data.find("很高兴为您服务。"), std::string::npos);
}

// Direct tests, one per rule.

ParseResult parse_slices(std::initializer_list<std::string_view> slices) {
  std::string text;
  std::vector<size_t> cuts;
  for (const std::string_view slice : slices) {
    if (!text.empty()) cuts.push_back(text.size());
    text.append(slice);
  }
  return parse_with_cuts(text, cuts);
}

std::vector<std::string> data_of(const ParseResult& r) {
  std::vector<std::string> out;
  for (const OwnedEvent& e : r.events) out.push_back(e.data);
  return out;
}

using Strings = std::vector<std::string>;

TEST(SseParser, LfCrLfAndCrLineEnds) {
  EXPECT_EQ(data_of(parse_slices({"data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\r\n"})),
            (Strings{"a", "b", "c", "d"}));
}

TEST(SseParser, CrAtSliceEndThenLfIsOneLineEnd) {
  // If the '\n' opening the second slice were a line end of its own, "a" would be dispatched
  // alone by a spurious blank line.
  EXPECT_EQ(data_of(parse_slices({"data: a\r", "\ndata: b\r\n\r\n"})), (Strings{"a\nb"}));
  EXPECT_EQ(data_of(parse_slices({"data: a\r", "\n\r\n"})), (Strings{"a"}));
  EXPECT_EQ(data_of(parse_slices({"data: a\r", "", "\n", "data: b\r", "\r"})), (Strings{"a\nb"}));
}

TEST(SseParser, LoneCrAtSliceEnd) {
  EXPECT_EQ(data_of(parse_slices({"data: a\r", "data: b\r\r"})), (Strings{"a\nb"}));
  EXPECT_EQ(data_of(parse_slices({"data: a\r", "\r"})), (Strings{"a"}));
}

TEST(SseParser, MultiLineDataJoinedWithNewline) {
  EXPECT_EQ(data_of(parse_slices({"data: one\ndata: two\ndata: three\n\n"})),
            (Strings{"one\ntwo\nthree"}));
}

TEST(SseParser, StripsOnlyOneSpaceAfterColon) {
  EXPECT_EQ(data_of(parse_slices({"data:x\n\ndata:  two\n\ndata: \n\n"})),
            (Strings{"x", " two", ""}));
}

TEST(SseParser, ValueMayContainColons) {
  EXPECT_EQ(data_of(parse_slices({"data: {\"a\":\"b:c\"}\n\n"})), (Strings{R"({"a":"b:c"})"}));
}

TEST(SseParser, CommentsAreCountedNotDispatched) {
  const ParseResult r = parse_slices({": ping\n:\n\n: hello: world\ndata: x\n\n"});
  EXPECT_EQ(data_of(r), (Strings{"x"}));
  EXPECT_EQ(r.comment_lines, 3u);
}

TEST(SseParser, EventAndIdBelongToTheirEvent) {
  const ParseResult r = parse_slices({"event: a\nid: 7\ndata: x\n\ndata: y\n\n"});
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[0].event, "a");
  EXPECT_EQ(r.events[0].id, "7");
  EXPECT_EQ(r.events[1].event, "");
  EXPECT_EQ(r.events[1].id, "");
}

TEST(SseParser, BlankLineWithoutDataDiscardsEventName) {
  const ParseResult r = parse_slices({"event: stale\nid: 1\n\ndata: x\n\n"});
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].event, "");
  EXPECT_EQ(r.events[0].id, "");
}

TEST(SseParser, IdWithNulIsIgnored) {
  const std::string text("id: a\0b\ndata: x\n\n", 17);
  const ParseResult r = parse_whole(text);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].id, "");
}

TEST(SseParser, RetryAcceptsDigitsOnly) {
  EXPECT_EQ(parse_slices({"retry: 1500\n"}).retry_ms, 1500);
  EXPECT_EQ(parse_slices({"retry: 1500\nretry: -5\n"}).retry_ms, 1500);
  EXPECT_EQ(parse_slices({"retry: 1.5\n"}).retry_ms, -1);
  EXPECT_EQ(parse_slices({"retry:\n"}).retry_ms, -1);
  EXPECT_EQ(parse_slices({"retry: 99999999999999999999999\n"}).retry_ms, -1);
  EXPECT_TRUE(parse_slices({"retry: 10\n\n"}).events.empty());
}

TEST(SseParser, LineWithoutColonIsFieldWithEmptyValue) {
  const ParseResult r = parse_slices({"data\n\ndata\ndata\n\nstatus\n\n"});
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_TRUE(r.events[0].has_data);
  EXPECT_EQ(r.events[0].data, "");
  EXPECT_EQ(r.events[1].data, "\n");
  EXPECT_FALSE(r.events[2].has_data);
  EXPECT_EQ(r.events[2].other_field, "status");
  EXPECT_EQ(r.events[2].other_value, "");
}

TEST(SseParser, NonStandardFieldDispatchesAndKeepsTheFirst) {
  const ParseResult r =
      parse_slices({"error: {\"message\":\"boom\"}\nwarning: second\n\ndata: x\nerror: e\n\n"});
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[0].other_field, "error");
  EXPECT_EQ(r.events[0].other_value, R"({"message":"boom"})");
  EXPECT_FALSE(r.events[0].has_data);
  EXPECT_EQ(r.events[1].data, "x");
  EXPECT_EQ(r.events[1].other_field, "error");
  EXPECT_EQ(r.events[1].other_value, "e");
}

TEST(SseParser, EventAndIdAloneDoNotDispatch) {
  EXPECT_TRUE(parse_slices({"event: ping\nid: 4\n\n"}).events.empty());
}

TEST(SseParser, FlushDispatchesUnterminatedEvent) {
  EXPECT_EQ(data_of(parse_slices({"data: a\n\ndata: b"})), (Strings{"a", "b"}));
  EXPECT_EQ(data_of(parse_slices({"data: a\n\ndata: b\n"})), (Strings{"a", "b"}));
  EXPECT_EQ(data_of(parse_slices({"data: a\r"})), (Strings{"a"}));
  EXPECT_TRUE(parse_slices({"data: a\n\n"}).events.size() == 1u);
  EXPECT_TRUE(parse_slices({": only a comment"}).events.empty());
}

TEST(SseParser, FlushEndsTheStreamAndParserIsReusable) {
  SseParser parser;
  std::vector<std::string> data;
  auto collect = [&data](const SseEvent& e) { data.emplace_back(e.data); };
  const std::string_view first = "data: a\r";
  parser.feed(first.data(), first.size(), collect);
  parser.flush(collect);
  const std::string_view second = "\ndata: b\n\n";  // new stream: its '\n' is a blank line
  parser.feed(second.data(), second.size(), collect);
  parser.flush(collect);
  EXPECT_EQ(data, (Strings{"a", "b"}));
}

TEST(SseParser, ResetForgetsPartialLineAndCounters) {
  SseParser parser;
  std::vector<std::string> data;
  auto collect = [&data](const SseEvent& e) { data.emplace_back(e.data); };
  const std::string_view junk = ": c\nretry: 5\ndata: half-a-li";
  parser.feed(junk.data(), junk.size(), collect);
  parser.reset();
  EXPECT_EQ(parser.retry_ms(), -1);
  EXPECT_EQ(parser.comment_lines(), 0u);
  const std::string_view next = "ne\ndata: fresh\n\n";
  parser.feed(next.data(), next.size(), collect);
  EXPECT_EQ(data, (Strings{"fresh"}));
}

TEST(SseParser, LongLineAcrossManySlices) {
  const std::string payload(100000, 'x');
  const std::string text = "data: " + payload + "\n\n";
  std::vector<size_t> cuts;
  for (size_t cut = 7; cut < text.size(); cut += 997) cuts.push_back(cut);
  const ParseResult r = parse_with_cuts(text, cuts);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].data, payload);
}

TEST(SseParser, ViewsPointAtCompleteData) {
  SseParser parser;
  size_t calls = 0;
  const std::string_view text = "event: e\ndata: 1\ndata: 2\n\n";
  parser.feed(text.data(), text.size(), [&calls](const SseEvent& e) {
    ++calls;
    EXPECT_EQ(e.event, "e");
    EXPECT_EQ(e.data, "1\n2");
    EXPECT_TRUE(e.has_data);
  });
  EXPECT_EQ(calls, 1u);
}

}  // namespace
}  // namespace llmperf

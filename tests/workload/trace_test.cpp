// Tests for trace replay's workload stage: reading Mooncake and EvalScope workload traces
// (malformed lines, ordering, rebasing, limits, timestamps), the schedule, and the prompts made
// from hash ids, against a fake tokenizer written here (ASCII words cut into pieces of at most 6
// bytes, a leading space belonging to the word; '.' a token of its own; count() adds a 5-token
// template). Token counts add up across a space, so the pieces of a prompt show its blocks.
#include "workload/replay/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "workload/utf8.h"

namespace llmperf {
namespace {

constexpr int64_t kOverhead = 5;  // tokens the fake's template adds to every prompt

class FakeTokenizer : public Tokenizer {
 public:
  explicit FakeTokenizer(bool decoder = true) : decoder_(decoder) { info_.exact = true; }

  const TokenizerInfo& info() const override { return info_; }

  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    ++encode_calls;
    largest_call = std::max(largest_call, texts.size());
    std::vector<Encoding> out;
    for (const std::string& text : texts) {
      Encoding e;
      size_t end = 0;
      for (const std::string& piece : pieces(text)) {
        auto [it, inserted] = vocab_.try_emplace(piece, 1000 + static_cast<int64_t>(vocab_.size()));
        if (inserted) by_id_[it->second] = piece;
        e.ids.push_back(it->second);
        end += piece.size();
        e.ends.push_back(end);
      }
      out.push_back(std::move(e));
    }
    return out;
  }

  bool can_decode() const override { return decoder_; }

  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    EXPECT_TRUE(decoder_);
    largest_call = std::max(largest_call, ids.size());
    std::vector<std::string> out;
    for (const auto& list : ids) {
      std::string text;
      for (const int64_t id : list) text += by_id_.at(id);
      if (strip_leading_space && text.starts_with(' ')) text.erase(0, 1);
      out.push_back(std::move(text));
    }
    return out;
  }

  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    ++count_calls;
    largest_call = std::max(largest_call, prompts.size());
    std::vector<int64_t> out;
    for (const std::string& prompt : prompts) {
      out.push_back(prompt.empty() ? empty_count : counted(prompt));
    }
    return out;
  }

  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    std::vector<int64_t> out;
    for (const std::string& text : texts) out.push_back(static_cast<int64_t>(pieces(text).size()));
    return out;
  }

  static int64_t counted(std::string_view prompt) {
    return kOverhead + static_cast<int64_t>(pieces(prompt).size());
  }

  static std::vector<std::string> pieces(std::string_view text) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
      if (static_cast<unsigned char>(text[i]) >= 0x80 || text[i] == '.') {
        out.emplace_back(text.substr(i, 1));
        ++i;
        continue;
      }
      const size_t start = i;
      if (text[i] == ' ') ++i;
      while (i < text.size() && text[i] != ' ' && text[i] != '.' &&
             static_cast<unsigned char>(text[i]) < 0x80) {
        ++i;
      }
      for (size_t at = start; at < i; at += 6) {
        out.emplace_back(text.substr(at, std::min<size_t>(6, i - at)));
      }
    }
    return out;
  }

  // The text of tokens [from, to) of `text`.
  static std::string tokens_text(std::string_view text, size_t from, size_t to) {
    const std::vector<std::string> all = pieces(text);
    std::string out;
    for (size_t k = from; k < to && k < all.size(); ++k) out += all[k];
    return out;
  }

  int encode_calls = 0;
  int count_calls = 0;
  size_t largest_call = 0;
  int64_t empty_count = kOverhead;   // what count("") answers (a quirk when not kOverhead)
  bool strip_leading_space = false;  // decode() drops a leading space, as SentencePiece's does

 private:
  bool decoder_;
  TokenizerInfo info_;
  std::map<std::string, int64_t> vocab_;
  std::map<int64_t, std::string> by_id_;
};

TraceFile parse(const std::string& text, int64_t limit = INT64_MAX) {
  std::istringstream in(text);
  return parse_trace(in, "t.jsonl", limit);
}

std::string mooncake_line(double timestamp_ms, int64_t input, int64_t output,
                          const std::vector<int64_t>& hash_ids) {
  nlohmann::json line = {{"timestamp", timestamp_ms},
                         {"input_length", input},
                         {"output_length", output},
                         {"hash_ids", hash_ids}};
  return line.dump() + "\n";
}

TraceEntry mooncake(int64_t input, std::vector<int64_t> hash_ids, int64_t line,
                    int64_t output = 8) {
  TraceEntry e;
  e.input_length = input;
  e.output_length = output;
  e.hash_ids = std::move(hash_ids);
  e.line = line;
  return e;
}

TraceBuildOptions options(int64_t block, uint64_t seed = 1, bool token_ids = false) {
  TraceBuildOptions o;
  o.block_tokens = block;
  o.seed = seed;
  o.token_ids = token_ids;
  return o;
}

// ---- reading ----

TEST(TraceRead, MooncakeLinesAreReadAndRebased) {
  const TraceFile file = parse(
      "{\"timestamp\": 1000, \"input_length\": 600, \"output_length\": 20, \"hash_ids\": [1, 2]}\n"
      "{\"timestamp\": 1500.5, \"input_length\": 30, \"output_length\": 7, \"hash_ids\": [1]}\n"
      "{\"timestamp\": 3000, \"input_length\": 9, \"output_length\": 1, \"hash_ids\": []}\n"
      "{\"timestamp\": 3001, \"input_length\": 9, \"output_length\": 1}\n");
  EXPECT_FALSE(file.bodies);
  EXPECT_EQ(file.out_of_order, 0);
  EXPECT_EQ(file.stats.records_read, 4);
  EXPECT_EQ(file.stats.accepted, 4);
  EXPECT_EQ(file.stats.malformed, 0);
  ASSERT_EQ(file.entries.size(), 4u);
  EXPECT_EQ(file.entries[0].offset_ns, 0);
  EXPECT_EQ(file.entries[1].offset_ns, 500'500'000);
  EXPECT_EQ(file.entries[2].offset_ns, 2'000'000'000);
  EXPECT_EQ(file.entries[3].offset_ns, 2'001'000'000);
  EXPECT_EQ(file.entries[0].input_length, 600);
  EXPECT_EQ(file.entries[0].output_length, 20);
  EXPECT_EQ(file.entries[0].hash_ids, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(file.entries[1].hash_ids, (std::vector<int64_t>{1}));
  EXPECT_TRUE(file.entries[2].hash_ids.empty());
  EXPECT_TRUE(file.entries[3].hash_ids.empty());
  for (size_t i = 0; i < file.entries.size(); ++i) {
    EXPECT_EQ(file.entries[i].line, static_cast<int64_t>(i + 1));
    EXPECT_TRUE(file.entries[i].body_json.empty());
  }
}

TEST(TraceRead, MalformedLinesAreSkippedAndCountedWithTheirNumbers) {
  const std::string text =
      mooncake_line(0, 10, 5, {1}) +                                      // 1 ok
      "not json\n"                                                        // 2
      "[1, 2]\n"                                                          // 3
      "{\"input_length\": 10, \"output_length\": 5}\n"                    // 4
      "{\"timestamp\": 1, \"input_length\": -3, \"output_length\": 5}\n"  // 5
      "{\"timestamp\": 1, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": "
      "[1.5]}\n"  // 6
      "{\"timestamp\": 1, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": "
      "\"x\"}\n"                                                                // 7
      "{\"timestamp\": 1, \"input_length\": 0, \"output_length\": 5}\n"         // 8
      "{\"timestamp\": 1, \"input_length\": 10}\n"                              // 9
      "{\"timestamp\": 1, \"input_length\": 10000001, \"output_length\": 5}\n"  // 10
      "\n"                                                                      // 11
      "{\"timestamp\": 1, \"input_length\": 2, \"output_length\": 5, \"hash_ids\": "
      "[1, 2, 3]}\n"                                                         // 12
      "{\"timestamp\": \"1\", \"input_length\": 2, \"output_length\": 5}\n"  // 13
      "{\"timestamp\": 1, \"body\": {\"prompt\": \"x\"}}\n"                  // 14
      "{\"timestamp\": 1, \"input_length\": 10.0, \"output_length\": 5}\n"   // 15
      "   \t\n" +                                                            // 16
      mooncake_line(2, 11, 5, {1, 2});                                       // 17 ok
  const TraceFile file = parse(text);
  EXPECT_EQ(file.stats.records_read, 17);
  EXPECT_EQ(file.stats.accepted, 2);
  EXPECT_EQ(file.stats.skipped_empty, 2);
  EXPECT_EQ(file.stats.malformed, 13);
  EXPECT_EQ(file.stats.malformed_lines, (std::vector<int64_t>{2, 3, 4, 5, 6, 7, 8, 9, 10, 12}));
  EXPECT_EQ(file.stats.first_malformed_reason.rfind("line 2: not valid JSON", 0), 0u)
      << file.stats.first_malformed_reason;
  ASSERT_EQ(file.entries.size(), 2u);
  EXPECT_EQ(file.entries[0].line, 1);
  EXPECT_EQ(file.entries[1].line, 17);
  EXPECT_EQ(file.entries[1].offset_ns, 2'000'000);
}

TEST(TraceRead, EachMalformedLineSaysWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[1]", "not a JSON object"},
      {"{\"timestamp\": 1}", "neither \"body\""},
      {"{\"input_length\": 10, \"output_length\": 5}", "no \"timestamp\""},
      {"{\"timestamp\": 1, \"input_length\": -3, \"output_length\": 5}",
       "\"input_length\" is -3, outside [1, 10000000]"},
      {"{\"timestamp\": 1, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [1, \"a\"]}",
       "hash_ids[1] is not an integer"},
      {"{\"timestamp\": 1, \"input_length\": 2, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}",
       "3 hash_ids for an input_length of 2"},
      {"{\"timestamp\": 1e300, \"input_length\": 2, \"output_length\": 5}",
       "\"timestamp\" is out of range"},
      {"{\"timestamp\": true, \"input_length\": 2, \"output_length\": 5}",
       "\"timestamp\" is not a number"},
      {"{\"timestamp\": 1, \"input_length\": 2, \"output_length\": 5.5}",
       "\"output_length\" is not an integer"},
  };
  for (const auto& [line, reason] : cases) {
    SCOPED_TRACE(line);
    const TraceFile file = parse(line + "\n" + mooncake_line(0, 10, 5, {}));
    EXPECT_EQ(file.stats.malformed, 1);
    EXPECT_NE(file.stats.first_malformed_reason.find("line 1: " + reason), std::string::npos)
        << file.stats.first_malformed_reason;
  }
}

TEST(TraceRead, BomCrlfAndBlankLinesAreIgnored) {
  const TraceFile file = parse("\xEF\xBB\xBF" + mooncake_line(5, 10, 5, {1}) + "\r\n\r\n" +
                               mooncake_line(6, 10, 5, {1}).insert(0, "  "));
  EXPECT_EQ(file.stats.malformed, 0) << file.stats.first_malformed_reason;
  EXPECT_EQ(file.stats.skipped_empty, 2);
  ASSERT_EQ(file.entries.size(), 2u);
  EXPECT_EQ(file.entries[1].line, 4);
  EXPECT_EQ(file.entries[1].offset_ns, 1'000'000);
}

TEST(TraceRead, OutOfOrderLinesAreStableSortedAndCounted) {
  const TraceFile file = parse(mooncake_line(5000, 10, 1, {}) + mooncake_line(1000, 10, 2, {}) +
                               mooncake_line(3000, 10, 3, {}) + mooncake_line(3000, 10, 4, {}) +
                               mooncake_line(2000, 10, 5, {}));
  EXPECT_EQ(file.out_of_order, 2);  // 1000 after 5000, 2000 after 3000
  ASSERT_EQ(file.entries.size(), 5u);
  std::vector<int64_t> lines;
  std::vector<int64_t> offsets;
  for (const TraceEntry& e : file.entries) {
    lines.push_back(e.line);
    offsets.push_back(e.offset_ns);
  }
  EXPECT_EQ(lines, (std::vector<int64_t>{2, 5, 3, 4, 1}));
  EXPECT_EQ(offsets,
            (std::vector<int64_t>{0, 1'000'000'000, 2'000'000'000, 2'000'000'000, 4'000'000'000}));
}

TEST(TraceRead, LimitKeepsTheFirstEntriesOfTheFileAndStopsReading) {
  const TraceFile file = parse("garbage\n" + mooncake_line(300, 10, 1, {}) +
                                   mooncake_line(100, 10, 2, {}) + mooncake_line(200, 10, 3, {}),
                               2);
  EXPECT_EQ(file.stats.records_read, 3);
  EXPECT_EQ(file.stats.accepted, 2);
  ASSERT_EQ(file.entries.size(), 2u);
  EXPECT_EQ(file.entries[0].line, 3);
  EXPECT_EQ(file.entries[1].line, 2);
  EXPECT_EQ(file.entries[1].offset_ns, 200'000'000);
  EXPECT_EQ(file.out_of_order, 1);
  EXPECT_THROW(parse(mooncake_line(0, 1, 1, {}), 0), std::invalid_argument);
}

TEST(TraceRead, NothingUsableIsAnErrorNamingTheFileAndTheFirstBadLine) {
  try {
    parse("\n{\"timestamp\": 1}\nnope\n");
    FAIL() << "no error";
  } catch (const DatasetError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("t.jsonl"), std::string::npos) << what;
    EXPECT_NE(what.find("3 lines read: 1 blank, 2 malformed, first at lines 2, 3"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("line 2: neither"), std::string::npos) << what;
  }
  EXPECT_THROW(parse(""), DatasetError);
}

TEST(TraceRead, ReadsAFileAndNamesAMissingOne) {
  const std::string path = ::testing::TempDir() + "trace_test.jsonl";
  std::ofstream(path) << mooncake_line(7, 10, 1, {4}) << mooncake_line(9, 10, 1, {4});
  const TraceFile file = read_trace(path, 10);
  ASSERT_EQ(file.entries.size(), 2u);
  EXPECT_EQ(file.entries[1].offset_ns, 2'000'000);
  std::remove(path.c_str());
  try {
    read_trace(path, 10);
    FAIL() << "no error";
  } catch (const DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(TraceRead, UnsignedHashIdsKeepTheirBitsAndUnknownKeysAreIgnored) {
  const TraceFile file = parse(
      "{\"timestamp\": 1, \"input_length\": 9, \"output_length\": 1, \"chat_id\": 3, "
      "\"hash_ids\": [18446744073709551615, -1, 9223372036854775807]}\n");
  ASSERT_EQ(file.entries.size(), 1u);
  EXPECT_EQ(file.entries[0].hash_ids, (std::vector<int64_t>{-1, -1, INT64_MAX}));
}

// ---- EvalScope's workload trace ----

TEST(TraceRead, WorkloadTraceBodiesAreKeptWithTheirFields) {
  const TraceFile file = parse(
      "{\"timestamp\": 10, \"body\": {\"model\": \"m\", \"messages\": [{\"role\": \"user\", "
      "\"content\": \"hi\"}], \"temperature\": 0.5}}\n"
      "{\"timestamp\": 12.5, \"body\": \"{\\\"model\\\": \\\"m\\\", \\\"prompt\\\": \\\"yo\\\"}\", "
      "\"request_id\": \"r1\", \"headers\": {\"X-Route\": \"canary\"}, \"completion_tokens\": 7, "
      "\"extra\": 1}\n"
      "{\"timestamp\": \" 11 \", \"body\": {}, \"headers\": null, \"completion_tokens\": null}\n");
  EXPECT_TRUE(file.bodies);
  EXPECT_EQ(file.stats.malformed, 0) << file.stats.first_malformed_reason;
  ASSERT_EQ(file.entries.size(), 3u);
  const TraceEntry& first = file.entries[0];
  EXPECT_EQ(first.offset_ns, 0);
  EXPECT_EQ(first.input_length, -1);
  EXPECT_EQ(first.output_length, -1);
  EXPECT_EQ(nlohmann::json::parse(first.body_json),
            nlohmann::json::parse(R"({"model": "m", "messages": [{"role": "user", "content": "hi"}],
                                      "temperature": 0.5})"));
  EXPECT_EQ(file.entries[1].line, 3);
  EXPECT_EQ(file.entries[1].offset_ns, 1'000'000'000);
  EXPECT_EQ(file.entries[1].body_json, "{}");
  const TraceEntry& last = file.entries[2];
  EXPECT_EQ(last.offset_ns, 2'500'000'000);
  EXPECT_EQ(last.body_json, R"({"model":"m","prompt":"yo"})");
  EXPECT_EQ(last.request_id, "r1");
  ASSERT_EQ(last.headers.size(), 1u);
  EXPECT_EQ(last.headers[0].first, "X-Route");
  EXPECT_EQ(last.headers[0].second, "canary");
  EXPECT_EQ(last.output_length, 7);
  EXPECT_EQ(file.out_of_order, 1);
}

TEST(TraceRead, WorkloadTraceTimestampsMayBeIso8601) {
  const std::string body = ", \"body\": {\"prompt\": \"x\"}}\n";
  const TraceFile file =
      parse("{\"timestamp\": \"2025-01-15T18:00:00+08:00\"" + body +
            "{\"timestamp\": \"2025-01-15T10:00:03.25Z\"" + body +
            "{\"timestamp\": \"2025-01-15 10:00:04\"" + body + "{\"timestamp\": \"2025-01-16\"" +
            body + "{\"timestamp\": \"2024-02-29T00:00:00-0130\"" + body +
            "{\"timestamp\": \"2023-02-29T00:00:00Z\"" + body +
            "{\"timestamp\": \"2025-01-15T25:00:00Z\"" + body + "{\"timestamp\": \"yesterday\"" +
            body + "{\"timestamp\": \"inf\"" + body);
  EXPECT_EQ(file.stats.malformed, 4);
  EXPECT_EQ(file.stats.malformed_lines, (std::vector<int64_t>{6, 7, 8, 9}));
  ASSERT_EQ(file.entries.size(), 5u);
  // 2024-02-29T01:30Z is the earliest.
  EXPECT_EQ(file.entries[0].line, 5);
  const int64_t base = file.entries[1].offset_ns;  // 2025-01-15T10:00:00Z
  EXPECT_EQ(file.entries[1].line, 1);
  EXPECT_EQ(file.entries[2].offset_ns - base, 3'250'000'000);
  EXPECT_EQ(file.entries[3].offset_ns - base, 4'000'000'000);
  EXPECT_EQ(file.entries[4].offset_ns - base, 14 * 3600 * 1'000'000'000LL);
  // 2024-02-29T01:30Z to 2025-01-15T10:00Z: 321 days less 1:30, plus 10 h.
  EXPECT_EQ(base, ((321LL * 24 + 10) * 3600 - 5400) * 1'000'000'000);
}

TEST(TraceRead, MalformedWorkloadTraceLines) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"timestamp\": 1, \"body\": [1]}", "\"body\" is neither an object"},
      {"{\"timestamp\": 1, \"body\": \"[1]\"}", "\"body\" is neither an object"},
      {"{\"timestamp\": 1, \"body\": \"{bad\"}", "\"body\" is neither an object"},
      {"{\"body\": {}}", "no \"timestamp\""},
      {"{\"timestamp\": null, \"body\": {}}", "\"timestamp\" is neither"},
      {"{\"timestamp\": 1, \"body\": {\"__evalscope_headers\": {}}}",
       "\"body\" has EvalScope's reserved key"},
      {"{\"timestamp\": 1, \"body\": {}, \"headers\": {\"a\": 1}}", "header \"a\" is not a string"},
      {"{\"timestamp\": 1, \"body\": {}, \"headers\": []}", "\"headers\" is not an object"},
      {"{\"timestamp\": 1, \"body\": {}, \"request_id\": 5}", "\"request_id\" is not a string"},
      {"{\"timestamp\": 1, \"body\": {}, \"completion_tokens\": 0}", "\"completion_tokens\" is 0"},
  };
  for (const auto& [line, reason] : cases) {
    SCOPED_TRACE(line);
    const TraceFile file = parse(line + "\n{\"timestamp\": 0, \"body\": {}}\n");
    EXPECT_TRUE(file.bodies);
    EXPECT_EQ(file.stats.malformed, 1);
    EXPECT_NE(file.stats.first_malformed_reason.find("line 1: " + reason), std::string::npos)
        << file.stats.first_malformed_reason;
  }
  // The first line of a form decides; a Mooncake line in a workload trace is malformed.
  const TraceFile mixed =
      parse("{\"timestamp\": 0, \"body\": {}}\n" + mooncake_line(1, 10, 5, {1}));
  EXPECT_EQ(mixed.entries.size(), 1u);
  EXPECT_EQ(mixed.stats.first_malformed_reason, "line 2: a Mooncake line in a workload trace");
}

TEST(TraceBodies, PromptsCarryTheBodyAndMatchOutputLengthOnRequest) {
  const TraceFile file = parse(
      "{\"timestamp\": 0, \"body\": {\"messages\": [{\"role\": \"user\", \"content\": \"héllo\"}]},"
      " \"completion_tokens\": 12}\n"
      "{\"timestamp\": 1, \"body\": {\"prompt\": \"abc\", \"response_format\": {\"type\": "
      "\"json_object\"}}, \"completion_tokens\": 3}\n"
      "{\"timestamp\": 2, \"body\": {\"model\": \"m\"}}\n");
  ASSERT_EQ(file.entries.size(), 3u);
  const std::vector<Prompt> plain = make_trace_body_prompts(file.entries, TraceBuildOptions{});
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain[0].body_json, file.entries[0].body_json);
  EXPECT_EQ(plain[0].length, 5);
  EXPECT_EQ(plain[0].target_output_tokens, -1);
  EXPECT_EQ(plain[1].length, 3);
  EXPECT_EQ(plain[2].length, 0);
  EXPECT_TRUE(plain[0].text.empty());

  TraceBuildOptions match;
  match.match_output_length = true;
  const std::vector<Prompt> matched = make_trace_body_prompts(file.entries, match);
  const auto first = nlohmann::json::parse(matched[0].body_json);
  EXPECT_EQ(first.at("max_tokens"), 12);
  EXPECT_EQ(first.at("ignore_eos"), true);
  EXPECT_EQ(matched[0].target_output_tokens, 12);
  const auto second = nlohmann::json::parse(matched[1].body_json);
  EXPECT_EQ(second.at("max_tokens"), 3);
  EXPECT_FALSE(second.contains("ignore_eos"));  // constrained decoding: EvalScope skips it
  EXPECT_EQ(matched[2].body_json, file.entries[2].body_json);
  EXPECT_EQ(matched[2].target_output_tokens, -1);

  EXPECT_THROW(make_trace_body_prompts({mooncake(10, {}, 1)}, match), std::invalid_argument);
}

// ---- schedule ----

TEST(TraceSchedule, OffsetsAreDividedBySpeedup) {
  std::vector<TraceEntry> entries(3);
  entries[0].offset_ns = 0;
  entries[1].offset_ns = 3'000'000'000;
  entries[2].offset_ns = 5'000'000'003;
  EXPECT_EQ(trace_schedule(entries, 1), (std::vector<int64_t>{0, 3'000'000'000, 5'000'000'003}));
  EXPECT_EQ(trace_schedule(entries, 2), (std::vector<int64_t>{0, 1'500'000'000, 2'500'000'002}));
  EXPECT_EQ(trace_schedule(entries, 0.5), (std::vector<int64_t>{0, 6'000'000'000, 10'000'000'006}));
  entries[1].offset_ns = (int64_t{1} << 60) + 1;  // beyond a double's integers: still exact at 1
  EXPECT_EQ(trace_schedule(entries, 1)[1], (int64_t{1} << 60) + 1);
  EXPECT_THROW(trace_schedule(entries, 0), std::invalid_argument);
  EXPECT_THROW(trace_schedule(entries, -1), std::invalid_argument);
  EXPECT_THROW(trace_schedule(entries, std::nan("")), std::invalid_argument);
  EXPECT_THROW(trace_schedule(entries, 1e-12), std::invalid_argument);
}

// ---- prompts ----

TEST(TracePrompts, EqualHashIdsAreIdenticalBlocksAndOthersDiffer) {
  for (const bool decoder : {true, false}) {
    SCOPED_TRACE(decoder ? "decoder" : "offsets");
    FakeTokenizer tokenizer(decoder);
    constexpr int64_t kBlock = 16;
    const int64_t input = kOverhead + 3 * kBlock;  // three whole blocks of text
    const std::vector<TraceEntry> entries = {mooncake(input, {1, 2, 3}, 1),
                                             mooncake(input, {1, 2, 4}, 2),
                                             mooncake(input, {5, 2, 3}, 3)};
    const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock));
    ASSERT_EQ(out.prompts.size(), 3u);
    EXPECT_EQ(out.misses, 0);
    EXPECT_EQ(out.distinct_blocks, 5);
    EXPECT_EQ(out.reused_blocks, 4);
    const auto block = [&](size_t prompt, size_t k) {
      return FakeTokenizer::tokens_text(out.prompts[prompt].text, k * kBlock, (k + 1) * kBlock);
    };
    for (size_t p = 0; p < 3; ++p) {
      EXPECT_EQ(FakeTokenizer::counted(out.prompts[p].text), input);
      EXPECT_EQ(block(p, 0) + block(p, 1) + block(p, 2), out.prompts[p].text);
      for (size_t k = 0; k < 3; ++k) EXPECT_EQ(block(p, k).front(), ' ');
    }
    EXPECT_EQ(block(0, 0), block(1, 0));
    EXPECT_EQ(block(0, 1), block(1, 1));
    EXPECT_EQ(block(0, 1), block(2, 1));
    EXPECT_EQ(block(0, 2), block(2, 2));
    EXPECT_NE(block(0, 2), block(1, 2));
    EXPECT_NE(block(0, 0), block(2, 0));
    EXPECT_NE(block(0, 0), block(0, 1));
    // Byte for byte: prompts 0 and 1 share exactly their first two blocks.
    const std::string shared = block(0, 0) + block(0, 1);
    EXPECT_EQ(out.prompts[1].text.substr(0, shared.size()), shared);
  }
}

TEST(TracePrompts, EveryPromptCountsItsInputLengthExactly) {
  for (const bool decoder : {true, false}) {
    SCOPED_TRACE(decoder ? "decoder" : "offsets");
    FakeTokenizer tokenizer(decoder);
    constexpr int64_t kBlock = 32;
    std::vector<TraceEntry> entries;
    int64_t line = 0;
    for (const int64_t input : {6, 7, 20, 37, 38, 69, 100, 517, 1000}) {
      std::vector<int64_t> ids;
      for (int64_t k = 0; k < (input + kBlock - 1) / kBlock; ++k) ids.push_back(k % 5);
      entries.push_back(mooncake(input, ids, ++line, input + 1));
    }
    const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock, 9));
    EXPECT_EQ(out.misses, 0);
    EXPECT_GE(out.fit_counts, static_cast<int64_t>(entries.size()));
    ASSERT_EQ(out.prompts.size(), entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      const Prompt& p = out.prompts[i];
      SCOPED_TRACE(p.text);
      EXPECT_EQ(FakeTokenizer::counted(p.text), entries[i].input_length);
      EXPECT_EQ(p.target_input_tokens, entries[i].input_length);
      EXPECT_EQ(p.target_output_tokens, entries[i].input_length + 1);
      EXPECT_EQ(p.length, utf8_length(p.text));
      EXPECT_TRUE(utf8_valid(p.text));
      EXPECT_TRUE(p.token_ids.empty());
    }
  }
}

TEST(TracePrompts, BlocksKeepTheirLeadingSpaceWhenTheDecoderDropsIt) {
  FakeTokenizer tokenizer;
  tokenizer.strip_leading_space = true;
  constexpr int64_t kBlock = 16;
  const std::vector<TraceEntry> entries = {mooncake(kOverhead + 2 * kBlock + 3, {1, 2, 3}, 1),
                                           mooncake(kOverhead + 9, {}, 2)};
  const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock));
  EXPECT_EQ(out.misses, 0);
  const std::string& text = out.prompts[0].text;
  EXPECT_EQ(FakeTokenizer::counted(text), entries[0].input_length) << text;
  for (const size_t k : {0, 1, 2}) {
    EXPECT_EQ(FakeTokenizer::tokens_text(text, k * kBlock, k * kBlock + 1).front(), ' ') << text;
  }
  EXPECT_EQ(FakeTokenizer::counted(out.prompts[1].text), entries[1].input_length);
}

TEST(TracePrompts, ThePartialLastBlockIsAPrefixOfTheWholeBlock) {
  FakeTokenizer tokenizer;
  constexpr int64_t kBlock = 16;
  const std::vector<TraceEntry> entries = {mooncake(kOverhead + 2 * kBlock, {7, 8}, 1),
                                           mooncake(kOverhead + kBlock + 5, {7, 8}, 2)};
  const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock));
  EXPECT_EQ(out.misses, 0);
  EXPECT_EQ(out.distinct_blocks, 2);
  EXPECT_EQ(out.reused_blocks, 2);
  const std::string& whole = out.prompts[0].text;
  const std::string& part = out.prompts[1].text;
  EXPECT_EQ(FakeTokenizer::counted(part), kOverhead + kBlock + 5);
  EXPECT_EQ(whole.substr(0, part.size()), part);
  EXPECT_EQ(FakeTokenizer::tokens_text(part, kBlock, kBlock + 5),
            FakeTokenizer::tokens_text(whole, kBlock, kBlock + 5));
}

TEST(TracePrompts, HashIdsPastTheInputLengthAddNothing) {
  FakeTokenizer tokenizer;
  constexpr int64_t kBlock = 16;
  const TracePrompts out = make_trace_prompts(
      &tokenizer, nullptr, {mooncake(kOverhead + 10, {1, 2, 3, 4}, 1)}, options(kBlock));
  EXPECT_EQ(out.distinct_blocks, 1);
  EXPECT_EQ(out.reused_blocks, 0);
  EXPECT_EQ(FakeTokenizer::counted(out.prompts[0].text), kOverhead + 10);
  // A template longer than the input: one token of text, and a recorded miss.
  const TracePrompts tiny =
      make_trace_prompts(&tokenizer, nullptr, {mooncake(3, {1}, 1)}, options(kBlock));
  EXPECT_EQ(tiny.misses, 1);
  EXPECT_EQ(FakeTokenizer::counted(tiny.prompts[0].text), kOverhead + 1);
  EXPECT_EQ(tiny.prompts[0].target_input_tokens, 3);
}

TEST(TracePrompts, EntriesWithoutEnoughBlocksGetTextUniqueToTheLine) {
  FakeTokenizer tokenizer;
  constexpr int64_t kBlock = 16;
  const int64_t input = kOverhead + 40;
  const std::vector<TraceEntry> entries = {mooncake(input, {}, 1), mooncake(input, {}, 2),
                                           mooncake(input, {9}, 3), mooncake(input, {9}, 4)};
  const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock));
  EXPECT_EQ(out.misses, 0);
  EXPECT_EQ(out.distinct_blocks, 1);
  for (const Prompt& p : out.prompts) EXPECT_EQ(FakeTokenizer::counted(p.text), input);
  EXPECT_NE(FakeTokenizer::tokens_text(out.prompts[0].text, 0, 4),
            FakeTokenizer::tokens_text(out.prompts[1].text, 0, 4));
  // Block 9 is shared; the 24 tokens after it are not.
  const auto& a = out.prompts[2].text;
  const auto& b = out.prompts[3].text;
  EXPECT_EQ(FakeTokenizer::tokens_text(a, 0, kBlock), FakeTokenizer::tokens_text(b, 0, kBlock));
  EXPECT_NE(FakeTokenizer::tokens_text(a, kBlock, kBlock + 4),
            FakeTokenizer::tokens_text(b, kBlock, kBlock + 4));
}

TEST(TracePrompts, TokenIdsAreTheBlocksIdsExactlyInputLengthLong) {
  FakeTokenizer tokenizer;
  constexpr int64_t kBlock = 16;
  const std::vector<TraceEntry> entries = {mooncake(40, {1, 2, 3}, 1), mooncake(35, {1, 2}, 2),
                                           mooncake(7, {}, 3)};
  const TracePrompts out =
      make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock, 1, /*token_ids=*/true));
  EXPECT_EQ(tokenizer.count_calls, 0);
  EXPECT_EQ(out.fit_counts, 0);
  ASSERT_EQ(out.prompts.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(static_cast<int64_t>(out.prompts[i].token_ids.size()), entries[i].input_length);
    EXPECT_TRUE(out.prompts[i].text.empty());
    EXPECT_EQ(out.prompts[i].target_input_tokens, entries[i].input_length);
  }
  const auto& a = out.prompts[0].token_ids;
  const auto& b = out.prompts[1].token_ids;
  EXPECT_TRUE(std::equal(a.begin(), a.begin() + 2 * kBlock, b.begin()));  // blocks 1, 2
  // Prompt 0's third block and prompt 1's unique tail differ.
  EXPECT_FALSE(
      std::equal(a.begin() + 2 * kBlock, a.begin() + 2 * kBlock + 3, b.begin() + 2 * kBlock));
  // The ids are the tokens of the text the same block has in text mode.
  FakeTokenizer text_tokenizer;
  const TracePrompts text = make_trace_prompts(
      &text_tokenizer, nullptr, {mooncake(kOverhead + kBlock, {1}, 1)}, options(kBlock));
  const Encoding encoding = tokenizer.encode({text.prompts[0].text}).at(0);
  EXPECT_EQ(encoding.ids, std::vector<int64_t>(a.begin(), a.begin() + kBlock));
}

TEST(TracePrompts, WithoutATokenizerAnEstimateSizesTheBlocks) {
  LengthModel model;
  model.overhead = 5;
  model.per_word = 1;  // one token a word: block k is words [k * block, (k + 1) * block)
  const std::vector<TraceEntry> entries = {mooncake(5 + 25, {1, 2}, 1),
                                           mooncake(5 + 25, {1, 3}, 2)};
  const TracePrompts out = make_trace_prompts(nullptr, &model, entries, options(10));
  const auto words = [](const std::string& text) {
    return std::count(text.begin(), text.end(), ' ');
  };
  ASSERT_EQ(out.prompts.size(), 2u);
  EXPECT_EQ(out.distinct_blocks, 3);
  EXPECT_EQ(words(out.prompts[0].text), 25);
  EXPECT_EQ(words(out.prompts[1].text), 25);
  const auto nth_space = [](const std::string& text, int n) {
    size_t at = 0;
    for (int k = 0; k < n; ++k) at = text.find(' ', at + 1);
    return at;
  };
  const size_t first_block = nth_space(out.prompts[0].text, 10);
  EXPECT_EQ(out.prompts[0].text.substr(0, first_block), out.prompts[1].text.substr(0, first_block));
  EXPECT_NE(out.prompts[0].text.substr(first_block, 20),
            out.prompts[1].text.substr(first_block, 20));
  EXPECT_THROW(make_trace_prompts(nullptr, &model, entries, options(10, 1, true)),
               std::invalid_argument);
  EXPECT_THROW(make_trace_prompts(nullptr, nullptr, entries, options(10)), std::invalid_argument);
}

TEST(TracePrompts, TokenizerCallsAreBatchedAndProgressIsReported) {
  FakeTokenizer tokenizer;
  std::vector<TraceEntry> entries;
  for (int64_t i = 0; i < 600; ++i) entries.push_back(mooncake(kOverhead + 12, {i % 300}, i + 1));
  std::vector<size_t> done;
  const TracePrompts out =
      make_trace_prompts(&tokenizer, nullptr, entries, options(8), [&](size_t d, size_t total) {
        EXPECT_EQ(total, 600u);
        done.push_back(d);
      });
  EXPECT_EQ(out.misses, 0);
  EXPECT_EQ(out.distinct_blocks, 300);
  EXPECT_EQ(out.reused_blocks, 300);
  EXPECT_LE(tokenizer.largest_call, 256u);
  EXPECT_EQ(tokenizer.count_calls, 1 + 3);  // count("") once, then one call per batch
  EXPECT_EQ(done, (std::vector<size_t>{256, 512, 600}));
}

TEST(TracePrompts, SeedsChangeTheTextAndRepeatIt) {
  const auto text = [](uint64_t seed) {
    FakeTokenizer tokenizer;
    return make_trace_prompts(&tokenizer, nullptr, {mooncake(kOverhead + 20, {1, 2}, 1)},
                              options(16, seed))
        .prompts.at(0)
        .text;
  };
  EXPECT_EQ(text(3), text(3));
  EXPECT_NE(text(3), text(4));
}

TEST(TracePrompts, AMissMovesTheLastPartialCutButNeverAWholeBlock) {
  FakeTokenizer tokenizer;
  tokenizer.empty_count = kOverhead - 1;  // the template measured one token short
  constexpr int64_t kBlock = 16;
  const std::vector<TraceEntry> entries = {
      mooncake(kOverhead + kBlock + 3, {1, 2}, 1),       // partial block 2: fixed
      mooncake(kOverhead + 10, {}, 2),                   // unique tail: fixed
      mooncake(kOverhead - 1 + 2 * kBlock, {1, 2}, 3)};  // ends with a whole block: a miss
  const TracePrompts out = make_trace_prompts(&tokenizer, nullptr, entries, options(kBlock));
  EXPECT_EQ(out.misses, 1);
  EXPECT_EQ(FakeTokenizer::counted(out.prompts[0].text), entries[0].input_length);
  EXPECT_EQ(FakeTokenizer::counted(out.prompts[1].text), entries[1].input_length);
  EXPECT_EQ(FakeTokenizer::counted(out.prompts[2].text), entries[2].input_length + 1);
  EXPECT_EQ(out.fit_counts, 2 + 2 + 1);
  EXPECT_EQ(FakeTokenizer::tokens_text(out.prompts[0].text, 0, kBlock),
            FakeTokenizer::tokens_text(out.prompts[2].text, 0, kBlock));
}

// Encodes every text as a single token: blocks cannot be made.
class OneTokenTokenizer final : public Tokenizer {
 public:
  const TokenizerInfo& info() const override { return info_; }
  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<Encoding> out;
    for (const std::string& text : texts) out.push_back({{1}, {text.size()}});
    return out;
  }
  bool can_decode() const override { return false; }
  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>&) override { return {}; }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    return std::vector<int64_t>(prompts.size(), 1);
  }
  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    return count(texts);
  }

 private:
  TokenizerInfo info_;
};

TEST(TracePrompts, BadArgumentsAndTokenizersAreErrors) {
  FakeTokenizer tokenizer;
  EXPECT_THROW(make_trace_prompts(&tokenizer, nullptr, {mooncake(10, {1}, 1)}, options(0)),
               std::invalid_argument);
  TraceEntry body;
  body.body_json = "{}";
  body.line = 4;
  EXPECT_THROW(make_trace_prompts(&tokenizer, nullptr, {body}, options(8)), std::invalid_argument);
  OneTokenTokenizer one;
  EXPECT_THROW(make_trace_prompts(&one, nullptr, {mooncake(30, {1}, 1)}, options(8)),
               TokenizerError);
  EXPECT_TRUE(make_trace_prompts(&tokenizer, nullptr, {}, options(8)).prompts.empty());
}

}  // namespace
}  // namespace llmperf

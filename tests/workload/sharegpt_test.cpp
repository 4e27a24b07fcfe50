// Tests for ShareGPT (--dataset sharegpt): the streaming reader on the shipped fixture (counts,
// malformed item numbers, skipped conversations, role/content turns, Chinese text, the turn limit)
// and on temporary files (JSON lines, BOM, truncated, empty, not a list); the JSON list scanner it
// uses; and the sampler's vLLM rules with a fake tokenizer (one token per word plus a template
// overhead): turn selection, each length filter, the fixed output length, changed limits, seed
// stability, short samples, the errors, and the estimate path.
#include "workload/datasets/sharegpt.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kFixture = std::string(LLMPERF_FIXTURES_DIR) + "/sharegpt/sample.json";

// --- JsonListScanner ---

std::string trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// Every item the scanner finds in `text` (trimmed), and how the scan ended.
struct Scan {
  std::vector<std::string> items;
  std::vector<bool> truncated;  // per item
  detail::JsonListScanner::Next last = detail::JsonListScanner::Next::kEnd;
  char first_char = 0;
};

Scan scan(const std::string& text) {
  std::istringstream in(text);
  detail::JsonListScanner scanner(in.rdbuf());
  Scan result;
  std::string item;
  while (true) {
    result.last = scanner.next(item);
    if (result.last != detail::JsonListScanner::Next::kItem) break;
    result.items.push_back(trim(item));
    result.truncated.push_back(scanner.truncated());
  }
  result.first_char = scanner.first_char();
  return result;
}

using Items = std::vector<std::string>;

TEST(JsonListScannerTest, SplitsItemsAtTopLevelCommas) {
  const Scan s = scan(R"([1, {"a": [2, 3], "b": {"c": 4}}, "x", [5, [6]], null])");
  EXPECT_EQ(s.items, (Items{"1", R"({"a": [2, 3], "b": {"c": 4}})", R"("x")", "[5, [6]]", "null"}));
  EXPECT_EQ(s.last, detail::JsonListScanner::Next::kEnd);
  EXPECT_EQ(s.truncated, std::vector<bool>(5, false));
}

TEST(JsonListScannerTest, BlankItemsAreItemsButTrailingCommaAndEmptyListAreNot) {
  EXPECT_EQ(scan("[1,,2]").items, (Items{"1", "", "2"}));
  EXPECT_EQ(scan("[1, \n]").items, (Items{"1"}));
  EXPECT_TRUE(scan("[]").items.empty());
  EXPECT_TRUE(scan(" \n[ \n ]\n").items.empty());
  EXPECT_TRUE(scan("").items.empty());
  EXPECT_EQ(scan("").last, detail::JsonListScanner::Next::kEnd);
}

TEST(JsonListScannerTest, BracketsCommasAndEscapedQuotesInsideStringsDoNotSplit) {
  const Scan s = scan(R"(["a]b,c", {"k": "}],[{"}, "q\"],[", "back\\", 7])");
  EXPECT_EQ(s.items, (Items{R"("a]b,c")", R"({"k": "}],[{"})", R"("q\"],[")", R"("back\\")", "7"}));
}

TEST(JsonListScannerTest, TextAfterTheClosingBracketIsNotRead) {
  EXPECT_EQ(scan("[1] , 2, [3]").items, (Items{"1"}));
}

TEST(JsonListScannerTest, TruncatedInputEndsWithATruncatedItem) {
  const Scan s = scan(R"([1, {"a": "b", "c": [1)");
  EXPECT_EQ(s.items, (Items{"1", R"({"a": "b", "c": [1)"}));
  EXPECT_EQ(s.truncated, (std::vector<bool>{false, true}));
  EXPECT_EQ(s.last, detail::JsonListScanner::Next::kEnd);
  // Cut inside a string: the rest is still one item.
  EXPECT_EQ(scan(R"([1, "ab, ]c)").items, (Items{"1", R"("ab, ]c)"}));
  // Cut right after a comma: nothing more.
  EXPECT_EQ(scan("[1, ").items, (Items{"1"}));
}

TEST(JsonListScannerTest, NotAListSaysSoAndNamesTheFirstCharacter) {
  Scan s = scan(R"({"a": [1, 2]})");
  EXPECT_TRUE(s.items.empty());
  EXPECT_EQ(s.last, detail::JsonListScanner::Next::kNotAList);
  EXPECT_EQ(s.first_char, '{');
  s = scan("\xEF\xBB\xBF  \n x");
  EXPECT_EQ(s.last, detail::JsonListScanner::Next::kNotAList);
  EXPECT_EQ(s.first_char, 'x');
  // Asked again after kNotAList: the end.
  std::istringstream in("{}");
  detail::JsonListScanner scanner(in.rdbuf());
  std::string item;
  EXPECT_EQ(scanner.next(item), detail::JsonListScanner::Next::kNotAList);
  EXPECT_EQ(scanner.next(item), detail::JsonListScanner::Next::kEnd);
}

TEST(JsonListScannerTest, SkipsAByteOrderMarkAndLeadingWhitespace) {
  EXPECT_EQ(scan("\xEF\xBB\xBF\r\n\t [\"a\", 2]").items, (Items{R"("a")", "2"}));
}

// --- read_sharegpt ---

struct Read {
  std::vector<Conversation> conversations;
  DatasetStats stats;
};

Read read_stream(std::istream& in, size_t max_turns, size_t min_turns) {
  Read read;
  read_sharegpt(
      in, max_turns, min_turns,
      [&](Conversation&& c) { read.conversations.push_back(std::move(c)); }, read.stats);
  return read;
}

Read read_text(const std::string& text, size_t max_turns = 2, size_t min_turns = 2) {
  std::istringstream in(text);
  return read_stream(in, max_turns, min_turns);
}

Read read_fixture(size_t max_turns, size_t min_turns) {
  std::ifstream in(kFixture, std::ios::binary);
  EXPECT_TRUE(in.good()) << kFixture;
  return read_stream(in, max_turns, min_turns);
}

// A turn as nlohmann reads it from the whole file: (role, text).
std::pair<std::string, std::string> expected_turn(const Json& turn) {
  const std::string role = turn.contains("from") ? turn["from"] : turn["role"];
  const std::string text = turn.contains("value") ? turn["value"] : turn["content"];
  return {role, text};
}

TEST(ShareGptReaderTest, FixtureCounts) {
  const Read r = read_fixture(2, 2);
  EXPECT_EQ(r.stats.records_read, 38);
  EXPECT_EQ(r.stats.malformed, 3);
  EXPECT_EQ(r.stats.malformed_lines, (std::vector<int64_t>{36, 37, 38}));
  EXPECT_EQ(r.stats.first_malformed_reason, "item 36: not a JSON object");
  EXPECT_EQ(r.stats.skipped_turns, 2);  // "single" (one turn) and "none" (an empty list)
  EXPECT_EQ(r.stats.accepted, 33);
  EXPECT_EQ(r.stats.accepted + r.stats.malformed + r.stats.skipped_turns, r.stats.records_read);
  ASSERT_EQ(r.conversations.size(), 33u);
}

TEST(ShareGptReaderTest, FixtureMalformedReasonsNameTheProblem) {
  // Each malformed item alone, so that its reason is the first.
  const Read noconv = read_text(R"([{"id":"noconv"}])");
  EXPECT_EQ(noconv.stats.first_malformed_reason,
            "item 1: no \"conversations\" (or \"messages\") list");
  const Read badturn = read_text(R"([{"id":"b","conversations":[{"from":"human"},)"
                                 R"({"from":"gpt","value":"x y z w"}]}])");
  EXPECT_EQ(badturn.stats.first_malformed_reason, "item 1: turn 1 has no string \"value\"");
  EXPECT_EQ(
      read_text(R"([{"conversations":[{"from":"human","value":7}]}])").stats.first_malformed_reason,
      "item 1: turn 1 has no string \"value\"");
  EXPECT_EQ(read_text(R"([{"conversations":["hi"]}])").stats.first_malformed_reason,
            "item 1: turn 1 is not an object");
  EXPECT_EQ(read_text(R"([{"conversations":[{"from":"a","value":"b"},["x"]]}])")
                .stats.first_malformed_reason,
            "item 1: turn 2 is not an object");
}

TEST(ShareGptReaderTest, FixtureTurnsMatchAFullParseInOrder) {
  std::ifstream in(kFixture, std::ios::binary);
  const Json all = Json::parse(in);
  for (const size_t max_turns : {1u, 2u, 3u, 4u, 10u}) {
    SCOPED_TRACE(max_turns);
    const Read r = read_fixture(max_turns, 1);
    std::vector<int64_t> numbers;
    for (const Conversation& c : r.conversations) {
      numbers.push_back(c.number);
      const Json& turns = all[static_cast<size_t>(c.number - 1)]["conversations"];
      ASSERT_EQ(c.turns.size(), std::min(max_turns, turns.size())) << "item " << c.number;
      for (size_t t = 0; t < c.turns.size(); ++t) {
        const auto [role, text] = expected_turn(turns[t]);
        EXPECT_EQ(c.turns[t].role, role) << "item " << c.number << " turn " << t;
        EXPECT_EQ(c.turns[t].text, text) << "item " << c.number << " turn " << t;
      }
    }
    // In file order: items 1-35 except "none" (33: no turns, below min_turns 1).
    std::vector<int64_t> expected;
    for (int64_t i = 1; i <= 35; ++i) {
      if (i != 33) expected.push_back(i);
    }
    EXPECT_EQ(numbers, expected);
    EXPECT_EQ(r.stats.skipped_turns, 1);
  }
}

TEST(ShareGptReaderTest, RoleAndContentKeysAreTurnsToo) {
  const Read r = read_fixture(2, 2);
  const auto roles = std::find_if(r.conversations.begin(), r.conversations.end(),
                                  [](const Conversation& c) { return c.number == 35; });
  ASSERT_NE(roles, r.conversations.end());
  ASSERT_EQ(roles->turns.size(), 2u);
  EXPECT_EQ(roles->turns[0].role, "user");
  EXPECT_EQ(roles->turns[1].role, "assistant");
  EXPECT_EQ(roles->turns[0].text.rfind("lazy and servers throughput", 0), 0u);
}

TEST(ShareGptReaderTest, ChineseTextIsIntact) {
  const Read r = read_fixture(2, 2);
  ASSERT_FALSE(r.conversations.empty());
  const Conversation& first = r.conversations.front();
  EXPECT_EQ(first.number, 1);
  EXPECT_EQ(first.turns[0].role, "human");
  EXPECT_EQ(first.turns[0].text.rfind("很好公园处理今天天气", 0), 0u) << first.turns[0].text;
  EXPECT_TRUE(utf8_valid(first.turns[0].text));
  EXPECT_EQ(utf8_length(first.turns[1].text), 32);
}

TEST(ShareGptReaderTest, MinTurnsCountsShortConversations) {
  const Read r = read_fixture(4, 3);
  // Fewer than 3 turns: "short", "single", "none", "long" and "roles".
  EXPECT_EQ(r.stats.skipped_turns, 5);
  EXPECT_EQ(r.stats.accepted, 30);
  EXPECT_EQ(r.stats.malformed, 3);
  for (const Conversation& c : r.conversations) EXPECT_EQ(c.turns.size(), 4u) << c.number;
}

TEST(ShareGptReaderTest, TurnsPastMaxTurnsAreNotRead) {
  // A broken third turn does not matter when only two are wanted.
  const std::string text =
      R"([{"conversations":[{"from":"human","value":"a b c d"},{"from":"gpt","value":"e f"},42]}])";
  const Read two = read_text(text, 2, 2);
  EXPECT_EQ(two.stats.accepted, 1);
  EXPECT_EQ(two.stats.malformed, 0);
  ASSERT_EQ(two.conversations.size(), 1u);
  EXPECT_EQ(two.conversations[0].turns[1].text, "e f");
  const Read three = read_text(text, 3, 2);
  EXPECT_EQ(three.stats.accepted, 0);
  EXPECT_EQ(three.stats.first_malformed_reason, "item 1: turn 3 is not an object");
}

TEST(ShareGptReaderTest, OtherKeysNestedValuesAndEscapesAreHandled) {
  const Read r = read_text(
      R"([{"meta":{"conversations":[1]},"tags":["x"],"conversations":[)"
      R"({"value":"say \"hi\" \\ [ok], {\u4f60}\n","extra":{"value":5,"from":"nobody"},"from":"human"},)"
      R"({"from":"gpt","value":"fine"}],"id":"z"}])");
  ASSERT_EQ(r.conversations.size(), 1u) << r.stats.first_malformed_reason;
  EXPECT_EQ(r.conversations[0].turns[0].role, "human");
  EXPECT_EQ(r.conversations[0].turns[0].text, "say \"hi\" \\ [ok], {你}\n");
  EXPECT_EQ(r.conversations[0].turns[1].text, "fine");
}

TEST(ShareGptReaderTest, JsonLinesAreReadWithLineNumbers) {
  const std::string text =
      "{\"conversations\":[{\"from\":\"human\",\"value\":\"one\"},{\"from\":\"gpt\",\"value\":"
      "\"uno\"}]}\n"
      "\n"
      "{\"conversations\":[{\"from\":\"human\",\"value\":\"alone\"}]}\n"
      "not json\n"
      "   \t\r\n"
      "{\"conversations\":[{\"role\":\"user\",\"content\":\"two\"},{\"role\":\"assistant\","
      "\"content\":\"dos\"}]}\r\n"
      "[1, 2]\n";
  const Read r = read_text(text);
  EXPECT_EQ(r.stats.records_read, 5);  // blank lines are not records
  EXPECT_EQ(r.stats.accepted, 2);
  EXPECT_EQ(r.stats.skipped_turns, 1);
  EXPECT_EQ(r.stats.malformed, 2);
  EXPECT_EQ(r.stats.malformed_lines, (std::vector<int64_t>{4, 7}));
  EXPECT_EQ(r.stats.first_malformed_reason.rfind("line 4: ", 0), 0u)
      << r.stats.first_malformed_reason;
  ASSERT_EQ(r.conversations.size(), 2u);
  EXPECT_EQ(r.conversations[0].number, 1);
  EXPECT_EQ(r.conversations[0].turns[1].text, "uno");
  EXPECT_EQ(r.conversations[1].number, 6);
  EXPECT_EQ(r.conversations[1].turns[0].text, "two");
  EXPECT_EQ(r.conversations[1].turns[1].text, "dos");
}

TEST(ShareGptReaderTest, ByteOrderMarkBeforeAList) {
  const Read r = read_text(
      "\xEF\xBB\xBF\n[{\"conversations\":[{\"from\":\"human\",\"value\":\"a\"},"
      "{\"from\":\"gpt\",\"value\":\"b\"}]}]");
  EXPECT_EQ(r.stats.records_read, 1);
  EXPECT_EQ(r.stats.accepted, 1);
}

TEST(ShareGptReaderTest, ByteOrderMarkBeforeJsonLines) {
  const Read r = read_text(
      "\xEF\xBB\xBF{\"conversations\":[{\"from\":\"human\",\"value\":\"a\"},"
      "{\"from\":\"gpt\",\"value\":\"b\"}]}\n"
      "{\"conversations\":[{\"from\":\"human\",\"value\":\"c\"},"
      "{\"from\":\"gpt\",\"value\":\"d\"}]}\n");
  EXPECT_EQ(r.stats.records_read, 2);
  EXPECT_EQ(r.stats.accepted, 2);
  EXPECT_EQ(r.stats.malformed, 0) << r.stats.first_malformed_reason;
  ASSERT_EQ(r.conversations.size(), 2u);
  EXPECT_EQ(r.conversations[0].turns[0].text, "a");
}

TEST(ShareGptReaderTest, TruncatedFileKeepsTheCompleteItems) {
  const std::string good =
      R"({"conversations":[{"from":"human","value":"a"},{"from":"gpt","value":"b"}]})";
  const Read r = read_text("[" + good + ",\n" + good +
                           R"(, {"conversations":[{"from":"human","value":"cut he)");
  EXPECT_EQ(r.stats.records_read, 3);
  EXPECT_EQ(r.stats.accepted, 2);
  EXPECT_EQ(r.stats.malformed, 1);
  EXPECT_EQ(r.stats.malformed_lines, (std::vector<int64_t>{3}));
}

TEST(ShareGptReaderTest, BlankListItemIsMalformed) {
  const std::string good =
      R"({"conversations":[{"from":"human","value":"a"},{"from":"gpt","value":"b"}]})";
  const Read r = read_text("[" + good + ", ," + good + ",]");
  EXPECT_EQ(r.stats.records_read, 3);
  EXPECT_EQ(r.stats.accepted, 2);
  EXPECT_EQ(r.stats.malformed_lines, (std::vector<int64_t>{2}));
  EXPECT_EQ(r.stats.first_malformed_reason, "item 2: empty list item (two commas in a row)");
}

TEST(ShareGptReaderTest, EmptyInputsHaveNoRecords) {
  for (const char* text : {"", "   \n\n", "[]", " [ \n ] ", "\xEF\xBB\xBF[]"}) {
    const Read r = read_text(text);
    EXPECT_EQ(r.stats.records_read, 0) << text;
    EXPECT_TRUE(r.conversations.empty()) << text;
  }
}

TEST(ShareGptReaderTest, NotAListIsReadAsLinesThatAreMalformed) {
  const Read scalar = read_text("42\n");
  EXPECT_EQ(scalar.stats.records_read, 1);
  EXPECT_EQ(scalar.stats.malformed, 1);
  EXPECT_EQ(scalar.stats.first_malformed_reason, "line 1: not a JSON object");
  // A pretty-printed object is not JSON lines: every line is malformed, nothing is accepted.
  const Read pretty = read_text(
      "{\n \"conversations\": [\n  {\"from\": \"human\", \"value\": \"a\"},\n"
      "  {\"from\": \"gpt\", \"value\": \"b\"}\n ]\n}\n");
  EXPECT_EQ(pretty.stats.accepted, 0);
  EXPECT_EQ(pretty.stats.records_read, 6);
  EXPECT_EQ(pretty.stats.malformed, 6);
  const Read words = read_text("hello world\n");
  EXPECT_EQ(words.stats.malformed, 1);
  EXPECT_EQ(words.stats.first_malformed_reason.rfind("line 1: ", 0), 0u);
}

TEST(ShareGptReaderTest, MalformedNumbersAreCappedAtTen) {
  std::string text = "[";
  for (int i = 0; i < 15; ++i) text += "1,";
  text += "2]";
  const Read r = read_text(text);
  EXPECT_EQ(r.stats.malformed, 16);
  EXPECT_EQ(r.stats.malformed_lines.size(), detail::kMaxMalformedNumbers);
  EXPECT_EQ(r.stats.malformed_lines.back(), 10);
}

// --- sample_sharegpt ---

// One token per whitespace-separated word; count() adds a chat-template overhead (special tokens
// included), count_text() only the special tokens (BOS), encode() nothing. Remembers how it was
// called.
class WordTokenizer final : public Tokenizer {
 public:
  WordTokenizer(int64_t overhead, int64_t bos) : overhead_(overhead), bos_(bos) {}

  const TokenizerInfo& info() const override { return info_; }
  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    ++encode_calls;
    std::vector<Encoding> out;
    for (const std::string& text : texts) {
      Encoding e;
      e.ids.resize(static_cast<size_t>(words(text)));
      out.push_back(std::move(e));
    }
    return out;
  }
  bool can_decode() const override { return false; }
  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>&) override {
    throw TokenizerError("no decode");
  }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    ++count_calls;
    if (fail) throw TokenizerError("tokenize API unreachable");
    std::vector<int64_t> out;
    for (const std::string& p : prompts) out.push_back(words(p) + overhead_);
    return out;
  }
  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    ++count_text_calls;
    if (fail) throw TokenizerError("tokenize API unreachable");
    std::vector<int64_t> out;
    for (const std::string& t : texts) out.push_back(words(t) + bos_);
    return out;
  }

  static int64_t words(const std::string& text) {
    std::istringstream in(text);
    std::string word;
    int64_t n = 0;
    while (in >> word) ++n;
    return n;
  }

  int count_calls = 0;
  int count_text_calls = 0;
  int encode_calls = 0;
  bool fail = false;

 private:
  int64_t overhead_;
  int64_t bos_;
  TokenizerInfo info_{"fake", "one token per word", true};
};

constexpr int64_t kChatMlOverhead = 12;  // ChatML-like: BOS + the template around one message
constexpr int64_t kBos = 1;        // the special token a text alone gets

// `n` words, the first naming the text so that tests can tell prompts apart.
std::string words(const std::string& tag, int64_t n) {
  std::string text;
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) text += ' ';
    text += i == 0 ? tag : "w";
  }
  return text;
}

struct Pair {
  std::string prompt;
  std::string answer;
};

class ShareGptSampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "llmperf_sharegpt_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // A ShareGPT list file of (prompt, answer) conversations, each followed by two more turns.
  std::string write_pairs(const std::vector<Pair>& pairs) const {
    Json list = Json::array();
    for (const Pair& p : pairs) {
      list.push_back({{"id", p.prompt.substr(0, 8)},
                      {"conversations",
                       {{{"from", "human"}, {"value", p.prompt}},
                        {{"from", "gpt"}, {"value", p.answer}},
                        {{"from", "human"}, {"value", "third turn never used"}},
                        {{"from", "gpt"}, {"value", "fourth turn never used"}}}}});
    }
    return write_file("pairs.json", list.dump(1));
  }

  std::string write_file(const std::string& name, const std::string& content) const {
    const fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path.string();
  }

  // Samples with the word tokenizer; every prompt of the file measured unless `count` says less.
  std::vector<Prompt> sample(const std::string& path, int64_t count,
                             const ShareGptLimits& limits = {}, uint64_t seed = 0) {
    ShareGptSpec spec;
    spec.path = path;
    spec.count = count;
    spec.seed = seed;
    spec.limits = limits;
    stats_ = {};
    sampling_ = {};
    return sample_sharegpt(spec, &tokenizer_, nullptr, stats_, sampling_);
  }

  // The DatasetError message, or "" when sampling succeeds.
  std::string sample_error(const std::string& path, const ShareGptLimits& limits = {}) {
    try {
      sample(path, 100, limits);
    } catch (const DatasetError& error) {
      return error.what();
    }
    return "";
  }

  // The first word of every prompt, sorted: which conversations were kept.
  static std::vector<std::string> tags(const std::vector<Prompt>& prompts) {
    std::vector<std::string> out;
    for (const Prompt& p : prompts) out.push_back(p.text.substr(0, p.text.find(' ')));
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  WordTokenizer tokenizer_{kChatMlOverhead, kBos};
  DatasetStats stats_;
  ShareGptSampling sampling_;
};

using Tags = std::vector<std::string>;

TEST_F(ShareGptSampleTest, FirstTurnIsThePromptAndSecondTheAnswer) {
  const std::string path = write_pairs({{"hello there how are you", "fine thanks and you there"}});
  const std::vector<Prompt> prompts = sample(path, 1);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].text, "hello there how are you");
  EXPECT_EQ(prompts[0].length, 23);
  EXPECT_EQ(prompts[0].target_input_tokens, 5 + kChatMlOverhead);  // counted with the template
  EXPECT_EQ(prompts[0].target_output_tokens, 5 + kBos);      // as vLLM counts it: with BOS
  EXPECT_TRUE(prompts[0].messages_json.empty());
  EXPECT_TRUE(prompts[0].body_json.empty());
  EXPECT_EQ(stats_.accepted, 1);
  EXPECT_EQ(stats_.records_read, 1);
  EXPECT_EQ(sampling_.candidates, 1);
  EXPECT_EQ(sampling_.measured, 1);
}

// Conversations at each side of vLLM's default limits, in own counts (words + BOS); the templated
// counts are 11 more.
std::vector<Pair> boundary_pairs() {
  return {
      {words("p3", 2), words("a", 10)},        // prompt 3 tokens: too short
      {words("p4", 3), words("a", 3)},         // prompt 4, answer 4: kept
      {words("a3", 5), words("a", 2)},         // answer 3: too short
      {words("p1024", 1023), words("a", 3)},   // prompt 1024: kept
      {words("p1025", 1024), words("a", 3)},   // prompt 1025: too long
      {words("t2048", 99), words("a", 1947)},  // 100 + 1948 = 2048: kept
      {words("t2049", 99), words("a", 1948)},  // 2049: too long
  };
}

TEST_F(ShareGptSampleTest, VllmFiltersAtTheirBoundaries) {
  const std::vector<Prompt> prompts = sample(write_pairs(boundary_pairs()), 100);
  EXPECT_EQ(tags(prompts), (Tags{"p1024", "p4", "t2048"}));
  EXPECT_EQ(sampling_.too_short, 2);
  EXPECT_EQ(sampling_.too_long, 2);
  EXPECT_EQ(sampling_.measured, 7);
  EXPECT_EQ(sampling_.candidates, 7);
  EXPECT_EQ(stats_.accepted, 3);
  EXPECT_EQ(stats_.skipped_length, 4);
  for (const Prompt& p : prompts) {
    EXPECT_EQ(p.target_input_tokens, WordTokenizer::words(p.text) + kChatMlOverhead) << p.text;
  }
}

TEST_F(ShareGptSampleTest, FixedOutputLengthSkipsTheAnswerCheckAndCountsInTheTotal) {
  ShareGptLimits limits;
  limits.output_len = 10;
  const std::vector<Prompt> prompts = sample(write_pairs(boundary_pairs()), 100, limits);
  // The 3-token answer and the 1949-token answer no longer matter; the prompt limits still do.
  EXPECT_EQ(tags(prompts), (Tags{"a3", "p1024", "p4", "t2048", "t2049"}));
  for (const Prompt& p : prompts) EXPECT_EQ(p.target_output_tokens, 10) << p.text;
  EXPECT_EQ(sampling_.too_short, 1);
  EXPECT_EQ(sampling_.too_long, 1);

  // prompt + output_len is what the total limit checks: 1024 + 1025 > 2048.
  limits.output_len = 1025;
  EXPECT_EQ(tags(sample(write_pairs(boundary_pairs()), 100, limits)),
            (Tags{"a3", "p4", "t2048", "t2049"}));
  limits.output_len = 1024;
  EXPECT_EQ(tags(sample(write_pairs(boundary_pairs()), 100, limits)),
            (Tags{"a3", "p1024", "p4", "t2048", "t2049"}));
}

TEST_F(ShareGptSampleTest, ChangedLimitsAreApplied) {
  const std::string path = write_pairs({
      {words("p9", 8), words("a", 20)},    // prompt 9: under min 10
      {words("p10", 9), words("a", 8)},    // answer 9: under min 10
      {words("ok", 9), words("a", 9)},     // 10 + 10: kept
      {words("p51", 50), words("a", 9)},   // prompt 51: over 50
      {words("t81", 49), words("a", 30)},  // 50 + 31 = 81: over 80
      {words("t80", 49), words("a", 29)},  // 50 + 30 = 80: kept
  });
  ShareGptLimits limits;
  limits.min_tokens = 10;
  limits.max_prompt_tokens = 50;
  limits.max_total_tokens = 80;
  const std::vector<Prompt> prompts = sample(path, 100, limits);
  EXPECT_EQ(tags(prompts), (Tags{"ok", "t80"}));
  EXPECT_EQ(sampling_.too_short, 2);
  EXPECT_EQ(sampling_.too_long, 2);
  // The same file under vLLM's defaults keeps every conversation.
  EXPECT_EQ(sample(path, 100).size(), 6u);
}

TEST_F(ShareGptSampleTest, FixtureUnderDefaultLimits) {
  const std::vector<Prompt> prompts = sample(kFixture, 100);
  // 33 conversations with two turns; Chinese prompts are one "word" (3 tokens here) and "hi"
  // too: 7 too short; the 1,500-word prompt too long; 25 kept, "roles" among them.
  EXPECT_EQ(sampling_.candidates, 33);
  EXPECT_EQ(sampling_.measured, 33);
  EXPECT_EQ(sampling_.too_short, 7);
  EXPECT_EQ(sampling_.too_long, 1);
  EXPECT_EQ(prompts.size(), 25u);
  EXPECT_EQ(stats_.records_read, 38);
  EXPECT_EQ(stats_.malformed, 3);
  EXPECT_EQ(stats_.skipped_turns, 2);
  EXPECT_EQ(stats_.accepted, 25);
  EXPECT_EQ(std::count_if(prompts.begin(), prompts.end(),
                          [](const Prompt& p) {
                            return p.text.rfind("lazy and servers throughput", 0) == 0;
                          }),
            1);
}

// `n` distinct conversations that all pass the default limits.
std::vector<Pair> passing_pairs(int n) {
  std::vector<Pair> pairs;
  for (int i = 0; i < n; ++i) {
    pairs.push_back({words("c" + std::to_string(i), 10), words("a", 5 + i % 7)});
  }
  return pairs;
}

std::vector<std::string> texts(const std::vector<Prompt>& prompts) {
  std::vector<std::string> out;
  for (const Prompt& p : prompts) out.push_back(p.text);
  return out;
}

TEST_F(ShareGptSampleTest, SameSeedSamePromptsInTheSameOrder) {
  const std::string path = write_pairs(passing_pairs(300));
  const std::vector<std::string> first = texts(sample(path, 20, {}, 7));
  const std::vector<std::string> again = texts(sample(path, 20, {}, 7));
  const std::vector<std::string> other = texts(sample(path, 20, {}, 8));
  ASSERT_EQ(first.size(), 20u);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  // A seeded random draw, not the file's first 20 in order.
  std::vector<std::string> head;
  for (int i = 0; i < 20; ++i) head.push_back(words("c" + std::to_string(i), 10));
  EXPECT_NE(first, head);
  // Drawn from a reservoir of 3 x 20 + 64 of the 300.
  EXPECT_EQ(sampling_.candidates, 124);
  EXPECT_EQ(sampling_.measured, 20);
}

TEST_F(ShareGptSampleTest, MeasuresInBatchesAndStopsOnceEnoughPass) {
  const std::string path = write_pairs(passing_pairs(300));
  const std::vector<Prompt> all = sample(path, 300);
  EXPECT_EQ(all.size(), 300u);
  EXPECT_EQ(tokenizer_.count_calls, 2);       // 256 + 44 kept prompts, templated
  EXPECT_EQ(tokenizer_.count_text_calls, 4);  // prompts and answers of both batches
  EXPECT_EQ(tokenizer_.encode_calls, 0);
  // Every conversation exactly once.
  std::vector<std::string> got = texts(all);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(std::adjacent_find(got.begin(), got.end()), got.end());

  tokenizer_.count_calls = 0;
  EXPECT_EQ(sample(path, 5).size(), 5u);
  EXPECT_EQ(tokenizer_.count_calls, 1);
  EXPECT_EQ(sampling_.measured, 5);
}

TEST_F(ShareGptSampleTest, ProgressReportsPromptsKeptOfThoseWanted) {
  ShareGptSpec spec;
  spec.path = write_pairs(passing_pairs(300));
  spec.count = 300;
  std::vector<std::pair<size_t, size_t>> calls;
  sample_sharegpt(spec, &tokenizer_, nullptr, stats_, sampling_,
                  [&](size_t done, size_t total) { calls.emplace_back(done, total); });
  EXPECT_EQ(calls, (std::vector<std::pair<size_t, size_t>>{{256, 300}, {300, 300}}));
}

TEST_F(ShareGptSampleTest, FewerUsableThanWantedReturnsThoseThatPass) {
  std::vector<Pair> pairs = passing_pairs(4);
  pairs.push_back({"hi", "ok"});
  const std::vector<Prompt> prompts = sample(write_pairs(pairs), 50);
  EXPECT_EQ(prompts.size(), 4u);
  EXPECT_EQ(stats_.accepted, 4);
  EXPECT_EQ(sampling_.too_short, 1);
  EXPECT_EQ(sampling_.measured, 5);
}

TEST_F(ShareGptSampleTest, NothingPassingNamesTheLimits) {
  const std::string path = write_pairs({{"hi", "ok"}, {words("x", 2000), "a b c d"}});
  const std::string error = sample_error(path);
  for (const char* part :
       {"pairs.json", "none of the 2 conversations measured", "1 too short", "1 too long",
        "at least 4 tokens", "prompt at most 1024", "prompt + answer at most 2048",
        "--sharegpt-min-len", "--sharegpt-max-input-len", "--sharegpt-max-total-len"}) {
    EXPECT_NE(error.find(part), std::string::npos) << part << " in: " << error;
  }
  ShareGptLimits limits;
  limits.min_tokens = 50;
  limits.max_prompt_tokens = 60;
  limits.max_total_tokens = 70;
  const std::string changed = sample_error(write_pairs(passing_pairs(3)), limits);
  EXPECT_NE(changed.find("at least 50 tokens each, prompt at most 60, prompt + answer at most 70"),
            std::string::npos)
      << changed;
}

TEST_F(ShareGptSampleTest, NoConversationWithTwoTurnsIsAnError) {
  const std::string path = write_file(
      "bad.json", R"([{"conversations":[{"from":"human","value":"alone"}]}, 42, {"id":"noconv"}])");
  const std::string error = sample_error(path);
  for (const char* part : {"bad.json", "no usable ShareGPT conversation", "3 items read",
                           "2 malformed", "first: item 2: not a JSON object", "1 with fewer"}) {
    EXPECT_NE(error.find(part), std::string::npos) << part << " in: " << error;
  }
  EXPECT_EQ(tokenizer_.count_calls, 0);
}

TEST_F(ShareGptSampleTest, MissingFileNamesThePath) {
  const std::string error = sample_error((dir_ / "absent.json").string());
  EXPECT_NE(error.find("absent.json"), std::string::npos) << error;
}

TEST_F(ShareGptSampleTest, TokenizerFailurePropagates) {
  tokenizer_.fail = true;
  EXPECT_THROW(sample(write_pairs(passing_pairs(3)), 3), TokenizerError);
}

TEST_F(ShareGptSampleTest, EstimatePathFiltersOnTextsWithoutTheOverhead) {
  // "Hi" estimates 11 tokens with the per-request overhead, 1 on its own: dropped, as vLLM would.
  const std::string path = write_pairs(
      {{"Hi", "a long enough answer here"}, {"one two three four", "five six seven eight"}});
  ShareGptSpec spec;
  spec.path = path;
  spec.count = 2;
  LengthModel model;
  model.overhead = 10;
  model.per_word = 1.0;
  const std::vector<Prompt> prompts = sample_sharegpt(spec, nullptr, &model, stats_, sampling_);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].text, "one two three four");
  EXPECT_EQ(prompts[0].target_input_tokens, 14);  // the estimate of the request, overhead included
  EXPECT_EQ(prompts[0].target_output_tokens, 4);
  EXPECT_EQ(sampling_.too_short, 1);
  // The filters apply to estimates too: a 3-token answer is too short.
  const std::string short_answer = write_file(
      "short.json",
      R"([{"conversations":[{"from":"human","value":"a b c"},{"from":"gpt","value":"x y z"}]}])");
  spec.path = short_answer;
  EXPECT_THROW(sample_sharegpt(spec, nullptr, &model, stats_, sampling_), DatasetError);
}

// Issue 23: vLLM filters on a text's own count, and the chat template made "Hi" pass. Here a
// Qwen-like tokenizer (no BOS) and a 28-token template: every count() is 28 more than count_text().
TEST_F(ShareGptSampleTest, FilterCountsEachTextOnItsOwnNotWithTheTemplate) {
  WordTokenizer qwen(28, 0);
  const std::string path = write_pairs({
      {"Hi", words("a", 20)},                  // prompt 1 token (29 templated): too short
      {words("two", 6), "ok thanks"},          // answer 2 tokens: too short
      {words("p1024", 1024), words("a", 10)},  // prompt 1,024 (1,052 templated): kept
      {words("p1025", 1025), words("a", 10)},  // prompt 1,025: too long
      {words("fine", 4), words("a", 4)},       // 4 and 4: kept
  });
  ShareGptSpec spec;
  spec.path = path;
  spec.count = 10;
  const std::vector<Prompt> prompts = sample_sharegpt(spec, &qwen, nullptr, stats_, sampling_);
  EXPECT_EQ(tags(prompts), (Tags{"fine", "p1024"}));
  EXPECT_EQ(sampling_.too_short, 2);
  EXPECT_EQ(sampling_.too_long, 1);
  for (const Prompt& p : prompts) {
    // The target stays what the server will report: the templated count.
    EXPECT_EQ(p.target_input_tokens, WordTokenizer::words(p.text) + 28) << p.text;
  }
}

TEST_F(ShareGptSampleTest, AnswersAreCountedWithTheirSpecialTokensAsVllmDoes) {
  // With a BOS the 3-word answer counts 4: kept (it was dropped when counted without), and its
  // max_tokens is 4, vLLM's output_len.
  const std::vector<Prompt> prompts = sample(write_pairs({{words("q", 5), "x y z"}}), 1);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].target_output_tokens, 4);
}

TEST(ShareGptFit, VllmRulesOnOwnCounts) {
  const ShareGptLimits limits;
  EXPECT_EQ(sharegpt_fit(limits, 1, 100), ShareGptFit::kTooShort);
  EXPECT_EQ(sharegpt_fit(limits, 3, 100), ShareGptFit::kTooShort);
  EXPECT_EQ(sharegpt_fit(limits, 4, 4), ShareGptFit::kKept);
  EXPECT_EQ(sharegpt_fit(limits, 100, 2), ShareGptFit::kTooShort);
  EXPECT_EQ(sharegpt_fit(limits, 1024, 4), ShareGptFit::kKept);
  EXPECT_EQ(sharegpt_fit(limits, 1025, 4), ShareGptFit::kTooLong);
  EXPECT_EQ(sharegpt_fit(limits, 1024, 1024), ShareGptFit::kKept);     // 2,048
  EXPECT_EQ(sharegpt_fit(limits, 1024, 1025), ShareGptFit::kTooLong);  // 2,049
  ShareGptLimits fixed = limits;
  fixed.output_len = 2;  // a fixed output is not checked against the minimum
  EXPECT_EQ(sharegpt_fit(fixed, 100, 0), ShareGptFit::kKept);
  EXPECT_EQ(sharegpt_fit(fixed, 2, 0), ShareGptFit::kTooShort);
  fixed.output_len = 1025;
  EXPECT_EQ(sharegpt_fit(fixed, 1024, 0), ShareGptFit::kTooLong);
}

TEST(EstimateTokensTest, OverheadWordsAndCodePoints) {
  LengthModel model;
  model.overhead = 2;
  model.per_word = 0.5;
  model.per_code_point = 0.25;
  EXPECT_EQ(estimate_tokens(model, "ab cd"), 4);  // 2 + 1 + 1.25, rounded
  EXPECT_EQ(estimate_tokens(model, ""), 2);
  LengthModel cjk;
  cjk.per_code_point = 0.25;
  EXPECT_EQ(estimate_tokens(cjk, "你好世界你好世界"), 2);  // code points, not bytes
  LengthModel per_word;
  per_word.per_word = 1;
  EXPECT_EQ(estimate_tokens(per_word, "  a\tb\n c\r\n"), 3);
}

}  // namespace
}  // namespace llmperf

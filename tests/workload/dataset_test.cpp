// Tests for the dataset readers: openqa, line_by_line and longalpaca on the shipped samples and
// on temporary files with malformed, blank and CRLF lines; the length filter; the limit; --prompt.
#include "workload/dataset.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "workload/utf8.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

const std::string kDatasets = LLMPERF_DATASETS_DIR;

// A fresh temporary directory, removed with its files at the end of each test.
class DatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "llmperf_dataset_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string write_file(const std::string& name, const std::string& content) const {
    const fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path.string();
  }

  static DatasetOptions options_for(const std::string& kind, const std::string& path) {
    DatasetOptions options;
    options.kind = kind;
    options.path = path;
    return options;
  }

  // The DatasetError message load_prompts throws, or "" when it does not throw.
  static std::string load_error(const DatasetOptions& options, DatasetStats& stats) {
    try {
      load_prompts(options, stats);
    } catch (const DatasetError& error) {
      return error.what();
    }
    return "";
  }

  fs::path dir_;  // this test's temporary directory
};

// --- UTF-8 ---

TEST(Utf8Test, CountsCodePoints) {
  EXPECT_EQ(utf8_length(""), 0);
  EXPECT_EQ(utf8_length("hello"), 5);
  EXPECT_EQ(utf8_length("你好世界啊"), 5);
  EXPECT_EQ(utf8_length("héllo"), 5);
  EXPECT_EQ(utf8_length("\xF0\x9F\x98\x80"), 1);  // U+1F600, four bytes
  EXPECT_EQ(utf8_length("a你b"), 3);
}

TEST(Utf8Test, InvalidBytesCountOneEach) {
  EXPECT_EQ(utf8_length("\xFF\xFE"), 2);
  EXPECT_EQ(utf8_length("\xE4\xB8"), 2);  // truncated three-byte sequence
  EXPECT_EQ(utf8_length("\x80"
                        "a"),
            2);                           // stray continuation byte
  EXPECT_EQ(utf8_length("\xC0\xAF"), 2);  // overlong '/'
  EXPECT_EQ(utf8_length("\xE4\xB8"
                        "a"),
            3);
}

TEST(Utf8Test, Validates) {
  EXPECT_TRUE(utf8_valid("plain"));
  EXPECT_TRUE(utf8_valid("中文 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(utf8_valid("\xFF"));
  EXPECT_FALSE(utf8_valid("\xE4\xB8"));
  EXPECT_FALSE(utf8_valid("\xED\xA0\x80"));      // UTF-16 surrogate
  EXPECT_FALSE(utf8_valid("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(utf8_valid("\xC1\xBF"));          // overlong
}

// --- openqa ---

TEST_F(DatasetTest, OpenQaSampleLoadsEveryQuestion) {
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("openqa", kDatasets + "/open_qa.jsonl"), stats);
  ASSERT_EQ(prompts.size(), 40U);
  EXPECT_EQ(stats.records_read, 40);
  EXPECT_EQ(stats.accepted, 40);
  EXPECT_EQ(stats.malformed, 0);
  EXPECT_EQ(prompts[0].text, "为什么天空是蓝色的？");
  EXPECT_EQ(prompts[0].length, 10);
  EXPECT_EQ(prompts[1].text, "What is a prime number?");
  for (const auto& prompt : prompts) {
    EXPECT_FALSE(prompt.text.empty());
    EXPECT_TRUE(prompt.messages_json.empty());
    EXPECT_TRUE(prompt.body_json.empty());
    EXPECT_EQ(prompt.length, utf8_length(prompt.text));
  }
}

TEST_F(DatasetTest, OpenQaLongSampleIsOneLongPrompt) {
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("openqa", kDatasets + "/long.jsonl"), stats);
  ASSERT_EQ(prompts.size(), 1U);
  EXPECT_GT(prompts[0].length, 5000);
  EXPECT_NE(prompts[0].text.find("Translate to France."), std::string::npos);
}

TEST_F(DatasetTest, OpenQaSkipsAndCountsBadLines) {
  const std::string path = write_file("qa.jsonl",
                                      "{\"question\":\"first\",\"human_answers\":[]}\n"
                                      "{\"question\": \"oops\"\n"        // 2: bad JSON
                                      "{\"human_answers\":[\"x\"]}\n"    // 3: missing field
                                      "{\"question\":42}\n"              // 4: wrong type
                                      "[\"question\"]\n"                 // 5: not an object
                                      "\n"                               // 6: blank
                                      "   \r\n"                          // 7: blank (CRLF)
                                      "{\"question\":\"\"}\n"            // 8: empty prompt
                                      "{\"question\":\"second\"}\r\n");  // 9: CRLF
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("openqa", path), stats);
  ASSERT_EQ(prompts.size(), 2U);
  EXPECT_EQ(prompts[0].text, "first");
  EXPECT_EQ(prompts[1].text, "second");
  EXPECT_EQ(stats.records_read, 9);
  EXPECT_EQ(stats.malformed, 4);
  EXPECT_EQ(stats.malformed_lines, (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(stats.skipped_empty, 3);
  EXPECT_EQ(stats.first_malformed_reason.rfind("line 2: not valid JSON: ", 0), 0U)
      << stats.first_malformed_reason;
  EXPECT_EQ(stats.first_malformed_reason.find("json.exception"), std::string::npos);
}

// Found by the line_by_line fuzz target: nlohmann throws out_of_range (not parse_error) for a
// number that overflows a double; every reader must count such a line as malformed, not crash.
TEST_F(DatasetTest, NumberOverflowIsAMalformedLineInEveryFormat) {
  DatasetStats openqa;
  const auto qa = load_prompts(options_for("openqa", write_file("o.jsonl",
                                                                "{\"question\":\"a\",\"n\":1e999}\n"
                                                                "{\"question\":\"b\"}\n")),
                               openqa);
  ASSERT_EQ(qa.size(), 1U);
  EXPECT_EQ(qa[0].text, "b");
  EXPECT_EQ(openqa.malformed_lines, (std::vector<int64_t>{1}));

  DatasetStats lines;
  const auto lbl =
      load_prompts(options_for("line_by_line",
                               write_file("l.txt",
                                          "[{\"role\":\"user\",\"content\":\"x\",\"n\":-1e999}]\n"
                                          "{\"prompt\":\"y\",\"n\":1e999}\n"
                                          "plain\n")),
                   lines);
  ASSERT_EQ(lbl.size(), 1U);
  EXPECT_EQ(lbl[0].text, "plain");
  EXPECT_EQ(lines.malformed_lines, (std::vector<int64_t>{1, 2}));

  DatasetStats alpaca;
  const auto la =
      load_prompts(options_for("longalpaca", write_file("a.json",
                                                        "[{\"instruction\":\"a\",\"n\":1e999},"
                                                        "{\"instruction\":\"b\"}]")),
                   alpaca);
  ASSERT_EQ(la.size(), 1U);
  EXPECT_EQ(la[0].text, "b");
  EXPECT_EQ(alpaca.malformed, 1);
}

TEST_F(DatasetTest, OpenQaMissingFieldReasonNamesTheField) {
  const std::string path = write_file("qa.jsonl", "\n\n{\"answer\":\"x\"}\n");
  DatasetStats stats;
  const std::string error = load_error(options_for("openqa", path), stats);
  EXPECT_EQ(stats.first_malformed_reason, "line 3: no string field \"question\"");
  EXPECT_NE(error.find("line 3: no string field \"question\""), std::string::npos) << error;
  EXPECT_NE(error.find("2 empty"), std::string::npos) << error;
}

TEST_F(DatasetTest, EmptyFileIsAClearError) {
  const std::string path = write_file("empty.jsonl", "");
  DatasetStats stats;
  const std::string error = load_error(options_for("openqa", path), stats);
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("no usable prompts"), std::string::npos) << error;
  EXPECT_NE(error.find("no lines"), std::string::npos) << error;
  EXPECT_EQ(stats.records_read, 0);
}

TEST_F(DatasetTest, OnlyMalformedLinesErrorNamesLineNumbers) {
  const std::string path = write_file("bad.jsonl", "{bad\n\n{\"q\":1}\nnot json\n");
  DatasetStats stats;
  const std::string error = load_error(options_for("openqa", path), stats);
  EXPECT_NE(error.find(path + ": no usable prompts (4 lines read: 0 accepted"), std::string::npos)
      << error;
  EXPECT_NE(error.find("3 malformed, first at lines 1, 3, 4"), std::string::npos) << error;
  EXPECT_NE(error.find("line 1: not valid JSON"), std::string::npos) << error;
  EXPECT_EQ(stats.malformed, 3);
}

TEST_F(DatasetTest, MalformedLineNumbersAreCappedAtTen) {
  std::string content;
  for (int i = 0; i < 15; ++i) content += "{nope\n";
  content += "{\"question\":\"ok\"}\n";
  DatasetStats stats;
  const auto prompts =
      load_prompts(options_for("openqa", write_file("many.jsonl", content)), stats);
  EXPECT_EQ(prompts.size(), 1U);
  EXPECT_EQ(stats.malformed, 15);
  ASSERT_EQ(stats.malformed_lines.size(), 10U);
  EXPECT_EQ(stats.malformed_lines.front(), 1);
  EXPECT_EQ(stats.malformed_lines.back(), 10);
}

TEST_F(DatasetTest, ChineseLengthIsCountedInCodePoints) {
  const std::string path = write_file("zh.jsonl", "{\"question\":\"你好世界啊\"}\n");
  DatasetOptions options = options_for("openqa", path);
  options.min_length = 5;
  options.max_length = 5;
  DatasetStats stats;
  const auto prompts = load_prompts(options, stats);
  ASSERT_EQ(prompts.size(), 1U);
  EXPECT_EQ(prompts[0].length, 5);

  options.min_length = 1;
  options.max_length = 4;
  const std::string error = load_error(options, stats);
  EXPECT_EQ(stats.skipped_length, 1);
  EXPECT_NE(error.find("1 outside --min-prompt-length/--max-prompt-length [1, 4]"),
            std::string::npos)
      << error;
}

TEST_F(DatasetTest, LengthFilterSkipsAndCounts) {
  DatasetOptions options = options_for("openqa", kDatasets + "/open_qa.jsonl");
  options.min_length = 20;
  options.max_length = 100;
  DatasetStats stats;
  const auto prompts = load_prompts(options, stats);
  EXPECT_FALSE(prompts.empty());
  EXPECT_GT(stats.skipped_length, 0);
  EXPECT_EQ(stats.accepted + stats.skipped_length, stats.records_read);
  for (const auto& prompt : prompts) {
    EXPECT_GE(prompt.length, 20);
    EXPECT_LE(prompt.length, 100);
  }
}

TEST_F(DatasetTest, LimitStopsReadingEarly) {
  DatasetOptions options = options_for("openqa", kDatasets + "/open_qa.jsonl");
  options.limit = 3;
  DatasetStats stats;
  const auto prompts = load_prompts(options, stats);
  EXPECT_EQ(prompts.size(), 3U);
  EXPECT_EQ(stats.records_read, 3);
  EXPECT_LT(stats.records_read, 40);
}

TEST_F(DatasetTest, LimitNeverReachesLaterBadLines) {
  const std::string path =
      write_file("qa.jsonl", "{\"question\":\"a\"}\n{\"question\":\"b\"}\n{broken\n{broken\n");
  DatasetOptions options = options_for("openqa", path);
  options.limit = 2;
  DatasetStats stats;
  EXPECT_EQ(load_prompts(options, stats).size(), 2U);
  EXPECT_EQ(stats.malformed, 0);
  EXPECT_EQ(stats.records_read, 2);
}

TEST_F(DatasetTest, ReaderStreamsOnePromptAtATime) {
  auto reader = open_dataset(options_for("openqa", kDatasets + "/open_qa.jsonl"));
  Prompt prompt;
  ASSERT_TRUE(reader->next(prompt));
  EXPECT_EQ(reader->stats().records_read, 1);
  ASSERT_TRUE(reader->next(prompt));
  EXPECT_EQ(prompt.text, "What is a prime number?");
  EXPECT_EQ(reader->stats().accepted, 2);
}

TEST_F(DatasetTest, MissingFileNamesPathAndReason) {
  const std::string path = (dir_ / "absent.jsonl").string();
  try {
    open_dataset(options_for("openqa", path));
    FAIL() << "expected DatasetError";
  } catch (const DatasetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
  }
}

TEST_F(DatasetTest, DirectoryIsNotADataset) {
  EXPECT_THROW(open_dataset(options_for("line_by_line", dir_.string())), DatasetError);
}

TEST_F(DatasetTest, UnknownKindListsSupportedKinds) {
  try {
    open_dataset(options_for("alpaca", kDatasets + "/open_qa.jsonl"));
    FAIL() << "expected DatasetError";
  } catch (const DatasetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("alpaca"), std::string::npos) << message;
    EXPECT_NE(message.find("openqa, line_by_line, longalpaca"), std::string::npos) << message;
  }
  // The kinds measured with the server's tokenizer are not read as prompts.
  EXPECT_THROW(open_dataset(options_for("sharegpt", kDatasets + "/open_qa.jsonl")), DatasetError);
}

TEST_F(DatasetTest, MissingPathWithoutPromptIsAnError) {
  EXPECT_THROW(open_dataset(options_for("openqa", "")), DatasetError);
}

// --- --prompt ---

TEST_F(DatasetTest, FixedPromptNeedsNoFile) {
  DatasetOptions options = options_for("openqa", "");
  options.fixed_prompt = "你好, world";
  DatasetStats stats;
  const auto prompts = load_prompts(options, stats);
  ASSERT_EQ(prompts.size(), 1U);
  EXPECT_EQ(prompts[0].text, "你好, world");
  EXPECT_EQ(prompts[0].length, 9);
  EXPECT_EQ(stats.accepted, 1);
}

TEST_F(DatasetTest, FixedPromptOutsideLengthFilterIsAnError) {
  DatasetOptions options = options_for("openqa", "");
  options.fixed_prompt = "hello world";
  options.max_length = 5;
  try {
    DatasetStats stats;
    load_prompts(options, stats);
    FAIL() << "expected DatasetError";
  } catch (const DatasetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--prompt is 11 characters long"), std::string::npos) << message;
    EXPECT_NE(message.find("[0, 5]"), std::string::npos) << message;
  }
}

// --- line_by_line ---

TEST_F(DatasetTest, LineByLineSampleHasTextMessagesAndBody) {
  DatasetStats stats;
  const auto prompts =
      load_prompts(options_for("line_by_line", kDatasets + "/line_by_line.txt"), stats);
  ASSERT_EQ(prompts.size(), 22U);
  EXPECT_EQ(stats.malformed, 0);
  EXPECT_EQ(prompts[0].text, "Write a haiku about a quiet harbour at dawn.");
  EXPECT_EQ(prompts[3].length, utf8_length("用一句话介绍一下杭州西湖。"));
  const Prompt& messages = prompts[20];
  EXPECT_TRUE(messages.text.empty());
  EXPECT_FALSE(messages.messages_json.empty());
  EXPECT_EQ(messages.length, utf8_length("You are a concise assistant.") +
                                 utf8_length("Name three rivers in Europe."));
  const Prompt& body = prompts[21];
  EXPECT_FALSE(body.body_json.empty());
  EXPECT_TRUE(body.messages_json.empty());
  EXPECT_EQ(body.length, utf8_length("Count from one to five in German."));
}

TEST_F(DatasetTest, LineByLineHandlesCrlfBlankAndMalformedLines) {
  const std::string path =
      write_file("lines.txt",
                 "\xEF\xBB\xBF"
                 "first prompt\r\n"         // 1: BOM + CRLF
                 "\r\n"                     // 2: blank
                 "[not json\n"              // 3
                 "{\"prompt\": \n"          // 4
                 "[{\"role\":\"user\"}]\n"  // 5: no content
                 "[1, 2]\n"                 // 6: not objects
                 "{\"foo\":1}\n"            // 7: no messages/prompt
                 "[]\n"                     // 8: empty list
                 "bad \xFF utf8\n"          // 9
                 "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"abc\"},"
                 "{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}]\n"  // 10: parts
                 "{\"prompt\":\"你好\",\"max_tokens\":3}\r\n"                   // 11: body
                 "  \t \n"                                                      // 12: blank
                 "second prompt  \n");                                          // 13
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("line_by_line", path), stats);
  ASSERT_EQ(prompts.size(), 4U);
  EXPECT_EQ(prompts[0].text, "first prompt");
  EXPECT_EQ(prompts[1].length, 3);
  EXPECT_FALSE(prompts[1].messages_json.empty());
  EXPECT_EQ(prompts[2].length, 2);
  EXPECT_EQ(prompts[2].body_json, "{\"prompt\":\"你好\",\"max_tokens\":3}");
  EXPECT_EQ(prompts[3].text, "second prompt  ");
  EXPECT_EQ(stats.records_read, 13);
  EXPECT_EQ(stats.skipped_empty, 2);
  EXPECT_EQ(stats.malformed, 7);
  EXPECT_EQ(stats.malformed_lines, (std::vector<int64_t>{3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(stats.first_malformed_reason.rfind("line 3: not valid JSON", 0), 0U);
}

TEST_F(DatasetTest, LineByLineMessageReasonsNameTheProblem) {
  const std::string path = write_file("lines.txt", "[{\"content\":\"x\"}]\n");
  DatasetStats stats;
  const std::string error = load_error(options_for("line_by_line", path), stats);
  EXPECT_NE(error.find("line 1: messages[0] has no string \"role\""), std::string::npos) << error;
}

TEST_F(DatasetTest, LineByLineLimitStopsEarly) {
  DatasetOptions options = options_for("line_by_line", kDatasets + "/line_by_line.txt");
  options.limit = 5;
  DatasetStats stats;
  EXPECT_EQ(load_prompts(options, stats).size(), 5U);
  EXPECT_EQ(stats.records_read, 5);
}

// --- longalpaca ---

TEST_F(DatasetTest, LongAlpacaSampleLoadsInstructions) {
  DatasetStats stats;
  const auto prompts =
      load_prompts(options_for("longalpaca", kDatasets + "/longalpaca.json"), stats);
  ASSERT_EQ(prompts.size(), 5U);
  EXPECT_EQ(stats.records_read, 5);
  EXPECT_EQ(stats.malformed, 0);
  for (const auto& prompt : prompts) EXPECT_GT(prompt.length, 1000);
  EXPECT_EQ(prompts[0].text.rfind("Below is a long report.", 0), 0U);
}

TEST_F(DatasetTest, LongAlpacaCountsMalformedItems) {
  const std::string path =
      write_file("la.json",
                 "[\n {\"instruction\": \"a ] , } \\\" [ {\", \"output\": \"x\"},\n"
                 " {\"output\": \"no instruction\"},\n"
                 " {\"instruction\": 5},\n"
                 " 7,\n"
                 " {bad},\n"
                 " {\"instruction\": \"\"},\n"
                 " {\"instruction\": \"last\", \"nested\": [1, {\"k\": \"]\"}]}\n]\n");
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("longalpaca", path), stats);
  ASSERT_EQ(prompts.size(), 2U);
  EXPECT_EQ(prompts[0].text, "a ] , } \" [ {");
  EXPECT_EQ(prompts[1].text, "last");
  EXPECT_EQ(stats.records_read, 7);
  EXPECT_EQ(stats.skipped_empty, 1);
  EXPECT_EQ(stats.malformed_lines, (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(stats.first_malformed_reason, "item 2: no string field \"instruction\"");
}

TEST_F(DatasetTest, LongAlpacaStopsEarlyWithoutReadingTheRest) {
  const std::string path =
      write_file("la.json",
                 "[{\"instruction\":\"one\"},{\"instruction\":\"two\"},{\"instruction\":\"three\"},"
                 " this is not JSON at all ]]] {{{");
  DatasetOptions options = options_for("longalpaca", path);
  options.limit = 2;
  DatasetStats stats;
  const auto prompts = load_prompts(options, stats);
  ASSERT_EQ(prompts.size(), 2U);
  EXPECT_EQ(prompts[1].text, "two");
  EXPECT_EQ(stats.records_read, 2);
  EXPECT_EQ(stats.malformed, 0);

  options.limit = INT64_MAX;
  EXPECT_EQ(load_prompts(options, stats).size(), 3U);
  EXPECT_EQ(stats.malformed, 1);
}

TEST_F(DatasetTest, LongAlpacaRejectsANonList) {
  const std::string path = write_file("la.json", "{\"instruction\": \"x\"}");
  DatasetStats stats;
  const std::string error = load_error(options_for("longalpaca", path), stats);
  EXPECT_NE(error.find("not a JSON list"), std::string::npos) << error;
  EXPECT_EQ(stats.malformed, 1);
}

TEST_F(DatasetTest, LongAlpacaEmptyListIsAnError) {
  DatasetStats stats;
  const std::string error =
      load_error(options_for("longalpaca", write_file("la.json", " [ ]\n")), stats);
  EXPECT_NE(error.find("no usable prompts (the file has no items)"), std::string::npos) << error;
}

TEST_F(DatasetTest, LongAlpacaTruncatedListKeepsCompleteItems) {
  const std::string path =
      write_file("la.json", "[{\"instruction\": \"a\"},\r\n {\"instruction\": \"b");
  DatasetStats stats;
  const auto prompts = load_prompts(options_for("longalpaca", path), stats);
  ASSERT_EQ(prompts.size(), 1U);
  EXPECT_EQ(stats.malformed_lines, (std::vector<int64_t>{2}));
  EXPECT_NE(stats.first_malformed_reason.find("ends without ']'"), std::string::npos)
      << stats.first_malformed_reason;
}

TEST_F(DatasetTest, LongAlpacaToleratesTrailingComma) {
  DatasetStats stats;
  const auto prompts = load_prompts(
      options_for("longalpaca", write_file("la.json", "[{\"instruction\":\"a\"},]")), stats);
  EXPECT_EQ(prompts.size(), 1U);
  EXPECT_EQ(stats.malformed, 0);
}

}  // namespace
}  // namespace llmperf

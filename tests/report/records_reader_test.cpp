// read_records_file, the one reader of requests.jsonl: every record in order with its line
// number, blank lines skipped, the wall-clock anchor each line implies, and a malformed line
// named by file and line.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/report.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

class RecordsReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() /
             ("llmperf_records_reader_" + std::to_string(::getpid()) + ".jsonl"))
                .string();
  }
  void TearDown() override { fs::remove(path_); }
  void write(const std::string& text) { std::ofstream(path_, std::ios::binary) << text; }

  std::string path_;
};

// Two records written by record_to_json around a blank line: read back in order, with their
// line numbers and the run's wall-clock anchor.
TEST_F(RecordsReaderTest, StreamsEveryRecordWithItsLineNumberAndAnchor) {
  RunInfo info;
  info.anchor_steady_ns = 1'000;
  info.anchor_unix_ns = 1'700'000'000'000'000'000;
  RequestRecord first;
  first.id = 7;
  first.sent_ns = 1'500;
  first.end_ns = 2'500;
  RequestRecord second = first;
  second.id = 8;
  write(record_to_json(first, info) + "\n  \n" + record_to_json(second, info) + "\n");

  std::vector<int> lines;
  std::vector<uint64_t> ids;
  std::vector<int64_t> anchors;
  read_records_file(path_, [&](RecordsLine& line) {
    lines.push_back(line.number);
    ids.push_back(line.record.id);
    anchors.push_back(line.anchor_unix_ns.value_or(-1));
    EXPECT_EQ(line.record.sent_ns, 500);  // relative to the anchor
  });
  EXPECT_EQ(lines, (std::vector<int>{1, 3}));
  EXPECT_EQ(ids, (std::vector<uint64_t>{7, 8}));
  EXPECT_EQ(anchors, (std::vector<int64_t>{info.anchor_unix_ns, info.anchor_unix_ns}));
}

// Several --url: the record's url_index is written and read back; with one URL (-1) it is not
// written at all.
TEST_F(RecordsReaderTest, TheUrlIndexRoundTrips) {
  RequestRecord replica;
  replica.url_index = 2;
  RequestRecord single;
  EXPECT_EQ(record_to_json(single, RunInfo{}).find("url_index"), std::string::npos);
  write(record_to_json(replica, RunInfo{}) + "\n" + record_to_json(single, RunInfo{}) + "\n");
  std::vector<int32_t> indexes;
  read_records_file(path_, [&](RecordsLine& line) { indexes.push_back(line.record.url_index); });
  EXPECT_EQ(indexes, (std::vector<int32_t>{2, -1}));
}

TEST_F(RecordsReaderTest, AMalformedLineIsNamedByFileAndLine) {
  RequestRecord record;
  write(record_to_json(record, RunInfo{}) + "\n{\"id\": \"x\"}\n");
  int seen = 0;
  try {
    read_records_file(path_, [&](RecordsLine&) { ++seen; });
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path_ + ":2: ", 0), 0u) << e.what();
  }
  EXPECT_EQ(seen, 1);
}

TEST_F(RecordsReaderTest, AMissingFileSaysSo) {
  EXPECT_THROW(read_records_file(path_ + ".absent", [](RecordsLine&) {}), std::runtime_error);
}

}  // namespace
}  // namespace llmperf

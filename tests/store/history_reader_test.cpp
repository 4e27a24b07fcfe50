// Reading the history database (store/history_reader.h) against a fixture written with plain
// SQL: filters by name, run_label, tags (all must match) and start time, the last N by start
// time returned oldest first, the figures asked for (or all), null values, and the refusals of a
// missing file, a file that is not SQLite and an SQLite file without the history schema.
#include "store/history_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "store/history_fixture.h"

namespace llmperf {
namespace {

std::string reader_test_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("llmperf_history_reader_" +
                    std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "history.db").string();
}

// Six runs: smoke x4 (three env=staging, two of those also gpu=a100; one env=prod),
// nightly x2; inserted out of start order.
std::string reader_fixture(const std::string& name) {
  const std::string path = reader_test_path(name);
  history_fixture::create(path);
  const auto run = [&](const std::string& id, double t, const std::string& run_name,
                       std::vector<std::pair<std::string, std::string>> tags, double ttft) {
    history_fixture::Run r;
    r.run_id = id;
    r.started_unix = t;
    r.name = run_name;
    r.run_label = "parallel_1_number_10";
    r.directory = "/runs/" + id;
    r.tags = std::move(tags);
    r.figures = {{"ttft", "p99", ttft, "ms"},
                 {"output_throughput", "", 1000 + ttft, "tok/s"},
                 {"tpot", "p99", std::nullopt, "ms"}};
    history_fixture::add_run(path, r);
  };
  run("s3", 1'800'000'300, "smoke", {{"env", "staging"}, {"gpu", "a100"}}, 203);
  run("s1", 1'800'000'100, "smoke", {{"env", "staging"}}, 201);
  run("s2", 1'800'000'200, "smoke", {{"env", "staging"}, {"gpu", "a100"}}, 202);
  run("s4", 1'800'000'400, "smoke", {{"env", "prod"}}, 204);
  run("n1", 1'800'000'150, "nightly", {}, 301);
  run("n2", 1'800'000'250, "nightly", {}, 302);
  return path;
}

std::vector<std::string> reader_ids(const std::vector<HistoryEntry>& runs) {
  std::vector<std::string> ids;
  for (const HistoryEntry& run : runs) ids.push_back(run.run_id);
  return ids;
}

TEST(HistoryReader, AllRunsOldestFirstWithIdentity) {
  SqliteDb db(reader_fixture("all"), SqliteDb::Mode::kReadOnly);
  check_history_db(db);
  const std::vector<HistoryEntry> runs = read_history(db, {}, {"ttft.p99"});
  EXPECT_EQ(reader_ids(runs), (std::vector<std::string>{"s1", "n1", "s2", "n2", "s3", "s4"}));
  const HistoryEntry& s3 = runs[4];
  EXPECT_EQ(s3.name, "smoke");
  EXPECT_EQ(s3.run_label, "parallel_1_number_10");
  EXPECT_EQ(s3.directory, "/runs/s3");
  EXPECT_EQ(s3.started_at, "2027-01-15T08:05:00Z");
  EXPECT_DOUBLE_EQ(s3.started_unix, 1'800'000'300);
  EXPECT_EQ(s3.tags, (std::vector<std::pair<std::string, std::string>>{{"env", "staging"},
                                                                        {"gpu", "a100"}}));
  ASSERT_EQ(s3.figures.size(), 1u);  // only the figure asked for
  EXPECT_EQ(s3.figures.at("ttft.p99").value, 203);
  EXPECT_EQ(s3.figures.at("ttft.p99").unit, "ms");
}

TEST(HistoryReader, FiltersByNameTagsLabelAndTime) {
  SqliteDb db(reader_fixture("filters"), SqliteDb::Mode::kReadOnly);
  HistoryFilter filter;
  filter.name = "smoke";
  EXPECT_EQ(reader_ids(read_history(db, filter, {})),
            (std::vector<std::string>{"s1", "s2", "s3", "s4"}));
  filter.tags = {{"env", "staging"}};
  EXPECT_EQ(reader_ids(read_history(db, filter, {})), (std::vector<std::string>{"s1", "s2", "s3"}));
  filter.tags = {{"env", "staging"}, {"gpu", "a100"}};  // every tag must match
  EXPECT_EQ(reader_ids(read_history(db, filter, {})), (std::vector<std::string>{"s2", "s3"}));
  filter.started_before_unix = 1'800'000'300;  // strictly before
  EXPECT_EQ(reader_ids(read_history(db, filter, {})), (std::vector<std::string>{"s2"}));
  filter = {};
  filter.run_label = "other";
  EXPECT_TRUE(read_history(db, filter, {}).empty());
  filter = {};
  filter.name = "";
  EXPECT_TRUE(read_history(db, filter, {}).empty());  // no run without a name
}

TEST(HistoryReader, LastNByStartTime) {
  SqliteDb db(reader_fixture("last"), SqliteDb::Mode::kReadOnly);
  HistoryFilter filter;
  filter.name = "smoke";
  filter.last = 2;
  EXPECT_EQ(reader_ids(read_history(db, filter, {})), (std::vector<std::string>{"s3", "s4"}));
}

TEST(HistoryReader, EveryFigureAndNullValues) {
  SqliteDb db(reader_fixture("figures"), SqliteDb::Mode::kReadOnly);
  HistoryFilter filter;
  filter.last = 1;
  const std::vector<HistoryEntry> runs = read_history(db, filter, {});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].figures.size(), 3u);
  EXPECT_EQ(runs[0].figures.at("output_throughput").value, 1204);
  EXPECT_EQ(runs[0].figures.at("output_throughput").unit, "tok/s");
  EXPECT_FALSE(runs[0].figures.at("tpot.p99").value.has_value());
}

TEST(HistoryReader, RefusesWhatIsNotAHistoryDatabase) {
  const std::string missing = reader_test_path("missing");
  EXPECT_THROW(SqliteDb(missing, SqliteDb::Mode::kReadOnly), SqliteError);
  const std::string text = reader_test_path("text");
  std::ofstream(text) << "this is not a database, only some text that is long enough\n";
  try {
    SqliteDb db(text, SqliteDb::Mode::kReadOnly);
    check_history_db(db);
    FAIL() << "a text file was accepted";
  } catch (const SqliteError& error) {
    EXPECT_NE(std::string(error.what()).find("not a history database"), std::string::npos)
        << error.what();
  }
  const std::string empty = reader_test_path("empty");
  {
    SqliteDb db(empty);
    db.exec("CREATE TABLE other (x INTEGER)");
  }
  SqliteDb db(empty, SqliteDb::Mode::kReadOnly);
  EXPECT_THROW(check_history_db(db), SqliteError);
}

}  // namespace
}  // namespace llmperf

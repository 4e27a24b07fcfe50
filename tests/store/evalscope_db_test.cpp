// benchmark_data.db: hand-made records mapped to rows of EvalScope's `result` table (units in
// seconds, Unix times, what successes and failures fill), and the file a run's EvalScopeDb
// consumer writes beside requests.jsonl, read back through the store stage: EvalScope's columns and
// types in order, one row per measured request (warm-up left out), NULLs where EvalScope leaves
// them.
#include <unistd.h>

#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "store/evalscope_db.h"
#include "store/sqlite_db.h"
#include "test_units.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kEvalScopeDbUnix = 1'700'000'000'000'000'000;  // Unix ns of steady time 0
constexpr int64_t kEvalScopeDbS = 1'000 * kMs;

// Sent at 1 s, first output at 1.25 s, chunks at 1.25, 1.30 and 1.40 s, done at 1.5 s.
RequestRecord evalscope_db_stream_record() {
  RequestRecord r;
  r.id = 7;
  r.prompt_index = 3;
  r.stream = true;
  r.sent_ns = 1 * kEvalScopeDbS;
  r.first_byte_ns = 1200 * kMs;
  r.first_content_ns = 1250 * kMs;
  r.chunk_ns = {1250 * kMs, 1300 * kMs, 1400 * kMs};
  r.last_event_ns = 1450 * kMs;
  r.end_ns = 1500 * kMs;
  r.input_tokens = 100;
  r.output_tokens = 3;
  r.output_text = "héllo \"world\"";
  r.http_status = 200;
  return r;
}

TEST(EvalScopeDb, StreamedSuccessInSecondsAndUnixTime) {
  const EvalScopeRow row = evalscope_row(evalscope_db_stream_record(), kEvalScopeDbUnix);
  EXPECT_EQ(nlohmann::json::parse(row.request),
            nlohmann::json({{"id", 7}, {"prompt_index", 3}, {"stream", true}}));
  ASSERT_TRUE(row.start_time);
  EXPECT_DOUBLE_EQ(*row.start_time, 1'700'000'001.0);
  ASSERT_TRUE(row.completed_time);
  EXPECT_DOUBLE_EQ(*row.completed_time, 1'700'000'001.5);
  const nlohmann::json itl = nlohmann::json::parse(row.inter_token_latencies);
  ASSERT_EQ(itl.size(), 2u);
  EXPECT_DOUBLE_EQ(itl[0].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(itl[1].get<double>(), 0.1);
  EXPECT_EQ(row.success, 1);
  EXPECT_EQ(nlohmann::json::parse(row.response_messages),
            nlohmann::json::array({"héllo \"world\""}));
  EXPECT_DOUBLE_EQ(row.latency.value(), 0.5);
  EXPECT_DOUBLE_EQ(row.first_chunk_latency.value(), 0.25);
  EXPECT_EQ(row.prompt_tokens, 100);
  EXPECT_EQ(row.completion_tokens, 3);
  EXPECT_EQ(row.max_gpu_memory_cost, 0.0);
  EXPECT_DOUBLE_EQ(row.time_per_output_token.value(), 0.125);  // (0.5 - 0.25) / (3 - 1)
  EXPECT_FALSE(row.request_id);
  EXPECT_EQ(row.is_stream, 1);
}

TEST(EvalScopeDb, FailureFillsOnlyWhatEvalScopeFills) {
  RequestRecord r = evalscope_db_stream_record();
  r.error = ErrorKind::kHttp;
  r.http_status = 500;
  r.chunk_ns.clear();
  r.first_content_ns = -1;
  r.output_text.clear();
  const EvalScopeRow row = evalscope_row(r, kEvalScopeDbUnix);
  EXPECT_EQ(row.success, 0);
  EXPECT_DOUBLE_EQ(row.start_time.value(), 1'700'000'001.0);
  EXPECT_DOUBLE_EQ(row.completed_time.value(), 1'700'000'001.5);  // when the failure was seen
  EXPECT_EQ(row.inter_token_latencies, "[]");
  EXPECT_EQ(row.response_messages, "[]");
  EXPECT_FALSE(row.latency);
  EXPECT_FALSE(row.first_chunk_latency);
  EXPECT_FALSE(row.prompt_tokens);
  EXPECT_FALSE(row.completion_tokens);
  EXPECT_FALSE(row.max_gpu_memory_cost);
  EXPECT_FALSE(row.time_per_output_token);
}

TEST(EvalScopeDb, NonStreamFirstChunkLatencyIsTheLatency) {
  RequestRecord r = evalscope_db_stream_record();
  r.stream = false;
  r.chunk_ns.clear();
  r.first_content_ns = -1;
  r.output_tokens = 1;
  const EvalScopeRow row = evalscope_row(r, kEvalScopeDbUnix);
  EXPECT_EQ(row.is_stream, 0);
  EXPECT_EQ(row.inter_token_latencies, "[]");
  EXPECT_DOUBLE_EQ(row.first_chunk_latency.value(), 0.5);
  EXPECT_EQ(row.time_per_output_token, 0.0);  // one token: no TPOT, 0.0 as EvalScope writes it
}

TEST(EvalScopeDb, NeverSentHasNoStartTime) {
  RequestRecord r;
  r.error = ErrorKind::kInterrupted;
  const EvalScopeRow row = evalscope_row(r, kEvalScopeDbUnix);
  EXPECT_FALSE(row.start_time);
  EXPECT_FALSE(row.completed_time);
  EXPECT_EQ(row.success, 0);
}

class EvalScopeDbFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("llmperf_evalscope_db_test_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // benchmark_data.db of `records`, as a run feeds it, anchored at steady 0 = kEvalScopeDbUnix.
  void write_records(const std::vector<RequestRecord>& records) {
    fs::create_directories(dir_);
    EvalScopeDb db(dir_.string(), {});
    for (const RequestRecord& r : records) db.add(r, kEvalScopeDbUnix);
    db.commit();
  }

  fs::path dir_;
};

TEST_F(EvalScopeDbFileTest, EvalScopeSchemaOneRowPerMeasuredRequest) {
  RequestRecord warmup = evalscope_db_stream_record();
  warmup.id = 0;
  warmup.warmup = true;
  RequestRecord failed = evalscope_db_stream_record();
  failed.id = 8;
  failed.error = ErrorKind::kHttp;
  failed.http_status = 503;
  write_records({warmup, evalscope_db_stream_record(), failed});  // the run's consumers

  const fs::path path = dir_ / "benchmark_data.db";
  ASSERT_TRUE(fs::exists(path));
  for (const auto& entry : fs::directory_iterator(dir_)) {  // no temporary file left behind
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
  SqliteDb db(path.string(), SqliteDb::Mode::kReadOnly);
  SqliteStatement columns(db, "PRAGMA table_info(result)");
  std::vector<std::string> schema;
  while (columns.step()) schema.push_back(columns.column_text(1) + " " + columns.column_text(2));
  EXPECT_EQ(schema, (std::vector<std::string>{
                        "request TEXT", "start_time REAL", "inter_token_latencies TEXT",
                        "success INTEGER", "response_messages TEXT", "completed_time REAL",
                        "latency REAL", "first_chunk_latency REAL", "prompt_tokens INTEGER",
                        "completion_tokens INTEGER", "max_gpu_memory_cost REAL",
                        "time_per_output_token REAL", "request_id TEXT", "is_stream INTEGER"}));

  SqliteStatement rows(db,
                       "SELECT request, start_time, success, latency, completion_tokens, "
                       "typeof(max_gpu_memory_cost), request_id FROM result ORDER BY rowid");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(nlohmann::json::parse(rows.column_text(0))["id"], 7);
  EXPECT_DOUBLE_EQ(rows.column_double(1), 1'700'000'001.0);
  EXPECT_EQ(rows.column_int(2), 1);
  EXPECT_DOUBLE_EQ(rows.column_double(3), 0.5);
  EXPECT_EQ(rows.column_int(4), 3);
  EXPECT_EQ(rows.column_text(5), "real");
  EXPECT_TRUE(rows.column_is_null(6));
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(nlohmann::json::parse(rows.column_text(0))["id"], 8);
  EXPECT_EQ(rows.column_int(2), 0);
  EXPECT_TRUE(rows.column_is_null(3));
  EXPECT_TRUE(rows.column_is_null(4));
  EXPECT_EQ(rows.column_text(5), "null");
  EXPECT_FALSE(rows.step());  // the warm-up request is not a row
}

TEST_F(EvalScopeDbFileTest, ReplacedWholeNotAppendedToAndNothingLeftWithoutCommit) {
  fs::create_directories(dir_);
  {
    EvalScopeDb abandoned(dir_.string(), {});
    abandoned.add(evalscope_db_stream_record(), kEvalScopeDbUnix);
  }  // an error elsewhere: no database, and no temporary file
  EXPECT_TRUE(fs::is_empty(dir_));
  for (int pass = 0; pass < 2; ++pass) {  // a run, then `llmperf report` over it
    EvalScopeDb db(dir_.string(), {});
    db.add(evalscope_db_stream_record(), kEvalScopeDbUnix);
    db.commit();
  }
  SqliteDb db((dir_ / "benchmark_data.db").string(), SqliteDb::Mode::kReadOnly);
  SqliteStatement count(db, "SELECT count(*) FROM result");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int(0), 1);
}

TEST_F(EvalScopeDbFileTest, CredentialsInAnswersAreScrubbed) {
  fs::create_directories(dir_);
  RequestRecord r = evalscope_db_stream_record();
  r.output_text = "the key is sk-secret-123456";
  EvalScopeDb db(dir_.string(), {"sk-secret-123456"});
  db.add(r, kEvalScopeDbUnix);
  db.commit();
  SqliteDb read((dir_ / "benchmark_data.db").string(), SqliteDb::Mode::kReadOnly);
  SqliteStatement text(read, "SELECT response_messages FROM result");
  ASSERT_TRUE(text.step());
  EXPECT_EQ(text.column_text(0).find("sk-secret"), std::string::npos) << text.column_text(0);
  EXPECT_NE(text.column_text(0).find("the key is"), std::string::npos) << text.column_text(0);
}

}  // namespace
}  // namespace llmperf

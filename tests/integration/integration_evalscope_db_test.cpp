// benchmark_data.db from a real run against llmperf-mock (streamed, a warm-up request, some
// requests failed by the mock's fault injection), read back with Debian's sqlite3 command-line
// tool: EvalScope's schema, and every column of every row against the run's requests.jsonl, times
// in seconds. `llmperf report` writes the same rows again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The sqlite3 command-line tool on PATH, or "" when it is not installed.
std::string evalscope_db_sqlite3() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir) / "sqlite3";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

// `sqlite3 -json DB SQL`'s rows ([] when the query returns none).
json evalscope_db_query(const std::string& sqlite3, const fs::path& db, const std::string& sql) {
  const ProcessResult result = run_process({sqlite3, "-json", db.string(), sql}, kTimeoutS);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  if (result.out.find_first_not_of(" \n") == std::string::npos) return json::array();
  return json::parse(result.out);
}

// Whether `value` (a column read back) is `expected` seconds, within sqlite3's printing (15
// significant digits: 10 us for a Unix time).
::testing::AssertionResult evalscope_db_seconds(const json& value, double expected, double abs) {
  if (!value.is_number()) return ::testing::AssertionFailure() << value << " is not a number";
  if (std::fabs(value.get<double>() - expected) <= abs) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << value << " != " << expected;
}

TEST(IntegrationEvalScopeDb, EveryColumnOfEveryRowMatchesRequestsJsonl) {
  const std::string sqlite3 = evalscope_db_sqlite3();
  if (sqlite3.empty()) GTEST_SKIP() << "sqlite3 is not installed (scripts/setup.sh --test)";
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "2", "--output-tokens", "6", "--fault-http-rate",
                   "0.3", "--seed", "11"});
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--stream", "--parallel", "1", "-n", "12", "--warmup-num", "1"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const fs::path dir = only_run_dir(run);
  const fs::path db = dir / "benchmark_data.db";
  ASSERT_TRUE(fs::exists(db)) << dir;

  // EvalScope's columns, types and order (evalscope/perf/utils/db_util.py).
  const json columns =
      evalscope_db_query(sqlite3, db, "SELECT name, type FROM pragma_table_info('result')");
  std::vector<std::string> schema;
  for (const json& c : columns)
    schema.push_back(c["name"].get<std::string>() + " " + c["type"].get<std::string>());
  EXPECT_EQ(schema, (std::vector<std::string>{
                        "request TEXT", "start_time REAL", "inter_token_latencies TEXT",
                        "success INTEGER", "response_messages TEXT", "completed_time REAL",
                        "latency REAL", "first_chunk_latency REAL", "prompt_tokens INTEGER",
                        "completion_tokens INTEGER", "max_gpu_memory_cost REAL",
                        "time_per_output_token REAL", "request_id TEXT", "is_stream INTEGER"}));

  std::vector<json> measured;
  for (const json& r : read_requests(dir)) {
    if (!r["warmup"].get<bool>()) measured.push_back(r);
  }
  const json rows = evalscope_db_query(sqlite3, db, "SELECT * FROM result ORDER BY rowid");
  ASSERT_EQ(rows.size(), measured.size());
  ASSERT_EQ(measured.size(), 12u);
  int failed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const json& row = rows[i];
    const json& r = measured[i];
    SCOPED_TRACE("request " + r["id"].dump());
    EXPECT_EQ(row.size(), 14u);
    EXPECT_EQ(json::parse(row["request"].get<std::string>()),
              json({{"id", r["id"]}, {"prompt_index", r["prompt_index"]}, {"stream", true}}));
    const double sent_s = static_cast<double>(r["sent_unix_ns"].get<int64_t>()) / 1e9;
    EXPECT_TRUE(evalscope_db_seconds(row["start_time"], sent_s, 1e-5));
    const int64_t sent = r["sent_ns"].get<int64_t>();
    EXPECT_TRUE(evalscope_db_seconds(
        row["completed_time"],
        sent_s + static_cast<double>(r["end_ns"].get<int64_t>() - sent) / 1e9, 1e-5));
    // chunk_ns counts from the send: the gaps are the request's ITL samples.
    const json itl = json::parse(row["inter_token_latencies"].get<std::string>());
    const json& chunks = r["chunk_ns"];
    ASSERT_EQ(itl.size(), chunks.empty() ? 0 : chunks.size() - 1);
    for (size_t k = 1; k < chunks.size(); ++k) {
      EXPECT_TRUE(evalscope_db_seconds(
          itl[k - 1],
          static_cast<double>(chunks[k].get<int64_t>() - chunks[k - 1].get<int64_t>()) / 1e9,
          1e-9));
    }
    const bool ok = r["ok"].get<bool>();
    EXPECT_EQ(row["success"], ok ? 1 : 0);
    const json messages = json::parse(row["response_messages"].get<std::string>());
    EXPECT_EQ(messages,
              r.contains("output_text") ? json::array({r["output_text"]}) : json::array());
    EXPECT_TRUE(row["request_id"].is_null());
    EXPECT_EQ(row["is_stream"], 1);
    if (!ok) {
      ++failed;
      for (const char* column :
           {"latency", "first_chunk_latency", "prompt_tokens", "completion_tokens",
            "max_gpu_memory_cost", "time_per_output_token"}) {
        EXPECT_TRUE(row[column].is_null()) << column;
      }
      continue;
    }
    const double latency = r["latency_s"].get<double>();
    const double ttft = r["ttft_ms"].get<double>() / 1e3;
    const int64_t output = r["output_tokens"].get<int64_t>();
    EXPECT_TRUE(evalscope_db_seconds(row["latency"], latency, 1e-9));
    EXPECT_TRUE(evalscope_db_seconds(row["first_chunk_latency"], ttft, 1e-9));
    EXPECT_EQ(row["prompt_tokens"], r["input_tokens"]);
    EXPECT_EQ(row["completion_tokens"], output);
    EXPECT_TRUE(evalscope_db_seconds(row["max_gpu_memory_cost"], 0.0, 0.0));
    ASSERT_GT(output, 1);
    EXPECT_TRUE(evalscope_db_seconds(row["time_per_output_token"],
                                     (latency - ttft) / static_cast<double>(output - 1), 1e-9));
  }
  EXPECT_GT(failed, 0) << "the mock failed none: pick another --seed";
  EXPECT_LT(failed, 12);

  // `llmperf report` rebuilds it from requests.jsonl: the same rows.
  const ProcessResult report = run_process({LLMPERF_BIN, "report", dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_EQ(evalscope_db_query(sqlite3, db, "SELECT * FROM result ORDER BY rowid"), rows);
}

}  // namespace
}  // namespace llmperf::testing

// The history database's write side end to end, against llmperf-mock, read back with Debian's
// sqlite3 CLI: --results-db and --results-db-requests (every table and column against summary.json
// and requests.jsonl), a sweep's runs under one invocation, kill -9 mid-run (no half run, the next
// run appends), two llmperf processes writing at once, a version 1 file migrated, a file that is
// not a database (every other output still written, exit 1), Ctrl-C (the partial run stored),
// `llmperf history import` (idempotent), `llmperf merge` and `llmperf report` with --results-db.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "report/files/summary_figures.h"
#include "store/history_schema.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kHwriteSqlite3 = "/usr/bin/sqlite3";

#define HWRITE_NEEDS_SQLITE3()                                                                \
  if (access(kHwriteSqlite3, X_OK) != 0) {                                                    \
    GTEST_SKIP() << "Debian's sqlite3 CLI is missing (scripts/setup.sh --test installs it): " \
                    "the history database is not read back";                                  \
  }

// The rows of `sql` as sqlite3 -json gives them ([] when there are none).
json hwrite_query(const std::string& db, const std::string& sql) {
  const ProcessResult result = run_process({kHwriteSqlite3, "-json", db, sql}, kTimeoutS);
  EXPECT_EQ(result.exit_code, 0) << sql << "\n" << result.err;
  if (result.out.find_first_not_of(" \n") == std::string::npos) return json::array();
  return json::parse(result.out);
}

int64_t hwrite_count(const std::string& db, const std::string& sql) {
  const json rows = hwrite_query(db, sql);
  return rows.empty() ? -1 : rows[0].begin()->get<int64_t>();
}

std::vector<std::string> hwrite_lines(const fs::path& file) {
  std::istringstream in(read_file(file.string()));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void hwrite_expect_close(const json& stored, const std::optional<double>& expected,
                         const std::string& what) {
  if (!expected) {
    EXPECT_TRUE(stored.is_null()) << what << ": " << stored;
    return;
  }
  ASSERT_TRUE(stored.is_number()) << what << ": " << stored;
  EXPECT_NEAR(stored.get<double>(), *expected, std::abs(*expected) * 1e-12 + 1e-12) << what;
}

// Checks every column of the run stored from `dir` against the run directory's files.
void hwrite_expect_run(const std::string& db, const fs::path& dir, const std::string& source,
                       bool with_requests) {
  const std::string summary_text = read_file((dir / "summary.json").string());
  const json summary = json::parse(summary_text);
  const json rows = hwrite_query(db, "SELECT * FROM runs WHERE directory = '" +
                                         fs::absolute(dir).lexically_normal().string() + "'");
  ASSERT_EQ(rows.size(), 1u) << dir;
  const json& run = rows[0];
  const std::string id = std::to_string(run["id"].get<int64_t>());
  EXPECT_EQ(run["run_id"].get<std::string>().size(), 16u);
  EXPECT_EQ(run["started_at"], summary["run"]["started_at"]);
  EXPECT_NEAR(run["started_unix"].get<double>(),
              static_cast<double>(summary["run"]["anchor_unix_ns"].get<int64_t>()) / 1e9, 1e-5);
  EXPECT_EQ(run["name"], summary["config"]["name"]);
  EXPECT_EQ(run["run_label"], dir.filename().string());
  EXPECT_EQ(run["invocation"].get<std::string>().size(), 16u);
  EXPECT_EQ(run["model"], summary["config"]["model"]);
  EXPECT_EQ(run["url"], summary["config"]["url"]);
  EXPECT_EQ(run["source"], source);
  EXPECT_EQ(json::parse(run["config"].get<std::string>()), summary["config"]);
  if (summary["server"].is_null()) {
    EXPECT_TRUE(run["server"].is_null()) << run["server"];
  } else {
    EXPECT_EQ(json::parse(run["server"].get<std::string>()), summary["server"]);
  }
  EXPECT_EQ(run["llmperf_version"], summary["llmperf_version"]);

  const json tags = hwrite_query(db, "SELECT key, value FROM tags WHERE run = " + id);
  json expected_tags = json::object();
  for (const json& tag : tags) expected_tags[tag["key"].get<std::string>()] = tag["value"];
  EXPECT_EQ(expected_tags, summary["config"].value("tags", json::object()));

  // Every figure of summary.json, in its units, and nothing else.
  const std::vector<SummaryFigure> figures = summary_figures(parse_summary_file(summary_text));
  const json stored =
      hwrite_query(db, "SELECT metric, statistic, value, unit FROM figures WHERE run = " + id +
                           " ORDER BY rowid");
  ASSERT_EQ(stored.size(), figures.size());
  for (size_t i = 0; i < figures.size(); ++i) {
    EXPECT_EQ(stored[i]["metric"], figures[i].metric);
    EXPECT_EQ(stored[i]["statistic"], figures[i].statistic);
    EXPECT_EQ(stored[i]["unit"], figures[i].unit);
    hwrite_expect_close(stored[i]["value"], figures[i].value, figures[i].name());
  }
  // A few read straight from the file, not through summary_figures.
  const json ttft = hwrite_query(
      db, "SELECT value FROM figures WHERE metric='ttft' AND statistic='p99' AND run = " + id);
  if (summary["metrics"]["ttft_ms"].is_null()) {  // no request got a first token
    EXPECT_TRUE(ttft.empty()) << ttft;
  } else {
    ASSERT_EQ(ttft.size(), 1u);
    hwrite_expect_close(ttft[0]["value"],
                        summary["metrics"]["ttft_ms"]["percentiles"]["p99"].get<double>(),
                        "ttft.p99");
  }
  EXPECT_EQ(hwrite_count(db,
                         "SELECT value FROM figures WHERE metric='requests' AND "
                         "statistic='total' AND run = " +
                             id),
            summary["requests"]["total"].get<int64_t>());

  const json verdicts =
      hwrite_query(db, "SELECT kind, rule, passed, detail FROM verdicts WHERE run = " + id +
                           " AND kind = 'slo' ORDER BY rowid");
  const json slo = summary["slo"].is_null() ? json::array() : summary["slo"]["results"];
  ASSERT_EQ(verdicts.size(), slo.size());
  for (size_t i = 0; i < slo.size(); ++i) {
    EXPECT_EQ(verdicts[i]["rule"], slo[i]["expression"]);
    EXPECT_EQ(verdicts[i]["passed"].get<int>() == 1, slo[i]["passed"].get<bool>());
    EXPECT_EQ(verdicts[i]["detail"], slo[i]["detail"]);
  }

  const json requests =
      hwrite_query(db, "SELECT seq, record FROM requests WHERE run = " + id + " ORDER BY seq");
  if (!with_requests) {
    EXPECT_TRUE(requests.empty());
    return;
  }
  const std::vector<std::string> lines = hwrite_lines(dir / "requests.jsonl");
  ASSERT_EQ(requests.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(requests[i]["seq"], static_cast<int64_t>(i + 1));
    EXPECT_EQ(requests[i]["record"], lines[i]);
  }
}

std::string hwrite_db_path(const std::string& name) {
  return (fs::path(make_temp_dir()) / name).string();
}

std::vector<std::string> hwrite_args(const MockServer& mock, const std::string& db,
                                     const std::vector<std::string>& more) {
  return concat(concat(base_args(mock), {"--results-db", db, "--no-probe"}), more);
}

TEST(IntegrationHistoryWrite, TwoRunsAreStoredWhole) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "6"});
  const std::string db = hwrite_db_path("history.db");
  // ttft.p99<=1ms fails (the mock takes 5 ms): verdicts of both outcomes, exit 3.
  const BenchRun first = run_llmperf(hwrite_args(
      mock, db,
      {"--name", "smoke", "--tag", "commit=abc123", "--tag", "deploy=7", "--parallel", "2", "-n",
       "6", "--slo", "error_rate<=1%", "--slo", "ttft.p99<=1ms", "--results-db-requests"}));
  ASSERT_EQ(first.process.exit_code, 3) << diagnostics(first);
  const BenchRun second =
      run_llmperf(hwrite_args(mock, db, {"--name", "smoke", "--tag", "commit=def456", "-n", "4"}));
  ASSERT_EQ(second.process.exit_code, 0) << diagnostics(second);
  EXPECT_TRUE(contains(second.process.err, "stored in " + db)) << second.process.err;

  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(hwrite_count(db, "PRAGMA user_version"), kHistorySchemaVersion);
  ASSERT_EQ(first.run_dirs.size(), 1u);
  ASSERT_EQ(second.run_dirs.size(), 1u);
  hwrite_expect_run(db, first.run_dirs[0], "run", true);
  hwrite_expect_run(db, second.run_dirs[0], "run", false);
  EXPECT_EQ(hwrite_count(db, "SELECT count(DISTINCT invocation) FROM runs"), 2);
  EXPECT_EQ(hwrite_query(db, "SELECT url FROM runs")[0]["url"], mock.chat_url());
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM verdicts WHERE passed = 0"), 1);
}

TEST(IntegrationHistoryWrite, CredentialsNeverReachTheDatabase) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  std::string url = mock.chat_url();
  url.insert(url.find("://") + 3, "alice:s3cr3t-password@");
  const BenchRun run =
      run_llmperf({"--url", url, "--model", "mock-model", "--prompt", "hi", "-n", "3", "--no-probe",
                   "--api-key", "sk-very-secret-key", "--results-db", db, "--results-db-requests"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const ProcessResult dump = run_process({kHwriteSqlite3, db, ".dump"}, kTimeoutS);
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_TRUE(contains(dump.out, "INSERT INTO runs")) << dump.out;
  EXPECT_FALSE(contains(dump.out, "s3cr3t-password"));
  EXPECT_FALSE(contains(dump.out, "sk-very-secret-key"));
  EXPECT_EQ(hwrite_query(db, "SELECT url FROM runs")[0]["url"], mock.chat_url());
}

TEST(IntegrationHistoryWrite, ASweepStoresOneRowPerRunUnderOneInvocation) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "2", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  const BenchRun sweep =
      run_llmperf(hwrite_args(mock, db, {"--parallel", "1", "2", "-n", "3", "4"}));
  ASSERT_EQ(sweep.process.exit_code, 0) << diagnostics(sweep);
  ASSERT_EQ(sweep.run_dirs.size(), 2u);
  const json rows = hwrite_query(db, "SELECT run_label, invocation FROM runs ORDER BY id");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["run_label"], "parallel_1_number_3");
  EXPECT_EQ(rows[1]["run_label"], "parallel_2_number_4");
  EXPECT_EQ(rows[0]["invocation"], rows[1]["invocation"]);
  for (const fs::path& dir : sweep.run_dirs) hwrite_expect_run(db, dir, "run", false);
}

TEST(IntegrationHistoryWrite, BaselineVerdictsAndRepeatsAreStored) {
  HWRITE_NEEDS_SQLITE3();
  // 50 ms to the first token: a few ms of jitter on a busy machine stay far within the tolerance
  // (at 2 ms, jitter alone doubled TTFT p99 and made a "regression" beyond 100 %).
  MockServer mock({"--ttft-ms", "50", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  const BenchRun base = run_llmperf(concat(base_args(mock), {"--no-probe", "-n", "6"}));
  ASSERT_EQ(base.process.exit_code, 0) << diagnostics(base);
  // A huge tolerance (1000 times the baseline): no regression, whatever the timing (at 100 %, an
  // ITL or TPOT that a busy machine doubles fails as a regression; it did once, beside two builds).
  const BenchRun judged = run_llmperf(
      hwrite_args(mock, db,
                  {"-n", "6", "--baseline", (base.run_dirs.at(0) / "summary.json").string(),
                   "--tolerance", "100000%"}));
  ASSERT_EQ(judged.process.exit_code, 0) << diagnostics(judged);
  const json verdicts =
      hwrite_query(db, "SELECT rule, passed, detail FROM verdicts WHERE kind = 'baseline'");
  ASSERT_FALSE(verdicts.empty());
  for (const json& verdict : verdicts) {
    EXPECT_EQ(verdict["passed"], 1) << verdict;
    EXPECT_TRUE(contains(verdict["detail"].get<std::string>(), "summary.json")) << verdict;
  }
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM verdicts WHERE rule = 'QPS (req/s)'"), 1);

  // --num-runs: one row per repeat, named by its directory within the run's.
  const BenchRun repeats = run_llmperf(hwrite_args(mock, db, {"-n", "4", "--num-runs", "2"}));
  ASSERT_EQ(repeats.process.exit_code, 0) << diagnostics(repeats);
  const json labels = hwrite_query(
      db, "SELECT run_label FROM runs WHERE run_label LIKE '%repeat%' ORDER BY run_label");
  ASSERT_EQ(labels.size(), 2u) << labels;
  EXPECT_EQ(labels[0]["run_label"], "parallel_1_number_4/repeat_1");
  EXPECT_EQ(labels[1]["run_label"], "parallel_1_number_4/repeat_2");
}

TEST(IntegrationHistoryWrite, KillNineMidRunLeavesNoHalfRunAndTheNextRunAppends) {
  HWRITE_NEEDS_SQLITE3();
  MockServer slow({"--ttft-ms", "60000", "--verbose"});
  MockServer fast({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  ASSERT_EQ(run_llmperf(hwrite_args(fast, db, {"-n", "3"})).process.exit_code, 0);
  BackgroundProcess killed(concat(concat({LLMPERF_BIN}, hwrite_args(slow, db, {"-n", "5"})),
                                  {"--outputs-dir", make_temp_dir()}));
  ASSERT_TRUE(slow.process().wait_for_stderr("#1 POST", 30)) << killed.stderr_text();
  killed.signal(SIGKILL);
  EXPECT_EQ(killed.wait(30), 128 + SIGKILL);
  EXPECT_EQ(hwrite_query(db, "PRAGMA integrity_check")[0]["integrity_check"], "ok");
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 1);
  const BenchRun next = run_llmperf(hwrite_args(fast, db, {"-n", "3"}));
  ASSERT_EQ(next.process.exit_code, 0) << diagnostics(next);
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 2);
  hwrite_expect_run(db, next.run_dirs.at(0), "run", false);
}

TEST(IntegrationHistoryWrite, TwoProcessesWritingAtOnceStoreBothRuns) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");  // new: both create and migrate it
  std::vector<std::unique_ptr<BackgroundProcess>> writers;
  for (int i = 0; i < 2; ++i) {
    writers.push_back(std::make_unique<BackgroundProcess>(
        concat(concat({LLMPERF_BIN}, hwrite_args(mock, db, {"-n", "20", "--parallel", "4"})),
               {"--outputs-dir", make_temp_dir(), "--tag", "writer=" + std::to_string(i)})));
  }
  for (auto& writer : writers) {
    EXPECT_EQ(writer->wait(kTimeoutS), 0) << writer->stderr_text();
    EXPECT_EQ(writer->stderr_text().find("locked"), std::string::npos) << writer->stderr_text();
  }
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(hwrite_count(db, "SELECT count(DISTINCT value) FROM tags WHERE key='writer'"), 2);
}

TEST(IntegrationHistoryWrite, AVersionOneFileIsMigratedAndKeepsItsRun) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  {
    SqliteDb v1(db);
    migrate_history_db(v1, 1);
    v1.exec(
        "INSERT INTO runs (run_id, started_at, started_unix, name) VALUES ('old', "
        "'2026-11-01T00:00:00Z', 1793491200, 'smoke');"
        "INSERT INTO figures VALUES (1, 'ttft', 'p99', 700, 'ms');");
  }
  ASSERT_EQ(hwrite_count(db, "PRAGMA user_version"), 1);
  const BenchRun run = run_llmperf(hwrite_args(mock, db, {"-n", "3", "--results-db-requests"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(hwrite_count(db, "PRAGMA user_version"), kHistorySchemaVersion);
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs WHERE run_id = 'old'"), 1);
  hwrite_expect_run(db, run.run_dirs.at(0), "run", true);
}

TEST(IntegrationHistoryWrite, AFileThatIsNotADatabaseFailsAfterEveryOtherFileIsWritten) {
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("notes.txt");
  const std::string text(4096, 'x');  // SQLite reads a header: make the file long enough
  { std::ofstream(db) << text; }
  const BenchRun run = run_llmperf(hwrite_args(mock, db, {"-n", "3"}));
  EXPECT_EQ(run.process.exit_code, 1) << diagnostics(run);
  EXPECT_TRUE(contains(run.process.err, "cannot store the run in " + db)) << run.process.err;
  EXPECT_TRUE(contains(run.process.err, "not a database")) << run.process.err;
  ASSERT_EQ(run.run_dirs.size(), 1u);
  for (const char* file : {"summary.json", "requests.jsonl", "benchmark_summary.json",
                           "benchmark_percentile.json", "report.html"}) {
    EXPECT_TRUE(fs::exists(run.run_dirs[0] / file)) << file;
  }
  EXPECT_TRUE(contains(run.process.out, "Outputs:"));  // the closing text is still printed
  EXPECT_EQ(read_file(db), text);                      // left as it was
}

TEST(IntegrationHistoryWrite, AnInterruptedRunIsStoredWithItsPartialResults) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "60000", "--verbose"});
  const std::string db = hwrite_db_path("history.db");
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf(
      concat(concat({LLMPERF_BIN}, hwrite_args(mock, db, {"--parallel", "3", "-n", "10"})),
             {"--outputs-dir", outputs, "--results-db-requests"}));
  ASSERT_TRUE(mock.process().wait_for_stderr("#3 POST", 30)) << llmperf.stderr_text();
  llmperf.signal(SIGINT);
  ASSERT_TRUE(llmperf.wait_for_stderr("interrupt again to cancel", 10)) << llmperf.stderr_text();
  llmperf.signal(SIGINT);
  EXPECT_EQ(llmperf.wait(60), 130) << llmperf.stderr_text();
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::recursive_directory_iterator(outputs)) {
    if (entry.is_directory() && fs::exists(entry.path() / "summary.json")) {
      dirs.push_back(entry.path());
    }
  }
  ASSERT_EQ(dirs.size(), 1u) << llmperf.stderr_text();
  const json summary = json::parse(read_file((dirs[0] / "summary.json").string()));
  EXPECT_TRUE(summary["run"]["interrupted"].get<bool>());
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 1);
  hwrite_expect_run(db, dirs[0], "run", true);
}

TEST(IntegrationHistoryWrite, ImportStoresEachRunOnceAndSkipsWhatIsThere) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  const BenchRun sweep =
      run_llmperf(concat(base_args(mock), {"--no-probe", "--parallel", "1", "2", "-n", "3", "3"}));
  ASSERT_EQ(sweep.process.exit_code, 0) << diagnostics(sweep);
  ASSERT_EQ(sweep.run_dirs.size(), 2u);
  const BenchRun stored = run_llmperf(hwrite_args(mock, db, {"-n", "2"}));
  ASSERT_EQ(stored.process.exit_code, 0) << diagnostics(stored);

  // The sweep's outputs directory (runs two levels down), the stored run's directory (already
  // in the database), and a directory that does not exist: reported, the others go on.
  const std::string missing = sweep.outputs_dir + "/no-such-dir";
  const ProcessResult first =
      run_process({LLMPERF_BIN, "history", "import", "--results-db", db, "--results-db-requests",
                   sweep.outputs_dir, stored.run_dirs.at(0).string(), missing},
                  kTimeoutS);
  EXPECT_EQ(first.exit_code, 1) << first.out << first.err;
  EXPECT_TRUE(contains(first.out, "imported " + sweep.run_dirs[0].string())) << first.out;
  EXPECT_TRUE(contains(first.out, "imported " + sweep.run_dirs[1].string())) << first.out;
  EXPECT_TRUE(contains(first.out, "skipped " + stored.run_dirs[0].string())) << first.out;
  EXPECT_TRUE(contains(first.err, missing)) << first.err;
  EXPECT_EQ(hwrite_count(db, "SELECT count(*) FROM runs"), 3);
  for (const fs::path& dir : sweep.run_dirs) hwrite_expect_run(db, dir, "import", true);
  hwrite_expect_run(db, stored.run_dirs[0], "run", false);
  const json sources =
      hwrite_query(db, "SELECT count(DISTINCT invocation) AS n FROM runs WHERE source='import'");
  EXPECT_EQ(sources[0]["n"], 1);  // one benchmark's runs: one invocation

  const json before = hwrite_query(db, "SELECT * FROM runs ORDER BY id");
  const ProcessResult again = run_process(  // --db: the flag's former name, still accepted
      {LLMPERF_BIN, "history", "import", "--db", db, sweep.run_dirs[0].string(), sweep.outputs_dir},
      kTimeoutS);
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_FALSE(contains(again.out, "imported")) << again.out;
  EXPECT_TRUE(contains(again.err, "0 run(s) imported, 3 already in")) << again.err;
  EXPECT_EQ(hwrite_query(db, "SELECT * FROM runs ORDER BY id"), before);
}

TEST(IntegrationHistoryWrite, MergeAndReportStoreTheRunsTheyWrite) {
  HWRITE_NEEDS_SQLITE3();
  MockServer mock({"--ttft-ms", "1", "--output-tokens", "4"});
  const std::string db = hwrite_db_path("history.db");
  std::vector<std::string> shards;
  for (const char* shard : {"0/2", "1/2"}) {
    const BenchRun run = run_llmperf(
        concat(base_args(mock), {"--no-probe", "--parallel", "2", "-n", "6", "--shard", shard}));
    ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
    shards.push_back(run.sweep_dir.string());
  }
  const std::string out = make_temp_dir();
  const ProcessResult merged =
      run_process({LLMPERF_BIN, "merge", shards[0], shards[1], "--outputs-dir", out, "--results-db",
                   db, "--results-db-requests"},
                  kTimeoutS);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  const json rows = hwrite_query(db, "SELECT run_id, directory FROM runs");
  ASSERT_EQ(rows.size(), 1u);
  const fs::path merged_dir = rows[0]["directory"].get<std::string>();
  EXPECT_EQ(hwrite_count(db,
                         "SELECT value FROM figures WHERE metric='requests' AND "
                         "statistic='total'"),
            6);
  hwrite_expect_run(db, merged_dir, "merge", true);

  // `llmperf report` rebuilds the merged run: the same run, stored again in its place.
  const ProcessResult report =
      run_process({LLMPERF_BIN, "report", merged_dir.string(), "--results-db", db}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_TRUE(contains(report.err, "replaced " + merged_dir.string())) << report.err;
  const json after = hwrite_query(db, "SELECT run_id FROM runs");
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0]["run_id"], rows[0]["run_id"]);
  hwrite_expect_run(db, merged_dir, "report", false);

  // A report whose database fails: the rebuilt files are written, exit 1.
  const std::string bad = hwrite_db_path("not-a-db.txt");
  { std::ofstream(bad) << std::string(4096, 'x'); }
  const ProcessResult failed =
      run_process({LLMPERF_BIN, "report", merged_dir.string(), "--results-db", bad}, kTimeoutS);
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  EXPECT_TRUE(contains(failed.err, bad)) << failed.err;
  EXPECT_TRUE(contains(failed.err, "not a database")) << failed.err;
}

}  // namespace
}  // namespace llmperf::testing

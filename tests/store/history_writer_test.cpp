// The history database's writer: a run and its rows in every table, a stored run skipped or
// replaced, a writer SIGKILLed inside its transaction (no half run, the next append works), two
// processes appending at once to a new file (every run stored, none refused as locked), a version 1
// file.
#include "store/history_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "store/history_schema.h"

namespace llmperf {
namespace {

std::string writer_test_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("llmperf_history_writer_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

int64_t writer_test_count(SqliteDb& db, const std::string& sql) {
  SqliteStatement count(db, sql);
  return count.step() ? count.column_int(0) : -1;
}

HistoryRun writer_test_run(const std::string& run_id) {
  HistoryRun run;
  run.run_id = run_id;
  run.started_at = "2026-11-27T03:00:47Z";
  run.started_unix = 1795748447.25;
  run.name = "smoke";
  run.run_label = "parallel_4_number_20";
  run.invocation = "inv-1";
  run.model = "qwen";
  run.url = "http://host:8000/v1/chat/completions";
  run.source = "run";
  run.directory = "/tmp/outputs/smoke/parallel_4_number_20";
  run.config = R"({"model":"qwen"})";
  run.server = R"({"identity":{"engine":"vllm"}})";
  run.llmperf_version = "0.1.0";
  run.tags = {{"commit", "abc123"}, {"deploy", "42"}};
  run.figures = {
      {"ttft", "p99", 812.5, "ms"}, {"qps", "", 12.0, "req/s"}, {"tpot", "p99", {}, "ms"}};
  run.verdicts = {{"slo", "ttft.p99<=800ms", false, "812.5 ms > 800 ms"},
                  {"slo", "error_rate<=1%", true, "0 %"}};
  return run;
}

TEST(HistoryWriter, AppendsARunWithItsTagsFiguresVerdictsAndRequests) {
  const std::string dir = writer_test_dir("append");
  const std::string requests = dir + "/requests.jsonl";
  { std::ofstream(requests) << "{\"id\":0}\n\n{\"id\":1,\"text\":\"\xe4\xbd\xa0\"}\n"; }
  SqliteDb db(dir + "/history.db");
  migrate_history_db(db);
  HistoryRun run = writer_test_run("r1");
  run.requests_jsonl = requests;
  EXPECT_EQ(append_history_run(db, run), HistoryAppend::kInserted);

  SqliteStatement row(db,
                      "SELECT run_id, started_at, started_unix, name, run_label, invocation, "
                      "model, url, source, directory, config, server, llmperf_version FROM runs");
  ASSERT_TRUE(row.step());
  EXPECT_EQ(row.column_text(0), "r1");
  EXPECT_EQ(row.column_text(1), "2026-11-27T03:00:47Z");
  EXPECT_EQ(row.column_double(2), 1795748447.25);
  EXPECT_EQ(row.column_text(3), "smoke");
  EXPECT_EQ(row.column_text(4), "parallel_4_number_20");
  EXPECT_EQ(row.column_text(5), "inv-1");
  EXPECT_EQ(row.column_text(6), "qwen");
  EXPECT_EQ(row.column_text(7), "http://host:8000/v1/chat/completions");
  EXPECT_EQ(row.column_text(8), "run");
  EXPECT_EQ(row.column_text(9), "/tmp/outputs/smoke/parallel_4_number_20");
  EXPECT_EQ(row.column_text(10), R"({"model":"qwen"})");
  EXPECT_EQ(row.column_text(11), R"({"identity":{"engine":"vllm"}})");
  EXPECT_EQ(row.column_text(12), "0.1.0");
  EXPECT_FALSE(row.step());

  SqliteStatement tags(db, "SELECT key, value FROM tags ORDER BY key");
  ASSERT_TRUE(tags.step());
  EXPECT_EQ(tags.column_text(0) + "=" + tags.column_text(1), "commit=abc123");
  ASSERT_TRUE(tags.step());
  EXPECT_EQ(tags.column_text(0) + "=" + tags.column_text(1), "deploy=42");

  SqliteStatement ttft(db,
                       "SELECT value, unit FROM figures WHERE metric='ttft' AND statistic='p99'");
  ASSERT_TRUE(ttft.step());
  EXPECT_EQ(ttft.column_double(0), 812.5);
  EXPECT_EQ(ttft.column_text(1), "ms");
  SqliteStatement tpot(db, "SELECT value FROM figures WHERE metric='tpot' AND statistic='p99'");
  ASSERT_TRUE(tpot.step());
  EXPECT_TRUE(tpot.column_is_null(0));  // no value: NULL, not 0
  EXPECT_EQ(writer_test_count(db,
                              "SELECT count(*) FROM figures WHERE metric='qps' AND "
                              "statistic='' AND value=12.0 AND unit='req/s'"),
            1);

  SqliteStatement verdicts(db, "SELECT kind, rule, passed, detail FROM verdicts ORDER BY rowid");
  ASSERT_TRUE(verdicts.step());
  EXPECT_EQ(verdicts.column_text(0), "slo");
  EXPECT_EQ(verdicts.column_text(1), "ttft.p99<=800ms");
  EXPECT_EQ(verdicts.column_int(2), 0);
  EXPECT_EQ(verdicts.column_text(3), "812.5 ms > 800 ms");
  ASSERT_TRUE(verdicts.step());
  EXPECT_EQ(verdicts.column_int(2), 1);

  // seq is the line number: the blank line 2 is skipped, not renumbered.
  SqliteStatement lines(db, "SELECT seq, record FROM requests ORDER BY seq");
  ASSERT_TRUE(lines.step());
  EXPECT_EQ(lines.column_int(0), 1);
  EXPECT_EQ(lines.column_text(1), "{\"id\":0}");
  ASSERT_TRUE(lines.step());
  EXPECT_EQ(lines.column_int(0), 3);
  EXPECT_EQ(lines.column_text(1), "{\"id\":1,\"text\":\"\xe4\xbd\xa0\"}");
  EXPECT_FALSE(lines.step());
}

TEST(HistoryWriter, AStoredRunIsSkippedOrReplacedWithItsRows) {
  const std::string dir = writer_test_dir("existing");
  SqliteDb db(dir + "/history.db");
  migrate_history_db(db);
  EXPECT_EQ(append_history_run(db, writer_test_run("r1")), HistoryAppend::kInserted);
  HistoryRun again = writer_test_run("r1");
  again.source = "report";
  again.figures = {{"qps", "", 13.0, "req/s"}};
  EXPECT_EQ(append_history_run(db, again), HistoryAppend::kSkipped);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures"), 3);
  EXPECT_EQ(append_history_run(db, again, ExistingRun::kReplace), HistoryAppend::kReplaced);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs WHERE source='report'"), 1);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures"), 1);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM tags"), 2);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM verdicts"), 2);
}

TEST(HistoryWriter, AFailureInsideTheRunLeavesNothingOfIt) {
  const std::string dir = writer_test_dir("failure");
  SqliteDb db(dir + "/history.db");
  migrate_history_db(db);
  HistoryRun run = writer_test_run("r1");
  run.requests_jsonl = dir + "/missing.jsonl";  // read last, after every other row
  EXPECT_THROW(append_history_run(db, run), SqliteError);
  for (const char* table : {"runs", "tags", "figures", "verdicts", "requests"}) {
    EXPECT_EQ(writer_test_count(db, std::string("SELECT count(*) FROM ") + table), 0) << table;
  }
  run.requests_jsonl.clear();
  EXPECT_EQ(append_history_run(db, run), HistoryAppend::kInserted);
}

TEST(HistoryWriter, AWriterKilledInsideItsTransactionLeavesNoHalfRun) {
  const std::string dir = writer_test_dir("kill");
  const std::string path = dir + "/history.db";
  const std::string fifo = dir + "/requests.fifo";
  {
    SqliteDb db(path);
    migrate_history_db(db);
    append_history_run(db, writer_test_run("before"));
  }  // no connection is open across fork()
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The run's requests come from the FIFO, read inside the transaction after the runs row and
    // its tags, figures and verdicts: the writer blocks there until it is killed.
    try {
      SqliteDb db(path);
      migrate_history_db(db);
      HistoryRun run = writer_test_run("killed");
      run.requests_jsonl = fifo;
      append_history_run(db, run);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "child: %s\n", error.what());
    }
    open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // never blocks the parent's open() for good
    _exit(1);
  }
  // open() returns once the child has opened the FIFO: it is then inside its transaction.
  const int fd = open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const std::string line = "{\"id\":1}\n";
  ASSERT_EQ(write(fd, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  close(fd);

  SqliteDb db(path);
  migrate_history_db(db);
  SqliteStatement check(db, "PRAGMA integrity_check");
  ASSERT_TRUE(check.step());
  EXPECT_EQ(check.column_text(0), "ok");
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs WHERE run_id='killed'"), 0);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures"), 3);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM requests"), 0);
  // The lock died with the writer: the next run appends at once.
  EXPECT_EQ(append_history_run(db, writer_test_run("after")), HistoryAppend::kInserted);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures"), 6);
}

TEST(HistoryWriter, FourProcessesAppendingAtOnceToANewFileStoreEveryRun) {
  const std::string dir = writer_test_dir("concurrent");
  const std::string path = dir + "/history.db";  // new: the writers create and migrate it too
  // Four writers starting together on a file that does not exist yet: they race to create it,
  // switch it to WAL and migrate it, then append a run per connection.
  constexpr int kWriters = 4;
  constexpr int kRunsEach = 25;
  int gate[2];
  ASSERT_EQ(pipe(gate), 0);
  pid_t children[kWriters];
  for (int w = 0; w < kWriters; ++w) {
    children[w] = fork();
    ASSERT_GE(children[w], 0);
    if (children[w] == 0) {
      close(gate[1]);
      char byte = 0;
      [[maybe_unused]] const ssize_t n = read(gate[0], &byte, 1);  // EOF: every writer starts
      try {
        for (int i = 0; i < kRunsEach; ++i) {
          SqliteDb db(path);  // a connection per run, as llmperf opens one
          migrate_history_db(db);
          append_history_run(db, writer_test_run(std::to_string(w) + "-" + std::to_string(i)));
        }
      } catch (const std::exception& error) {
        std::fprintf(stderr, "writer %d: %s\n", w, error.what());
        _exit(1);
      }
      _exit(0);
    }
  }
  close(gate[0]);
  close(gate[1]);  // opens the gate
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed: " << status;
  }
  SqliteDb db(path);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs"), kWriters * kRunsEach);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures"), kWriters * kRunsEach * 3);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM tags"), kWriters * kRunsEach * 2);
  EXPECT_EQ(history_schema_version(db), kHistorySchemaVersion);
}

TEST(HistoryWriter, AVersionOneFileTakesANewRunAfterMigration) {
  const std::string path = writer_test_dir("v1") + "/history.db";
  {
    SqliteDb db(path);
    migrate_history_db(db, 1);
    db.exec(
        "INSERT INTO runs (run_id, started_at, started_unix, name) VALUES ('old', "
        "'2026-11-01T00:00:00Z', 1793491200, 'smoke');"
        "INSERT INTO figures VALUES (1, 'ttft', 'p99', 700, 'ms');");
  }
  SqliteDb db(path);
  migrate_history_db(db);
  EXPECT_EQ(history_schema_version(db), kHistorySchemaVersion);
  EXPECT_EQ(append_history_run(db, writer_test_run("new")), HistoryAppend::kInserted);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(writer_test_count(db, "SELECT count(*) FROM figures WHERE metric='ttft'"), 2);
}

}  // namespace
}  // namespace llmperf

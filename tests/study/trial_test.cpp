// The study ledger's line: a full record's round trip, the exact text of a minimal one (fields
// that do not apply omitted, not null), non-finite numbers and invalid UTF-8, a reader that ignores
// unknown fields and names the line of every error; read_ledger with a last line cut short by a
// crash, bad lines reported with their numbers, blank lines and CRLF.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "study/trial.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

TrialRecord full_trial() {
  TrialRecord record;
  record.trial = 3;
  record.label = "3-enable-64";
  record.rung = 1;
  record.params = {{"mnbt", "64"}, {"cp", "true"}, {"alpha", ""}};  // not in name order
  record.status = TrialStatus::kSloViolated;
  record.reason = "ttft.p99 = 2300 ms, limit <= 2000 ms";
  record.server_command = "vllm serve m --port 41234 --max-num-batched-tokens 64";
  record.server_command_template = "vllm serve m --port {port} --max-num-batched-tokens 64";
  record.bench_args = {"--url", "http://127.0.0.1:41234/v1/chat/completions", "-n", "300"};
  record.port = 41234;
  record.dir = "trial_3_3-enable-64";
  record.started = "2025-01-02T03:04:05Z";
  record.ready_s = 12.5;
  record.duration_s = 80.25;
  record.bench_s = 66.5;
  record.stop_s = 1.25;
  record.objective = 1234.5;
  record.metrics = {
      {"ttft.p50", 120.5}, {"ttft.p99", 2300}, {"output_throughput", 1234.5}, {"failed", 0}};
  record.runs = {{"parallel_100_number_300", 1234.5, false}, {"again", std::nullopt, std::nullopt}};
  record.gpu = {{0, 19344, 46068}, {1, 100, 46068}};
  record.server_log = "trial_3_3-enable-64/server.log";
  record.log_tail = {"INFO loading", "ValueError: max_num_batched_tokens (64) is smaller"};
  return record;
}

void expect_same(const TrialRecord& a, const TrialRecord& b) {
  EXPECT_EQ(a.trial, b.trial);
  EXPECT_EQ(a.label, b.label);
  EXPECT_EQ(a.rung, b.rung);
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.server_command, b.server_command);
  EXPECT_EQ(a.server_command_template, b.server_command_template);
  EXPECT_EQ(a.bench_args, b.bench_args);
  EXPECT_EQ(a.port, b.port);
  EXPECT_EQ(a.dir, b.dir);
  EXPECT_EQ(a.started, b.started);
  EXPECT_EQ(a.ready_s, b.ready_s);
  EXPECT_EQ(a.duration_s, b.duration_s);
  EXPECT_EQ(a.bench_s, b.bench_s);
  EXPECT_EQ(a.stop_s, b.stop_s);
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.metrics, b.metrics);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (size_t i = 0; i < a.runs.size(); ++i) {
    EXPECT_EQ(a.runs[i].name, b.runs[i].name);
    EXPECT_EQ(a.runs[i].objective, b.runs[i].objective);
    EXPECT_EQ(a.runs[i].passed_slo, b.runs[i].passed_slo);
  }
  ASSERT_EQ(a.gpu.size(), b.gpu.size());
  for (size_t i = 0; i < a.gpu.size(); ++i) {
    EXPECT_EQ(a.gpu[i].index, b.gpu[i].index);
    EXPECT_EQ(a.gpu[i].used_mib, b.gpu[i].used_mib);
    EXPECT_EQ(a.gpu[i].total_mib, b.gpu[i].total_mib);
  }
  EXPECT_EQ(a.server_log, b.server_log);
  EXPECT_EQ(a.log_tail, b.log_tail);
}

std::string trial_error(const std::string& line) {
  try {
    trial_from_json(line, "study.jsonl:7");
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(TrialRecord, StatusNames) {
  const std::pair<TrialStatus, std::string> names[] = {
      {TrialStatus::kOk, "ok"},
      {TrialStatus::kExcluded, "excluded"},
      {TrialStatus::kStartFailed, "start_failed"},
      {TrialStatus::kReadyTimeout, "ready_timeout"},
      {TrialStatus::kBenchFailed, "bench_failed"},
      {TrialStatus::kSloViolated, "slo_violated"},
      {TrialStatus::kInterrupted, "interrupted"}};
  for (const auto& [status, name] : names) {
    EXPECT_EQ(trial_status_name(status), name);
    EXPECT_EQ(parse_trial_status(name), status);
    EXPECT_EQ(trial_status_final(status), status != TrialStatus::kInterrupted) << name;
  }
  EXPECT_EQ(parse_trial_status("OK"), std::nullopt);
  EXPECT_EQ(parse_trial_status(""), std::nullopt);
}

TEST(TrialRecord, FullRecordRoundTrips) {
  const TrialRecord record = full_trial();
  const std::string line = trial_to_json(record);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  expect_same(trial_from_json(line, "x:1"), record);
  // The fields, and the parameters, keep their order.
  EXPECT_EQ(
      line.rfind("{\"schema\":\"llmperf.study.trial/1\",\"trial\":3,\"label\":\"3-enable-64\","
                 "\"rung\":1,\"params\":{\"mnbt\":\"64\",\"cp\":\"true\",\"alpha\":\"\"},"
                 "\"status\":\"slo_violated\",",
                 0),
      0u)
      << line;
}

TEST(TrialRecord, FieldsThatDoNotApplyAreOmitted) {
  TrialRecord record;
  record.trial = 0;
  record.label = "0-64";
  record.params = {{"mnbt", "64"}};
  record.status = TrialStatus::kExcluded;
  record.reason = "--exclude 'mnbt<128'";
  record.objective = std::numeric_limits<double>::quiet_NaN();
  record.ready_s = std::numeric_limits<double>::infinity();
  record.metrics = {{"ttft.p50", std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_EQ(trial_to_json(record),
            "{\"schema\":\"llmperf.study.trial/1\",\"trial\":0,\"label\":\"0-64\",\"rung\":0,"
            "\"params\":{\"mnbt\":\"64\"},\"status\":\"excluded\",\"reason\":\"--exclude "
            "'mnbt<128'\"}");
  const TrialRecord back = trial_from_json(trial_to_json(record), "x:1");
  EXPECT_FALSE(back.objective);
  EXPECT_FALSE(back.ready_s);
  EXPECT_FALSE(back.port);
  EXPECT_TRUE(back.metrics.empty());
}

TEST(TrialRecord, InvalidUtf8FromAServerLogIsRepaired) {
  TrialRecord record = full_trial();
  record.log_tail = {"bad \xff byte", "\xe4\xb8\xad ok"};
  const TrialRecord back = trial_from_json(trial_to_json(record), "x:1");
  ASSERT_EQ(back.log_tail.size(), 2u);
  EXPECT_EQ(back.log_tail[0], "bad \xef\xbf\xbd byte");
  EXPECT_EQ(back.log_tail[1], "\xe4\xb8\xad ok");
}

TEST(TrialRecord, UnknownFieldsAreIgnoredAndOptionalOnesMayBeMissing) {
  const TrialRecord record = trial_from_json(
      "{\"schema\":\"llmperf.study.trial/1\",\"trial\":5,\"status\":\"start_failed\","
      "\"future\":{\"x\":[1,2]},\"port\":null,\"metrics\":{\"a\":1.5,\"b\":null},"
      "\"runs\":[{\"name\":\"r\",\"extra\":1}],\"gpu\":[{\"index\":2}]}",
      "x:1");
  EXPECT_EQ(record.trial, 5);
  EXPECT_EQ(record.status, TrialStatus::kStartFailed);
  EXPECT_EQ(record.label, "");
  EXPECT_EQ(record.rung, 0);
  EXPECT_TRUE(record.params.empty());
  EXPECT_FALSE(record.port);
  EXPECT_EQ(record.metrics, (std::map<std::string, double>{{"a", 1.5}}));
  ASSERT_EQ(record.runs.size(), 1u);
  EXPECT_EQ(record.runs[0].name, "r");
  EXPECT_FALSE(record.runs[0].objective);
  ASSERT_EQ(record.gpu.size(), 1u);
  EXPECT_EQ(record.gpu[0].index, 2);
  EXPECT_EQ(record.gpu[0].total_mib, 0);
}

// Issue 39: the GPU count, the repeats with their interval and a --confirm rerun.
TEST(TrialRecord, TiesAndGpuFieldsRoundTrip) {
  TrialRecord record;
  record.trial = 3;
  record.gpus = 2;
  record.repeats = {100, 110, 120};
  record.ci95_low = 85.157;
  record.ci95_high = 134.843;
  record.confirm = true;
  const std::string line = trial_to_json(record);
  EXPECT_NE(line.find(R"("gpus":2,"repeats":[100.0,110.0,120.0],"ci95_low":85.157,)"
                      R"("ci95_high":134.843,"confirm":true)"),
            std::string::npos)
      << line;
  const TrialRecord back = trial_from_json(line, "study.jsonl:1");
  EXPECT_EQ(back.gpus, 2);
  EXPECT_EQ(back.repeats, record.repeats);
  EXPECT_EQ(back.ci95_high, record.ci95_high);
  EXPECT_TRUE(back.confirm);
  EXPECT_EQ(trial_to_json(back), line);
  EXPECT_EQ(trial_to_json(TrialRecord{}).find("confirm"), std::string::npos);
  // A number JSON cannot hold as a double is an error of the line, not a crash.
  EXPECT_THROW(trial_from_json(R"({"schema":"llmperf.study.trial/1","trial":1,"status":"ok",)"
                               R"("objective":2e400})",
                               "study.jsonl:2"),
               std::invalid_argument);
}

TEST(TrialRecord, SlotAndClientRoundTripOnlyWhenSet) {
  TrialRecord record;
  record.trial = 2;
  record.slot = 1;
  record.client = TrialClient{1.5, 0.25, 3.5, true, "client-bound: ITL stamps late"};
  const std::string line = trial_to_json(record);
  EXPECT_NE(line.find(R"("slot":1,"client":{"cpu_s":1.5,"cpu_share":0.25,"lateness_p99_ms":3.5,)"
                      R"("busy":true,"why":"client-bound: ITL stamps late"})"),
            std::string::npos)
      << line;
  const TrialRecord back = trial_from_json(line, "study.jsonl:1");
  EXPECT_EQ(back.slot, 1);
  EXPECT_EQ(back.client, record.client);
  EXPECT_EQ(trial_to_json(back), line);
  const std::string plain = trial_to_json(TrialRecord{});
  EXPECT_EQ(plain.find("slot"), std::string::npos);
  EXPECT_EQ(plain.find("client"), std::string::npos);
  EXPECT_THROW(trial_from_json(R"({"schema":"llmperf.study.trial/1","trial":1,"status":"ok",)"
                               R"("client":{"busy":"yes"}})",
                               "study.jsonl:2"),
               std::invalid_argument);
}

TEST(TrialRecord, ErrorsNameTheLine) {
  EXPECT_EQ(trial_error("{\"schema\":").rfind("study.jsonl:7: not JSON (", 0), 0u);
  EXPECT_EQ(trial_error("[1]"), "study.jsonl:7: not a JSON object");
  EXPECT_EQ(trial_error("{\"trial\":1,\"status\":\"ok\"}"),
            "study.jsonl:7: no \"schema\" (expected \"llmperf.study.trial/1\")");
  EXPECT_EQ(trial_error("{\"schema\":\"llmperf.study.trial/2\",\"trial\":1,\"status\":\"ok\"}"),
            "study.jsonl:7: schema \"llmperf.study.trial/2\" is not \"llmperf.study.trial/1\": "
            "written by another llmperf version?");
  const std::string head = "{\"schema\":\"llmperf.study.trial/1\",";
  EXPECT_EQ(trial_error(head + "\"status\":\"ok\"}"),
            "study.jsonl:7: 'trial' must be a non-negative integer");
  EXPECT_EQ(trial_error(head + "\"trial\":-1,\"status\":\"ok\"}"),
            "study.jsonl:7: 'trial' must be a non-negative integer");
  EXPECT_EQ(trial_error(head + "\"trial\":1.5,\"status\":\"ok\"}"),
            "study.jsonl:7: 'trial' must be an integer");
  EXPECT_EQ(trial_error(head + "\"trial\":1,\"status\":\"done\"}"),
            "study.jsonl:7: unknown status \"done\" (expected ok, excluded, start_failed, "
            "ready_timeout, bench_failed, slo_violated or interrupted)");
  EXPECT_EQ(trial_error(head + "\"trial\":1}"),
            "study.jsonl:7: unknown status \"\" (expected ok, excluded, start_failed, "
            "ready_timeout, bench_failed, slo_violated or interrupted)");
  const std::string ok = head + "\"trial\":1,\"status\":\"ok\",";
  EXPECT_EQ(trial_error(ok + "\"label\":3}"), "study.jsonl:7: 'label' must be a string");
  EXPECT_EQ(trial_error(ok + "\"params\":[1]}"), "study.jsonl:7: 'params' must be an object");
  EXPECT_EQ(trial_error(ok + "\"params\":{\"a\":1}}"),
            "study.jsonl:7: parameter 'a' must be a string");
  EXPECT_EQ(trial_error(ok + "\"objective\":\"x\"}"),
            "study.jsonl:7: 'objective' must be a number");
  EXPECT_EQ(trial_error(ok + "\"port\":1.5}"), "study.jsonl:7: 'port' must be an integer");
  EXPECT_EQ(trial_error(ok + "\"metrics\":{\"a\":\"x\"}}"),
            "study.jsonl:7: metric 'a' must be a number");
  EXPECT_EQ(trial_error(ok + "\"metrics\":[]}"), "study.jsonl:7: 'metrics' must be an object");
  EXPECT_EQ(trial_error(ok + "\"bench_args\":\"-n 3\"}"),
            "study.jsonl:7: 'bench_args' must be an array");
  EXPECT_EQ(trial_error(ok + "\"bench_args\":[3]}"),
            "study.jsonl:7: 'bench_args' must be a string");
  EXPECT_EQ(trial_error(ok + "\"runs\":[3]}"), "study.jsonl:7: 'runs' must hold objects");
  EXPECT_EQ(trial_error(ok + "\"runs\":[{\"passed_slo\":1}]}"),
            "study.jsonl:7: 'passed_slo' must be true or false");
  EXPECT_EQ(trial_error(ok + "\"gpu\":[{\"used_mib\":\"x\"}]}"),
            "study.jsonl:7: 'used_mib' must be an integer");
  EXPECT_EQ(trial_error(ok + "\"gpu\":[1]}"), "study.jsonl:7: 'gpu' must hold objects");
}

class LedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() /
             ("llmperf_ledger_" + std::to_string(getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl"))
                .string();
  }
  void TearDown() override { fs::remove(path_); }

  void write(const std::string& text) { std::ofstream(path_, std::ios::binary) << text; }

  static std::string line(int64_t trial, TrialStatus status = TrialStatus::kOk) {
    TrialRecord record = full_trial();
    record.trial = trial;
    record.status = status;
    return trial_to_json(record);
  }

  std::string path_;
};

TEST_F(LedgerTest, ReadsEveryLine) {
  write(line(0) + "\n" + line(1, TrialStatus::kStartFailed) + "\n");
  const Ledger ledger = read_ledger(path_);
  ASSERT_EQ(ledger.trials.size(), 2u);
  TrialRecord first = full_trial();
  first.trial = 0;
  first.status = TrialStatus::kOk;
  expect_same(ledger.trials[0], first);
  EXPECT_EQ(ledger.trials[1].trial, 1);
  EXPECT_EQ(ledger.trials[1].status, TrialStatus::kStartFailed);
  EXPECT_TRUE(ledger.problems.empty());
  EXPECT_FALSE(ledger.truncated_tail);
  EXPECT_EQ(ledger.keep_bytes, fs::file_size(path_));
  EXPECT_FALSE(ledger.needs_newline);
}

TEST_F(LedgerTest, ALastLineCutShortIsDroppedQuietly) {
  const std::string whole = line(0) + "\n" + line(1) + "\n";
  const std::string cut = line(2).substr(0, 40);
  write(whole + cut);
  const Ledger ledger = read_ledger(path_);
  ASSERT_EQ(ledger.trials.size(), 2u);
  EXPECT_EQ(ledger.trials[1].trial, 1);
  EXPECT_TRUE(ledger.problems.empty());
  EXPECT_TRUE(ledger.truncated_tail);
  EXPECT_EQ(ledger.keep_bytes, whole.size());
  EXPECT_FALSE(ledger.needs_newline);
}

TEST_F(LedgerTest, ACompleteLastLineWithoutNewlineIsKept) {
  write(line(0) + "\n" + line(1));
  const Ledger ledger = read_ledger(path_);
  ASSERT_EQ(ledger.trials.size(), 2u);
  EXPECT_FALSE(ledger.truncated_tail);
  EXPECT_EQ(ledger.keep_bytes, fs::file_size(path_));
  EXPECT_TRUE(ledger.needs_newline);  // the next line must not join it
}

TEST_F(LedgerTest, OtherBadLinesAreReportedWithTheirNumbers) {
  write(line(0) + "\n" + "garbage\n" + "\n" + "{\"schema\":\"llmperf.study.trial/1\"}\n" + line(1) +
        "\r\n" + "  \n");
  const Ledger ledger = read_ledger(path_);
  ASSERT_EQ(ledger.trials.size(), 2u);  // CRLF is read too
  EXPECT_EQ(ledger.trials[1].trial, 1);
  ASSERT_EQ(ledger.problems.size(), 2u);
  EXPECT_EQ(ledger.problems[0].rfind(path_ + ":2: not JSON (", 0), 0u) << ledger.problems[0];
  EXPECT_EQ(ledger.problems[1], path_ + ":4: 'trial' must be a non-negative integer");
  EXPECT_FALSE(ledger.truncated_tail);
}

TEST_F(LedgerTest, ABadLastLineWithItsNewlineIsAProblemNotACut) {
  write(line(0) + "\n{\"schema\":\n");
  const Ledger ledger = read_ledger(path_);
  EXPECT_EQ(ledger.trials.size(), 1u);
  EXPECT_EQ(ledger.problems.size(), 1u);
  EXPECT_FALSE(ledger.truncated_tail);
}

TEST_F(LedgerTest, AnEmptyLedgerAndAMissingOne) {
  write("");
  const Ledger empty = read_ledger(path_);
  EXPECT_TRUE(empty.trials.empty());
  EXPECT_EQ(empty.keep_bytes, 0u);
  EXPECT_FALSE(empty.needs_newline);
  // Only a cut-short line: nothing kept.
  write("{\"schema\":\"llm");
  const Ledger cut = read_ledger(path_);
  EXPECT_TRUE(cut.trials.empty());
  EXPECT_TRUE(cut.truncated_tail);
  EXPECT_EQ(cut.keep_bytes, 0u);
  fs::remove(path_);
  try {
    read_ledger(path_);
    FAIL() << "a missing ledger was read";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind(path_ + ": cannot read the study ledger: ", 0), 0u);
  }
}

}  // namespace
}  // namespace llmperf

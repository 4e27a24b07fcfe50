// The fault matrix (issue 5): one end-to-end test per misbehaviour of a server, each run in stream
// and non-stream mode against llmperf-mock. Every row checks the same contract: the run completes,
// every request sent is either a success or a failure, every failure has a kind and a readable
// message in requests.jsonl, failures are counted by kind in the text summary and summary.json,
// and every output file is written. Rows then check the kinds they provoke.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kPerRun = 16;

std::vector<std::string> mode_args(bool stream) {
  return {stream ? "--stream" : "--no-stream", "--no-probe"};
}

std::string mode_name(bool stream) { return stream ? "Stream" : "NonStream"; }

// Loads a run written to `outputs_dir` by a process started by hand (not via run_llmperf).
BenchRun load_outputs(const std::string& outputs_dir, ProcessResult process) {
  BenchRun run;
  run.process = std::move(process);
  run.outputs_dir = outputs_dir;
  for (const auto& entry : fs::recursive_directory_iterator(outputs_dir)) {
    if (entry.is_directory() && fs::exists(entry.path() / "requests.jsonl")) {
      run.run_dirs.push_back(entry.path());
    }
  }
  if (!run.run_dirs.empty()) {
    run.sweep_dir = run.run_dirs.front().parent_path();
    run.summary = json::parse(read_file((run.run_dirs.front() / "summary.json").string()));
  }
  return run;
}

// The contract every row shares; returns the failures counted by kind in requests.jsonl.
std::map<std::string, int> check_accounted(const BenchRun& run, int requests) {
  std::map<std::string, int> kinds;
  EXPECT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_FALSE(run.process.timed_out);
  if (run.run_dirs.size() != 1u) {
    ADD_FAILURE() << "expected one run directory\n" << diagnostics(run);
    return kinds;
  }
  const fs::path& dir = run.run_dirs.front();
  for (const char* file :
       {"summary.json", "benchmark_summary.json", "benchmark_percentile.json", "requests.jsonl"}) {
    EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
  }
  for (const char* file : {"sweep_summary.json", "sweep_summary.csv", "sweep_summary.md"}) {
    EXPECT_TRUE(fs::exists(run.sweep_dir / file)) << run.sweep_dir / file;
  }
  const json& s = run.summary;
  const int total = s["requests"]["total"];
  const int ok = s["requests"]["succeeded"];
  const int failed = s["requests"]["failed"];
  EXPECT_EQ(total, requests);
  EXPECT_EQ(ok + failed, total);

  const std::vector<json> records = read_requests(dir);
  EXPECT_EQ(static_cast<int>(records.size()), requests);
  for (const json& r : records) {
    if (r["ok"].get<bool>()) continue;
    const std::string kind = r["error_kind"].is_string() ? r["error_kind"].get<std::string>() : "";
    const std::string message = r["error_message"].get<std::string>();
    EXPECT_FALSE(kind.empty()) << r.dump();
    EXPECT_GE(message.size(), 8u) << "unreadable message: " << r.dump();
    ++kinds[kind];
  }
  std::map<std::string, int> summary_kinds;
  for (const auto& [kind, count] : s["failures_by_kind"].items()) {
    summary_kinds[kind] = count.get<int>();
    // The text summary lists every kind with its count.
    EXPECT_NE(run.process.out.find(kind), std::string::npos) << kind << "\n" << run.process.out;
  }
  EXPECT_EQ(summary_kinds, kinds);
  int by_kind = 0;
  for (const auto& [kind, count] : kinds) by_kind += count;
  EXPECT_EQ(by_kind, failed);
  return kinds;
}

// Every failure is one of `allowed`. A failure names the kind, its count and its first message,
// and prints the mock's log when given: what a rare failure needs to be understood.
void expect_only(const BenchRun& run, const std::map<std::string, int>& kinds,
                 const std::set<std::string>& allowed, const std::string& mock_log = "") {
  for (const auto& [kind, count] : kinds) {
    if (allowed.contains(kind)) continue;
    std::string message;
    for (const json& r : read_requests(run.run_dirs.front())) {
      if (r["error_kind"] == kind) {
        message = r["error_message"].get<std::string>();
        break;
      }
    }
    ADD_FAILURE() << "unexpected failure kind " << kind << " x" << count << ": " << message << "\n"
                  << diagnostics(run) << (mock_log.empty() ? "" : "\nmock log:\n") << mock_log;
  }
}

// Messages of failed records of `kind`.
std::vector<std::string> messages_of(const BenchRun& run, const std::string& kind) {
  std::vector<std::string> out;
  for (const json& r : read_requests(run.run_dirs.front())) {
    if (r["error_kind"] == kind) out.push_back(r["error_message"]);
  }
  return out;
}

// A run of kPerRun against a fresh mock with `mock_args`.
BenchRun run_against(const std::vector<std::string>& mock_args, bool stream,
                     const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--seed", "11"};
  if (std::find(mock_args.begin(), mock_args.end(), "--output-tokens") == mock_args.end()) {
    args = concat(args, {"--output-tokens", "8"});
  }
  MockServer mock(concat(args, mock_args));
  return run_llmperf(concat(concat(base_args(mock), mode_args(stream)),
                            concat({"--parallel", "4", "-n", std::to_string(kPerRun)}, extra)));
}

class FaultMatrix : public ::testing::TestWithParam<bool> {};

// Row 1a: nothing listens at all (the start-up probe is off, so every request is tried).
TEST_P(FaultMatrix, Row01ConnectionRefusedFromTheStart) {
  std::string url;
  {
    MockServer mock({});
    url = mock.chat_url();
    mock.process().signal(SIGKILL);
    mock.process().wait(20);
  }
  const BenchRun run = run_llmperf(concat({"--url", url, "--model", "m", "--prompt", "hi",
                                           "--sleep-interval", "0", "--parallel", "2", "-n", "6"},
                                          mode_args(GetParam())));
  const auto kinds = check_accounted(run, 6);
  EXPECT_EQ(kinds, (std::map<std::string, int>{{"connect_refused", 6}}));
  for (const std::string& m : messages_of(run, "connect_refused")) {
    EXPECT_NE(m.find("connection refused"), std::string::npos) << m;
  }
}

// Row 1b: the server is SIGKILLed while every slot holds a slow response.
TEST_P(FaultMatrix, Row01ServerKilledMidRun) {
  MockServer mock({"--output-tokens", "100", "--itl-ms", "200", "--verbose"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf(concat(
      concat({LLMPERF_BIN}, base_args(mock)),
      concat(mode_args(GetParam()), {"--parallel", "4", "-n", "12", "--outputs-dir", outputs})));
  ASSERT_TRUE(mock.process().wait_for_stderr("#4 POST", 30)) << mock.process().stderr_text();
  mock.process().signal(SIGKILL);
  ProcessResult result;
  result.exit_code = llmperf.wait(kTimeoutS);
  result.err = llmperf.stderr_text();
  // read_line answers "" both for a blank line and at EOF (where it returns at once): read a
  // bounded number of lines, more than the summary has.
  for (int i = 0; i < 500; ++i) result.out += llmperf.read_line(1) + "\n";
  const BenchRun run = load_outputs(outputs, result);
  const auto kinds = check_accounted(run, 12);
  expect_only(run, kinds, {"stream_truncated", "connect_refused", "no_response"},
              mock.process().stderr_text());
  // The four responses in progress are cut: streams after their headers (stream_truncated), whole
  // bodies before their first byte (no_response, on a new connection: never sent again). A
  // request that reached the listen backlog while the process was being torn down is reset before
  // any response byte too; everything sent afterwards is refused.
  const auto count = [&kinds](const std::string& kind) {
    return kinds.count(kind) ? kinds.at(kind) : 0;
  };
  EXPECT_GE(count(GetParam() ? "stream_truncated" : "no_response"), 4)
      << diagnostics(run) << "\nmock log:\n"
      << mock.process().stderr_text();
  EXPECT_GE(count("connect_refused"), 1) << diagnostics(run) << "\nmock log:\n"
                                         << mock.process().stderr_text();
}

// Row 2: the connection is reset (RST) halfway through a reply.
TEST_P(FaultMatrix, Row02ConnectionResetMidStream) {
  const BenchRun run = run_against({"--fault-reset-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"stream_truncated"});
  EXPECT_GT(kinds.count("stream_truncated"), 0u);
  EXPECT_GT(run.summary["requests"]["succeeded"].get<int>(), 0);
}

// Row 3: HTTP errors with a JSON body; the message comes from error.message, not the raw body.
class HttpErrorRow : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(HttpErrorRow, Row03MessageComesFromErrorMessage) {
  const auto [status, stream] = GetParam();
  const BenchRun run = run_against(
      {"--fault-http-rate", "0.5", "--fault-http-status", std::to_string(status)}, stream);
  const auto kinds = check_accounted(run, kPerRun);
  const std::string kind = "http_" + std::to_string(status);
  expect_only(run, kinds, {kind});
  ASSERT_GT(kinds.count(kind), 0u);
  for (const std::string& m : messages_of(run, kind)) {
    EXPECT_NE(m.find("injected error"), std::string::npos) << m;
    EXPECT_EQ(m.find("server_error"), std::string::npos) << "raw body instead of message: " << m;
    EXPECT_NE(m.find(std::to_string(status)), std::string::npos) << m;
  }
  EXPECT_NE(run.summary["failure_examples"][kind].get<std::string>().find("injected error"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Statuses, HttpErrorRow,
                         ::testing::Combine(::testing::Values(400, 401, 404, 500, 503),
                                            ::testing::Bool()),
                         [](const auto& param_info) {
                           return std::to_string(std::get<0>(param_info.param)) +
                                  mode_name(std::get<1>(param_info.param));
                         });

// Row 4: 429 with Retry-After.
TEST_P(FaultMatrix, Row04TooManyRequests) {
  const BenchRun run = run_against({"--fault-429-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"http_429"});
  ASSERT_GT(kinds.count("http_429"), 0u);
  for (const std::string& m : messages_of(run, "http_429")) {
    EXPECT_NE(m.find("injected rate limit"), std::string::npos) << m;
  }
}

// Row 5: a garbage line and an event whose data is not JSON (stream); half a JSON object
// (non-stream). A stream that still carries output succeeds, with the bad events counted.
TEST_P(FaultMatrix, Row05MalformedResponse) {
  const BenchRun run = run_against({"--fault-malformed-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  if (GetParam()) {
    EXPECT_TRUE(kinds.empty());
    int malformed = 0;
    for (const json& r : read_requests(run.run_dirs.front()))
      malformed += r["malformed_events"].get<int>();
    EXPECT_GT(malformed, 0);
  } else {
    expect_only(run, kinds, {"bad_response"});
    EXPECT_GT(kinds.count("bad_response"), 0u);
  }
}

// Row 6: a non-standard `error: {json}` line in a 200 stream, then [DONE] (non-stream: a 200 whose
// body is an error object).
TEST_P(FaultMatrix, Row06ErrorEventInA200) {
  const BenchRun run = run_against({"--fault-error-event-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"stream_error"});
  ASSERT_GT(kinds.count("stream_error"), 0u);
  for (const std::string& m : messages_of(run, "stream_error")) {
    EXPECT_NE(m.find("injected stream error"), std::string::npos) << m;
  }
}

// Row 7: the server goes silent past --read-timeout.
TEST_P(FaultMatrix, Row07StallPastReadTimeout) {
  const BenchRun run =
      run_against({"--fault-stall-rate", "0.5"}, GetParam(), {"--read-timeout", "1"});
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"timeout_read"});
  EXPECT_GT(kinds.count("timeout_read"), 0u);
}

// Row 8: every response takes 3 s, longer than --total-timeout 1.
TEST_P(FaultMatrix, Row08TotalTimeout) {
  const BenchRun run = run_against({"--output-tokens", "31", "--itl-ms", "100"}, GetParam(),
                                   {"--total-timeout", "1", "--read-timeout", "60"});
  const auto kinds = check_accounted(run, kPerRun);
  EXPECT_EQ(kinds, (std::map<std::string, int>{{"timeout_total", kPerRun}}));
}

// Row 9: a chunked body that ends without its terminating zero-size chunk.
TEST_P(FaultMatrix, Row09ChunkedBodyTruncated) {
  const BenchRun run = run_against({"--fault-truncate-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"stream_truncated"});
  EXPECT_GT(kinds.count("stream_truncated"), 0u);
}

// Row 10: a 200 whose body is an HTML page, neither SSE nor JSON.
TEST_P(FaultMatrix, Row10BodyIsNeitherSseNorJson) {
  const BenchRun run = run_against({"--fault-garbage-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  expect_only(run, kinds, {"bad_response"});
  ASSERT_GT(kinds.count("bad_response"), 0u);
  for (const std::string& m : messages_of(run, "bad_response")) {
    EXPECT_NE(m.find("It works!"), std::string::npos) << m;  // an excerpt of the body
  }
}

// Row 11: one SSE line (or body) of 5 MB. It is valid, so the requests succeed.
TEST_P(FaultMatrix, Row11SingleLineOfSeveralMegabytes) {
  constexpr int kHugeBytes = 5'000'000;
  // --keep-text 0: the row is about reading the line; kept answers would make requests.jsonl
  // tens of megabytes that this test's unoptimised JSON parser reads several times (minutes
  // under AddressSanitizer).
  const BenchRun run = run_against(
      {"--fault-huge-line-rate", "0.5", "--huge-line-bytes", std::to_string(kHugeBytes)},
      GetParam(), {"--keep-text", "0"});
  const auto kinds = check_accounted(run, kPerRun);
  EXPECT_TRUE(kinds.empty());
  int huge = 0;
  for (const json& r : read_requests(run.run_dirs.front())) {
    if (r["output_chars"].get<int>() >= kHugeBytes) ++huge;
  }
  EXPECT_GT(huge, 0);
}

// Row 12: invalid UTF-8 bytes inside the generated content. nlohmann decides JSON validity and
// rejects ill-formed UTF-8 in strings (chunk_decoder_test InvalidJsonNeverThrows): a stream
// drops that one event as malformed and succeeds on the rest; a non-stream body is unusable.
TEST_P(FaultMatrix, Row12InvalidUtf8InContent) {
  const BenchRun run = run_against({"--fault-bad-utf8-rate", "0.5"}, GetParam());
  const auto kinds = check_accounted(run, kPerRun);
  int malformed = 0;
  for (const json& r : read_requests(run.run_dirs.front()))
    malformed += r["malformed_events"].get<int>();
  if (GetParam()) {
    EXPECT_TRUE(kinds.empty());
    EXPECT_GT(malformed, 0);
  } else {
    expect_only(run, kinds, {"bad_response"});
    ASSERT_GT(kinds.count("bad_response"), 0u);
    for (const std::string& m : messages_of(run, "bad_response")) {
      EXPECT_NE(m.find("not JSON"), std::string::npos) << m;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, FaultMatrix, ::testing::Bool(),
                         [](const auto& param_info) { return mode_name(param_info.param); });

}  // namespace
}  // namespace llmperf::testing

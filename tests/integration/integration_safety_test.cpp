// Secrets, TLS, output-path safety and interruption (issue 5), end to end: the real llmperf binary
// against llmperf-mock (or a tiny HTTPS server for TLS). Secrets are checked by grepping every
// file a run wrote, its stdout and its stderr for the known key and secret header values.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Every regular file below `dir`.
std::vector<fs::path> files_below(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  return files;
}

TEST(Secrets, KeyAndSecretHeadersAppearNowhere) {
  const std::vector<std::string> secrets = {"SECRETKEY1234567890", "SECRETHDR123", "TOKENVAL98765"};
  // Failures too: their messages and the failure examples must not carry secrets either.
  MockServer mock({"--output-tokens", "4", "--fault-http-rate", "0.3", "--fault-http-status", "401",
                   "--fault-error-event-rate", "0.2", "--verbose"});
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--api-key", secrets[0], "--headers", "X-Api-Key=" + secrets[1],
                               "X-Session-Token=" + secrets[2], "X-Plain=visible-value", "--debug",
                               "--no-probe", "--parallel", "2", "-n", "12"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  ASSERT_GT(run.summary["requests"]["failed"].get<int>(), 0);
  const std::vector<fs::path> files = files_below(run.outputs_dir);
  ASSERT_GE(files.size(), 7u);
  for (const std::string& secret : secrets) {
    EXPECT_EQ(run.process.out.find(secret), std::string::npos) << "stdout leaks " << secret;
    EXPECT_EQ(run.process.err.find(secret), std::string::npos) << "stderr leaks " << secret;
    for (const fs::path& file : files) {
      EXPECT_EQ(read_file(file.string()).find(secret), std::string::npos)
          << file << " leaks " << secret;
    }
  }
  // The masking is visible and non-secret headers are kept.
  const json& headers = run.summary["config"]["headers"];
  EXPECT_EQ(headers["X-Plain"], "visible-value") << headers.dump();
  EXPECT_NE(headers["X-Api-Key"].get<std::string>(), secrets[1]);
}

TEST(OutputPaths, CraftedNameStaysInsideOutputsDir) {
  MockServer mock({"--output-tokens", "2"});
  const fs::path root = make_temp_dir();
  const fs::path outputs = root / "a" / "b" / "outputs";
  for (const std::string name : {"../../escape", "/tmp/../escape", "..", "a/../../../escape"}) {
    fs::remove_all(outputs);
    const ProcessResult result =
        run_process(concat(concat({LLMPERF_BIN}, base_args(mock)),
                           {"--name", name, "-n", "2", "--outputs-dir", outputs.string()}),
                    kTimeoutS);
    ASSERT_EQ(result.exit_code, 0) << name << "\n" << result.err;
    // Nothing was created next to or above the outputs dir ...
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      const std::string path = entry.path().string();
      EXPECT_TRUE(path.starts_with(outputs.string()) ||
                  fs::path(outputs).string().starts_with(path))
          << name << " wrote " << path;
    }
    // ... and the run landed inside it: <outputs>/<timestamp>/<one safe component>/<run>.
    int summaries = 0;
    for (const fs::path& file : files_below(outputs)) {
      if (file.filename() != "summary.json") continue;
      ++summaries;
      const fs::path relative = fs::relative(file, outputs);
      EXPECT_EQ(relative.begin()->string().size(), 15u) << file;  // the timestamp
      EXPECT_EQ(std::distance(relative.begin(), relative.end()), 4) << file;
    }
    EXPECT_EQ(summaries, 1) << name;
  }
  EXPECT_FALSE(fs::exists("/tmp/escape"));
}

TEST(Tls, InsecureWarnsAndBadCacertIsAUsageError) {
  MockServer mock({"--output-tokens", "2"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--insecure", "-n", "2", "--no-probe"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_NE(run.process.err.find("warning: --insecure"), std::string::npos) << run.process.err;

  const ProcessResult bad = run_process(
      concat(concat({LLMPERF_BIN}, base_args(mock)), {"--cacert", "/nonexistent/ca.pem"}),
      kTimeoutS);
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--cacert"), std::string::npos) << bad.err;
}

// Verification against a real TLS front end (nghttpx, a CA made by openssl): refused by default,
// accepted with --cacert or --insecure, a wrong host name refused: integration_tls_test.cpp.

// The single summary.json below `outputs`.
json only_summary(const std::string& outputs) {
  std::vector<json> found;
  for (const fs::path& file : files_below(outputs)) {
    if (file.filename() == "summary.json") found.push_back(json::parse(read_file(file.string())));
    // Atomic writes leave no temporary files behind.
    EXPECT_EQ(file.filename().string().find(".tmp"), std::string::npos) << file;
  }
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? json() : found.front();
}

TEST(Interrupt, SecondSignalCancelsInFlightAtOnce) {
  // Every request waits 60 s for its first token, far longer than the 3 s grace period.
  MockServer mock({"--ttft-ms", "60000", "--verbose"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf(
      concat(concat({LLMPERF_BIN}, base_args(mock)),
             {"--no-probe", "--parallel", "3", "-n", "10", "--outputs-dir", outputs}));
  ASSERT_TRUE(mock.process().wait_for_stderr("#3 POST", 30)) << llmperf.stderr_text();
  const auto start = std::chrono::steady_clock::now();
  llmperf.signal(SIGINT);
  // Two signals sent back to back may merge into one: wait until the first was taken.
  ASSERT_TRUE(llmperf.wait_for_stderr("interrupt again to cancel", 10)) << llmperf.stderr_text();
  const auto second = std::chrono::steady_clock::now();
  llmperf.signal(SIGINT);
  EXPECT_EQ(llmperf.wait(30), 130) << llmperf.stderr_text();
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(elapsed_s, 2.0) << "the second interrupt did not skip the 3 s grace period";
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - second).count(), 1.0);
  EXPECT_NE(llmperf.stderr_text().find("cancelling in-flight requests"), std::string::npos);
  const json s = only_summary(outputs);
  EXPECT_TRUE(s["run"]["interrupted"].get<bool>());
  EXPECT_EQ(s["requests"]["total"], 3);
  EXPECT_EQ(s["failures_by_kind"].value("interrupted", 0), 3);
}

TEST(Interrupt, SigtermWaitsForTheGracePeriodThenWritesEverything) {
  MockServer mock({"--ttft-ms", "60000", "--verbose"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf(
      concat(concat({LLMPERF_BIN}, base_args(mock)),
             {"--no-probe", "--parallel", "2", "-n", "10", "--outputs-dir", outputs}));
  ASSERT_TRUE(mock.process().wait_for_stderr("#2 POST", 30)) << llmperf.stderr_text();
  const auto start = std::chrono::steady_clock::now();
  llmperf.signal(SIGTERM);
  EXPECT_EQ(llmperf.wait(30), 130) << llmperf.stderr_text();
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(elapsed_s, 2.5) << "in-flight requests did not get their grace period";
  const json s = only_summary(outputs);
  EXPECT_TRUE(s["run"]["interrupted"].get<bool>());
  EXPECT_EQ(s["failures_by_kind"].value("interrupted", 0), 2);
  for (const char* file :
       {"benchmark_summary.json", "benchmark_percentile.json", "requests.jsonl"}) {
    bool found = false;
    for (const fs::path& path : files_below(outputs)) found = found || path.filename() == file;
    EXPECT_TRUE(found) << file;
  }
}

// Ctrl-C with issue 26's flags: repeats (--num-runs), two replicas (--url twice) and planned
// cancellation in one run. The repeat under way is written as interrupted, with its per-URL
// breakdown; no later repeat starts and no repeats table is made of one repeat.
TEST(Interrupt, CtrlCDuringRepeatsOverTwoReplicasWritesThePartialRepeat) {
  MockServer slow_a({"--ttft-ms", "60000", "--verbose"});
  MockServer slow_b({"--ttft-ms", "60000", "--verbose"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf({LLMPERF_BIN, "--url", slow_a.chat_url(), "--url", slow_b.chat_url(),
                             "--model", "mock-model", "--prompt", "hi", "--no-probe",
                             "--parallel", "4", "-n", "8", "--num-runs", "3", "--cancel-rate",
                             "0.5", "--cancel-after", "30", "--outputs-dir", outputs});
  ASSERT_TRUE(slow_a.process().wait_for_stderr("#2 POST", 30)) << llmperf.stderr_text();
  ASSERT_TRUE(slow_b.process().wait_for_stderr("#2 POST", 30)) << llmperf.stderr_text();
  llmperf.signal(SIGINT);
  ASSERT_TRUE(llmperf.wait_for_stderr("interrupt again to cancel", 10)) << llmperf.stderr_text();
  llmperf.signal(SIGINT);
  EXPECT_EQ(llmperf.wait(30), 130) << llmperf.stderr_text();
  const json s = only_summary(outputs);
  EXPECT_TRUE(s["run"]["interrupted"].get<bool>());
  EXPECT_NE(s["run"]["output_dir"].get<std::string>().find("repeat_1"), std::string::npos);
  EXPECT_EQ(s["requests"]["total"], 4);
  EXPECT_EQ(s["failures_by_kind"].value("interrupted", 0), 4) << s["failures_by_kind"].dump();
  ASSERT_TRUE(s.contains("by_url")) << s.dump(1);
  EXPECT_EQ(s["by_url"].size(), 2u);
  bool repeat_2 = false;
  for (const fs::path& path : files_below(outputs)) {
    repeat_2 = repeat_2 || path.string().find("repeat_2") != std::string::npos;
  }
  EXPECT_FALSE(repeat_2) << "a repeat started after Ctrl-C";
}

TEST(Interrupt, KilledRunKeepsEveryFinishedRequestInThePartialFile) {
  // SIGKILL gives llmperf no chance to write anything: what it gathered must already be on disk,
  // streamed to requests.jsonl.partial while the run went on.
  MockServer mock({"--ttft-ms", "50", "--itl-ms", "20", "--output-tokens", "3"});
  const std::string outputs = make_temp_dir();
  BackgroundProcess llmperf(
      concat(concat({LLMPERF_BIN}, base_args(mock)),
             {"--no-probe", "--parallel", "2", "-n", "100000", "--outputs-dir", outputs}));
  auto partial_lines = [&]() -> std::vector<std::string> {
    for (const fs::path& path : files_below(outputs)) {
      if (path.filename() != "requests.jsonl.partial") continue;
      // Only lines that end with a newline: a kill during a write may cut the last one short.
      std::vector<std::string> lines;
      std::string text = read_file(path.string());
      text.erase(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
      std::istringstream in(text);
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      return lines;
    }
    return {};
  };
  // The records are written out as the run goes (about every 100 ms), not once 256 KiB of lines
  // are pending: 50 lines come within 3 s here (about 22 requests a second), while 256 KiB (some
  // 300 records) would take 14 s, past the deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (partial_lines().size() < 50 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // polling the file, not timing
  }
  llmperf.signal(SIGKILL);
  EXPECT_EQ(llmperf.wait(30), 128 + SIGKILL);

  const std::vector<std::string> lines = partial_lines();
  ASSERT_GE(lines.size(), 50u) << llmperf.stderr_text();
  std::set<uint64_t> ids;
  for (const std::string& line : lines) {
    const json r = json::parse(line, nullptr, false);  // every line is a whole record
    ASSERT_TRUE(r.is_object()) << line;
    EXPECT_TRUE(r["ok"].get<bool>()) << line;
    EXPECT_EQ(r["output_tokens"], 3);
    ids.insert(r["id"].get<uint64_t>());
  }
  EXPECT_EQ(ids.size(), lines.size());  // no record twice
  for (const fs::path& path : files_below(outputs)) {
    EXPECT_NE(path.filename(), "requests.jsonl") << "only a complete run may claim that name";
  }
}

}  // namespace
}  // namespace llmperf::testing

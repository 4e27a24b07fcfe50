// `llmperf tune` end to end: the real binary starts real llmperf-mock servers in scheduler mode
// (their known landscape is in docs/mock.md: with 1000-token prompts, a 1024-token budget with
// chunked prefill is best; without chunked prefill a budget below --max-model-len is refused at
// start-up with vLLM's ValueError), shell-script servers that misbehave, and llama.cpp's server
// where it is present. Every test checks that no server process is left behind.
#include <dirent.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/tune/ports.h"
#include "llmperf_run.h"
#include "test_process.h"
#include "tune_study.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The mock in scheduler mode with the landscape of docs/mock.md (tune_study.h); B and cp are
// parameters.
std::string mock_serve(const std::string& marker) {
  return landscape_mock(marker, "--max-num-batched-tokens {B} --enable-chunked-prefill {cp}");
}

// The benchmark of those tests: 1000-token prompts, 20 tokens out, 64 at a time.
std::vector<std::string> landscape_bench(const std::string& marker, int requests) {
  return {"--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
          "--dataset", "random", "--input-tokens", "1000", "--output-tokens", "20",
          "--parallel", "64", "-n", std::to_string(requests), "--seed", "1"};
}

// llmperf's own warnings on stderr (spdlog's "[warning]" lines).
std::vector<std::string> warning_lines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.find("[warning]") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

const json* trial_with(const Study& study, const std::string& label) {
  for (const json& line : study.ledger) {
    if (line.value("label", "") == label) return &line;
  }
  return nullptr;
}

TEST(Tune, GridFindsTheKnownBestAndRecordsTheRefusedConfigurations) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--serve", mock_serve(marker), "--param", "B=512,1024,2048",
                                   "--param", "cp=true,false", "--stop-timeout", "5"};
  const Study study = run_tune(concat(args, landscape_bench(marker, 256)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 6u) << show(study);

  // Without chunked prefill, 512 and 1024 are below --max-model-len: refused, never benchmarked.
  for (const char* label : {"1-512-disable", "3-1024-disable"}) {
    const json* trial = trial_with(study, label);
    ASSERT_NE(trial, nullptr) << label << "\n" << show(study);
    EXPECT_EQ(trial->at("status"), "start_failed") << trial->dump();
    EXPECT_NE(trial->value("reason", "").find("ValueError: max_num_batched_tokens ("),
              std::string::npos)
        << trial->dump();
    EXPECT_NE(trial->value("reason", "").find("is smaller than max_model_len (2048)"),
              std::string::npos)
        << trial->dump();
    EXPECT_FALSE(trial->contains("objective"));
    EXPECT_FALSE(fs::exists(study.dir / trial->at("dir").get<std::string>() / "bench"))
        << "a refused configuration was benchmarked";
    EXPECT_FALSE(trial->value("log_tail", json::array()).empty());
  }
  for (const char* label : {"0-512-enable", "2-1024-enable", "4-2048-enable", "5-2048-disable"}) {
    const json* trial = trial_with(study, label);
    ASSERT_NE(trial, nullptr) << label;
    EXPECT_EQ(trial->at("status"), "ok") << trial->dump();
    EXPECT_GT(trial->at("objective").get<double>(), 0);
    EXPECT_GT(trial->at("ready_s").get<double>(), 0);
    EXPECT_EQ(trial->at("metrics").at("completed").get<double>(), 256);
  }
  // The known best: 1024 with chunked prefill, by about 40 % (docs/mock.md).
  EXPECT_EQ(study.summary.at("best").at("label"), "2-1024-enable") << study.summary.dump(2);
  // The refusals, as an --exclude for the next study, in the text, the summary and the page.
  EXPECT_EQ(study.summary.at("suggested_excludes"),
            json::parse(R"([{"exclude": "B<=1024 and cp==false", "configurations": 2,
                            "status": "start_failed", "reason": ")" +
                        trial_with(study, "1-512-disable")->at("reason").get<std::string>() +
                        "\"}]"))
      << study.summary.dump(2);
  EXPECT_NE(study.process.out.find("--exclude 'B<=1024 and cp==false'  (2 configurations, "
                                   "start_failed: ValueError: max_num_batched_tokens ("),
            std::string::npos)
      << study.process.out;
  EXPECT_NE(read_file((study.dir / "study.html").string())
                .find("--exclude &#39;B&lt;=1024 and cp==false&#39;"),
            std::string::npos);
  EXPECT_NE(study.process.out.find("--max-num-batched-tokens 1024 --enable-chunked-prefill true"),
            std::string::npos)
      << "the best configuration's exact server command\n"
      << study.process.out;
  for (const char* file : {"study.json", "study_summary.csv", "study_summary.md", "study.html"}) {
    EXPECT_TRUE(fs::exists(study.dir / file)) << file;
  }
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

// The median ITL is the mock's step time (about 9.0 ms at budget 1024, whose steps are full, and
// 6.3 ms at 2048, at landscape_mock's pace): it stays put on a busy machine, where TPOT p50 did not.
TEST(Tune, AnSloRulesOutTheThroughputWinner) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--serve", mock_serve(marker), "--param", "B=1024,2048",
                                   "--param", "cp=true", "--slo", "itl.p50<=7.5ms"};
  const Study study = run_tune(concat(args, landscape_bench(marker, 256)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 2u) << show(study);
  EXPECT_EQ(study.ledger[0].at("status"), "slo_violated") << show(study);
  EXPECT_NE(study.ledger[0].value("reason", "").find("itl.p50"), std::string::npos);
  EXPECT_EQ(study.ledger[1].at("status"), "ok") << show(study);
  // 1024 has more throughput, but only 2048 meets the SLO.
  EXPECT_GT(study.ledger[0].at("objective").get<double>(),
            study.ledger[1].at("objective").get<double>());
  EXPECT_EQ(study.summary.at("best").at("label"), "1-2048-enable") << study.summary.dump(2);
}

TEST(Tune, HalvingSpendsLessThanTheGridAndStillFindsTheBest) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--serve", mock_serve(marker), "--param",
                                   "B=256,512,1024,2048", "--param", "cp=true", "--strategy",
                                   "halving"};
  const Study study = run_tune(concat(args, landscape_bench(marker, 192)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  double requests = 0;
  int full_runs = 0;
  for (const json& trial : study.ledger) {
    ASSERT_EQ(trial.at("status"), "ok") << show(study);
    requests += trial.at("metrics").at("completed").get<double>();
    full_runs += trial.at("metrics").at("completed").get<double>() == 192 ? 1 : 0;
  }
  EXPECT_LT(requests, 4 * 192) << "the grid would send 4 x 192\n" << show(study);
  EXPECT_EQ(full_runs, 1) << show(study);
  EXPECT_EQ(study.summary.at("best").at("label"), "2-1024-enable") << study.summary.dump(2);
  EXPECT_TRUE(processes_with(marker).empty());
}

// Its space (8 million configurations) is far too large for a grid: random:N never lists it.
TEST(Tune, ARandomStudyIsReproducibleFromItsSeed) {
  const std::string dir = make_temp_dir() + "/study";
  const auto dry_run = [&](const std::string& seed) {
    return run_process({LLMPERF_BIN, "tune", "--study-dir", dir, "--serve",
                        "my-server --port {port} --a {a} --b {b} {c}", "--param", "a=int:1:1000000",
                        "--param", "b=log:0.001:10", "--param", "c=flag:--fast", "--strategy",
                        "random:5", "--dry-run", "--url",
                        "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m",
                        "--prompt", "hi", "--seed", seed},
                       kTimeoutS);
  };
  const ProcessResult first = dry_run("7");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("my-server --port {port} --a "), std::string::npos) << first.out;
  EXPECT_EQ(dry_run("7").out, first.out);
  EXPECT_NE(dry_run("8").out, first.out);
  EXPECT_FALSE(std::filesystem::exists(dir)) << "a dry run writes nothing";
}

TEST(Tune, RepeatedRunsKeepTheMedianAndRunTheBetweenCommand) {
  const std::string marker = tune_marker();
  const Study study = run_tune(
      {"--serve", std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker, "--param",
       "a=1", "--num-runs", "3", "--between-cmd", "echo x >> {outdir}/between.txt", "--url",
       "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker, "--prompt", "hi", "-n",
       "8"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 1u);
  const json& trial = study.ledger[0];
  EXPECT_EQ(trial.at("runs").size(), 3u) << trial.dump();
  const json& metrics = trial.at("metrics");
  EXPECT_LE(metrics.at("objective.min").get<double>(), trial.at("objective").get<double>());
  EXPECT_GE(metrics.at("objective.max").get<double>(), trial.at("objective").get<double>());
  // Between the three runs, twice; each run in a directory of its own.
  const fs::path dir = study.dir / trial.at("dir").get<std::string>();
  EXPECT_EQ(read_file((dir / "between.txt").string()), "x\nx\n");
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(fs::exists(dir / ("bench_run_" + std::to_string(r))));
}

// Issue 37: the best configuration's server command is shown as a user can paste it, with
// {port} left as it is, in the text, study_summary.json (beside the command as run) and study.html.
TEST(Tune, TheBestServerCommandLeavesThePortToTheUser) {
  const std::string marker = tune_marker();
  const std::string serve = std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker;
  const Study study = run_tune({"--serve", serve, "--param", "a=1", "--url",
                                "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
                                "--prompt", "hi", "-n", "4"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 1u);
  const json& best = study.summary.at("best");
  EXPECT_EQ(best.at("server_command_template"), serve);
  const std::string port = std::to_string(study.ledger[0].at("port").get<int>());
  EXPECT_EQ(best.at("server_command"),
            std::string(LLMPERF_MOCK_BIN) + " --port " + port + " --model " + marker);
  EXPECT_EQ(study.ledger[0].at("server_command_template"), serve);
  EXPECT_NE(study.process.out.find("  server command ({port}: the port to serve on):\n    " +
                                   serve + "\n"),
            std::string::npos)
      << study.process.out;
  EXPECT_NE(read_file((study.dir / "study.html").string()).find(serve), std::string::npos);
  EXPECT_NE(read_file((study.dir / "study_summary.md").string()).find(serve), std::string::npos);
}

// When the --url fixes the port, the pasted command names that port where the template says
// {port} (as `docker run -p PORT:{port} ...` would, here a shell comment), and the server's
// command binds the fixed port in every trial.
TEST(Tune, TheBestServerCommandNamesTheUrlsFixedPort) {
  const std::string marker = tune_marker();
  const std::string port = std::to_string(pick_free_port());
  const std::string serve = std::string(LLMPERF_MOCK_BIN) + " --port " + port + " --model " +
                            marker + " # would serve on {port}";
  const Study study = run_tune({"--serve", serve, "--param", "a=1,2", "--url",
                                "http://127.0.0.1:" + port + "/v1/chat/completions", "--model",
                                marker, "--prompt", "hi", "-n", "4"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 2u) << show(study);
  for (const json& trial : study.ledger) EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
  EXPECT_EQ(study.summary.at("best").at("server_command_template"),
            std::string(LLMPERF_MOCK_BIN) + " --port " + port + " --model " + marker +
                " # would serve on " + port);
  EXPECT_EQ(warning_lines(study.process.err), std::vector<std::string>{}) << study.process.err;
  EXPECT_TRUE(processes_with(marker).empty());
}

// Item 0 of issue 37: a trial that runs --search has the search's answer as its objective (the
// highest concurrency meeting every --slo, in its unit), and its best probe's metrics. Here one
// trial's SLO passes every probe (the answer is HI) and the other's none.
TEST(Tune, ATrialThatSearchesHasItsAnswerAsItsObjective) {
  const std::string marker = tune_marker();
  const Study study = run_tune(
      {"--serve", std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker, "--param",
       "limit=0.001,60000", "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model",
       marker, "--prompt", "hi", "-n", "4", "--search", "parallel", "--search-range", "1", "3",
       "--slo", "ttft.p99<={limit}ms"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 2u) << show(study);
  EXPECT_EQ(study.summary.at("study").at("objective").at("name"), "search.parallel");
  EXPECT_EQ(study.summary.at("study").at("objective").at("unit"), "concurrency");

  const json& none = study.ledger[0];  // 1 µs of TTFT: no probe passes
  EXPECT_EQ(none.at("status"), "slo_violated") << none.dump();
  EXPECT_FALSE(none.contains("objective")) << none.dump();
  EXPECT_NE(none.value("reason", "")
                .find("--search: no value met every --slo; the lowest "
                      "tried, 1, failed --slo 'ttft.p99<=0.001ms'"),
            std::string::npos)
      << none.dump();
  EXPECT_EQ(none.at("metrics").at("concurrency"), 1) << "the lowest probe's figures";

  const json& all = study.ledger[1];  // a minute: every probe passes, the answer is HI
  EXPECT_EQ(all.at("status"), "ok") << all.dump();
  EXPECT_EQ(all.at("objective"), 3) << all.dump();
  EXPECT_EQ(all.at("metrics").at("concurrency"), 3) << "the best probe's figures";
  EXPECT_EQ(all.at("metrics").at("completed"), 4);
  double highest_passing = 0;
  for (const json& run : all.at("runs")) {
    if (run.at("passed_slo"))
      highest_passing = std::max(highest_passing, run.at("objective").get<double>());
  }
  EXPECT_EQ(highest_passing, 3) << all.dump();
  EXPECT_EQ(study.summary.at("best").at("objective"), 3);
  EXPECT_NE(study.process.out.find(": ok, search.parallel 3 concurrency,"), std::string::npos)
      << study.process.out;
  EXPECT_NE(study.process.out.find("the highest concurrency that met every --slo"),
            std::string::npos)
      << study.process.out;
}

TEST(Tune, BadFlagsFailBeforeAnyServerStarts) {
  const std::string marker = tune_marker();
  const Study study = run_tune({"--serve", "sleep 30 " + marker + " {port} {typo}", "--param",
                                "a=1,2", "--url", "http://127.0.0.1:{port}/v1/completions"});
  EXPECT_EQ(study.process.exit_code, 2) << show(study);
  EXPECT_NE(study.process.err.find("{typo}"), std::string::npos) << study.process.err;
  EXPECT_TRUE(study.ledger.empty());
  EXPECT_TRUE(processes_with(marker).empty());
}

TEST(TuneLifecycle, AServerThatExitsEarlyFailsWithinASecondWithItsError) {
  const Study study = run_tune(
      {"--serve", "echo 'INFO loading'; echo 'ValueError: no such model {m}' >&2; exit 1",
       "--param", "m=x,y", "--url", "http://127.0.0.1:{port}/v1/completions", "--model", "m",
       "--prompt", "hi"});
  EXPECT_EQ(study.process.exit_code, 1) << show(study);
  ASSERT_EQ(study.ledger.size(), 2u) << show(study);
  for (const json& trial : study.ledger) {
    EXPECT_EQ(trial.at("status"), "start_failed");
    EXPECT_EQ(trial.at("reason"), "ValueError: no such model " +
                                       trial.at("params").at("m").get<std::string>());
    EXPECT_LT(trial.at("duration_s").get<double>(), 1.0) << trial.dump();
  }
}

// Picking a trial's port is racy (ports.h): another process may bind it before the server does.
// Here the first start's port really is taken (a listener holds it while llmperf-mock tries to
// bind it, and fails with its own "Address already in use"); the trial starts the server again
// on another port and runs.
TEST(TuneLifecycle, AServerWhosePortWasTakenStartsAgainOnAnother) {
  const std::string marker = tune_marker();
  const std::string mock =
      std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker + " --output-tokens 4";
  const std::string serve =
      "if [ -e {outdir}/taken ]; then exec " + mock + "; fi; touch {outdir}/taken; "
      "exec python3 -c 'import socket, subprocess, sys; s = socket.socket(); "
      "s.bind((\"127.0.0.1\", {port})); s.listen(); "
      "sys.exit(subprocess.run(sys.argv[1:]).returncode)' " + mock;
  const Study study = run_tune({"--serve", serve, "--param", "a=1", "--url",
                                "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
                                "--prompt", "hi", "-n", "4"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 1u) << show(study);
  const json& trial = study.ledger[0];
  EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
  const std::string log =
      read_file((study.dir / trial.at("server_log").get<std::string>()).string());
  const std::string port = std::to_string(trial.at("port").get<int>());
  // Two starts ("[llmperf] start TIME port N"), the first on another port, which the mock could
  // not bind.
  std::vector<std::string> start_ports;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("[llmperf] start")) {
      start_ports.push_back(line.substr(line.rfind(' ') + 1));
    }
  }
  ASSERT_EQ(start_ports.size(), 2u) << log;
  EXPECT_NE(start_ports[0], port);
  EXPECT_EQ(start_ports[1], port);
  EXPECT_NE(log.find("Address already in use"), std::string::npos) << log;
  EXPECT_NE(study.process.err.find("was taken before its server bound it"), std::string::npos)
      << study.process.err;
  EXPECT_TRUE(processes_with(marker).empty());
}

TEST(TuneLifecycle, AServerThatNeverGetsReadyTimesOut) {
  const std::string marker = tune_marker();
  const Study study = run_tune({"--serve", "exec sh -c 'sleep 60; true' " + marker, "--param",
                                "a=1", "--ready-timeout", "1", "--url",
                                "http://127.0.0.1:{port}/v1/completions", "--model", "m",
                                "--prompt", "hi"});
  EXPECT_EQ(study.process.exit_code, 1) << show(study);
  ASSERT_EQ(study.ledger.size(), 1u) << show(study);
  EXPECT_EQ(study.ledger[0].at("status"), "ready_timeout");
  EXPECT_LT(study.ledger[0].at("duration_s").get<double>(), 10.0);
  EXPECT_TRUE(processes_with(marker).empty());
}

TEST(TuneLifecycle, AServerThatIgnoresSigtermIsKilledAfterTheStopTimeout) {
  const std::string marker = tune_marker();
  // The shell ignores SIGTERM and keeps a loop going after the mock (which obeys it) has gone.
  const std::string serve = "trap '' TERM; " + std::string(LLMPERF_MOCK_BIN) +
                            " --port {port} --model " + marker +
                            " & while :; do sleep 0.1; done";
  const Study study = run_tune({"--serve", serve, "--param", "a=1", "--stop-timeout", "1",
                                "--url", "http://127.0.0.1:{port}/v1/chat/completions",
                                "--model", marker, "--prompt", "hi", "-n", "4"});
  EXPECT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 1u) << show(study);
  EXPECT_EQ(study.ledger[0].at("status"), "ok") << show(study);
  EXPECT_NE(read_file((study.dir / study.ledger[0].at("server_log").get<std::string>()).string())
                .find("SIGKILL"),
            std::string::npos)
      << "the log should say the group was killed";
  EXPECT_TRUE(processes_with(marker).empty());
}

TEST(TuneLifecycle, GpuMemoryIsRecordedWhereNvidiaSmiIsOnPath) {
  const std::string bin = make_temp_dir();
  {
    std::ofstream script(bin + "/nvidia-smi");
    script << "#!/bin/sh\necho '0, 19344, 46068'\necho '1, 812, 46068'\n";
  }
  fs::permissions(bin + "/nvidia-smi", fs::perms::owner_all);
  const std::string dir = make_temp_dir() + "/study";
  const std::string marker = tune_marker();
  const ProcessResult process = run_process(
      {"/usr/bin/env", "PATH=" + bin + ":" + std::getenv("PATH"), LLMPERF_BIN, "tune",
       "--study-dir", dir, "--serve",
       std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker, "--param", "a=1",
       "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker, "--prompt",
       "hi", "-n", "4"},
      kTimeoutS);
  ASSERT_EQ(process.exit_code, 0) << process.err;
  const std::vector<json> ledger = read_ledger_lines(dir);
  ASSERT_EQ(ledger.size(), 1u);
  EXPECT_EQ(ledger[0].at("gpu"), json::parse(R"([{"index":0,"used_mib":19344,"total_mib":46068},
                                                  {"index":1,"used_mib":812,"total_mib":46068}])"))
      << ledger[0].dump();
}

TEST(TuneLifecycle, CtrlCLeavesNoServerAndResumeFinishesTheStudy) {
  const std::string marker = tune_marker();
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  std::vector<std::string> argv = {LLMPERF_BIN, "tune", "--study-dir", dir.string(), "--serve",
                                   mock_serve(marker), "--param", "B=512,1024,2048",
                                   "--param", "cp=true"};
  argv = concat(argv, landscape_bench(marker, 320));
  {
    BackgroundProcess tune(argv);
    // The first trial's line, then the second trial under way: its server starting or being
    // benchmarked. (Ctrl-C between two trials would leave no second line at all.)
    const std::string line = tune.read_line(kTimeoutS);
    ASSERT_NE(line.find("0-512-enable"), std::string::npos) << line << tune.stderr_text();
    ASSERT_TRUE(tune.wait_for_stderr("trial 1-1024-enable (2/3): starting the server", kTimeoutS))
        << tune.stderr_text();
    tune.signal(SIGINT);
    EXPECT_EQ(tune.wait(kTimeoutS), 130) << tune.stderr_text();
  }
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived Ctrl-C";
  std::vector<json> ledger = read_ledger_lines(dir);
  ASSERT_GE(ledger.size(), 2u);
  EXPECT_EQ(ledger[0].at("status"), "ok");
  EXPECT_EQ(ledger[1].at("status"), "interrupted");
  EXPECT_TRUE(fs::exists(dir / "study.json"));

  const Study resumed = load_study(
      run_process({LLMPERF_BIN, "tune", "--resume", dir.string()}, kTimeoutS), dir);
  ASSERT_EQ(resumed.process.exit_code, 0) << show(resumed);
  EXPECT_NE(resumed.process.out.find("kept from the ledger"), std::string::npos)
      << resumed.process.out;
  std::map<std::string, int> finished;  // label -> final lines
  for (const json& trial : resumed.ledger) {
    if (trial.at("status") != "interrupted") ++finished[trial.at("label").get<std::string>()];
  }
  EXPECT_EQ(finished, (std::map<std::string, int>{
                          {"0-512-enable", 1}, {"1-1024-enable", 1}, {"2-2048-enable", 1}}))
      << show(resumed);
  EXPECT_EQ(resumed.summary.at("best").at("label"), "1-1024-enable");
  // The study started when it first did, not when it was resumed.
  const json study_file = json::parse(read_file((dir / "study.json").string()));
  EXPECT_EQ(resumed.summary.at("study").at("started"), study_file.at("started"));
  EXPECT_TRUE(processes_with(marker).empty());
}

// --stage (issue 39): the token budget first, with chunked prefill at its stage's first value
// (true), then chunked prefill with the budget fixed at stage 1's best. 3 + 2 trials instead of
// the grid's 6, and the path ends at the grid's known best (1024 with chunked prefill); at 1024,
// stage 2's cp=false is refused at start-up, as the grid test shows. Then a stage cut short: its
// ledger loses a line, and --resume runs that trial alone and ends on the same path.
TEST(TuneStages, EachStageFixesTheBestOfTheOneBeforeAndResumeGoesOnMidStage) {
  const std::string marker = tune_marker();
  const std::vector<std::string> args =
      concat({"--serve", mock_serve(marker), "--stage", "B=512,1024,2048", "--stage",
              "cp=true,false", "--stop-timeout", "5"},
             landscape_bench(marker, 256));
  const Study study = run_tune(args);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  const fs::path stage1 = study.dir / "stage_1_B";
  const fs::path stage2 = study.dir / "stage_2_cp";
  const std::vector<json> first = read_ledger_lines(stage1);
  const std::vector<json> second = read_ledger_lines(stage2);
  ASSERT_EQ(first.size(), 3u) << show(study);
  ASSERT_EQ(second.size(), 2u) << show(study);
  for (const json& trial : first) {
    EXPECT_EQ(trial.at("stage"), 1) << trial.dump();
    EXPECT_EQ(trial.at("params").at("cp"), "true") << trial.dump();
  }
  for (const json& trial : second) {
    EXPECT_EQ(trial.at("stage"), 2) << trial.dump();
    EXPECT_EQ(trial.at("params").at("B"), "1024") << "stage 1's best fixed\n" << trial.dump();
  }
  const json stage1_summary = json::parse(read_file((stage1 / "study_summary.json").string()));
  EXPECT_EQ(stage1_summary.at("best").at("label"), "1-1024-enable") << stage1_summary.dump(2);
  const json* refused = nullptr;
  for (const json& trial : second) {
    if (trial.at("params").at("cp") == "false") refused = &trial;
  }
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->at("status"), "start_failed") << refused->dump();

  const json path = json::parse(read_file((study.dir / "stages.json").string()));
  ASSERT_EQ(path.at("stages").size(), 2u) << path.dump(2);
  EXPECT_EQ(path.at("stages")[0].at("chosen"), json::parse(R"({"B":["1024"]})")) << path.dump(2);
  EXPECT_EQ(path.at("stages")[1].at("fixed"), json::parse(R"({"B":["1024"]})")) << path.dump(2);
  EXPECT_EQ(path.at("stages")[1].at("chosen"), json::parse(R"({"cp":["true"]})")) << path.dump(2);
  EXPECT_NE(study.process.out.find("The path through the stages"), std::string::npos)
      << study.process.out;
  EXPECT_NE(study.process.out.find("best after 2 stage(s): B=1024, cp=true"), std::string::npos)
      << study.process.out;
  for (const char* file : {"study.json", "stages.md", "study.html"}) {
    EXPECT_TRUE(fs::exists(study.dir / file)) << file;
  }
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";

  // `llmperf report` rebuilds the path (and each stage's study) from the directories alone.
  const std::string path_text = read_file((study.dir / "stages.json").string());
  fs::remove(study.dir / "stages.json");
  const ProcessResult report = run_process({LLMPERF_BIN, "report", study.dir.string()}, kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_EQ(read_file((study.dir / "stages.json").string()), path_text);

  // Stage 2 cut short after its first trial: --resume keeps stage 1 and that trial.
  {
    std::ifstream in(stage2 / "study.jsonl");
    std::string line;
    std::getline(in, line);
    in.close();
    std::ofstream out(stage2 / "study.jsonl", std::ios::trunc);
    out << line << "\n";
  }
  const ProcessResult resumed =
      run_process({LLMPERF_BIN, "tune", "--resume", study.dir.string()}, kTimeoutS);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_EQ(read_ledger_lines(stage1).size(), 3u);
  EXPECT_EQ(read_ledger_lines(stage2).size(), 2u);
  size_t kept = 0;
  for (size_t at = resumed.out.find("kept from the ledger"); at != std::string::npos;
       at = resumed.out.find("kept from the ledger", at + 1)) {
    ++kept;
  }
  EXPECT_EQ(kept, 4u) << "stage 1's three trials and stage 2's first\n" << resumed.out;
  EXPECT_NE(resumed.out.find("best after 2 stage(s): B=1024, cp=true"), std::string::npos)
      << resumed.out;
  EXPECT_TRUE(processes_with(marker).empty());
}

// Where llama.cpp's server and its model are ($LLMPERF_LLAMA_SERVER_DIR, the build's, the shared
// one); empty when they are not.
fs::path tune_llama_dir() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("LLMPERF_LLAMA_SERVER_DIR"); env != nullptr && *env != 0) {
    dirs.emplace_back(env);
  } else {
    dirs = {LLMPERF_LLAMA_SERVER_DIR, "/work/shared/llama-server"};
  }
  for (const fs::path& dir : dirs) {
    if (fs::exists(dir / "llama-server") && fs::exists(dir / "tiny-llama-spm.gguf")) return dir;
  }
  return {};
}

constexpr const char* kNoLlamaServer =
    "llama-server and tiny-llama-spm.gguf not found; set LLMPERF_LLAMA_SERVER_DIR";

// llama-server on `port` ("{port}" or a number) with its slots and context as parameters.
std::string llama_serve(const fs::path& where, const std::string& port, const std::string& marker) {
  return (where / "llama-server").string() + " -m " + (where / "tiny-llama-spm.gguf").string() +
         " --host 127.0.0.1 --port " + port + " -np {np} -c {ctx} -t 1 --no-webui --metrics" +
         " --alias " + marker;
}

// Each trial's time is its server's start, its benchmark and its stop, within a second: nothing
// waits on the side (a port of the trial's own is not waited for after its server stopped).
void expect_time_accounted_for(const json& trial) {
  ASSERT_TRUE(trial.contains("ready_s") && trial.contains("bench_s") && trial.contains("stop_s"))
      << trial.dump();
  const double parts = trial.at("ready_s").get<double>() + trial.at("bench_s").get<double>() +
                       trial.at("stop_s").get<double>();
  EXPECT_LT(trial.at("duration_s").get<double>(), parts + 1.0) << trial.dump();
}

// llama.cpp's server, where it is beside the project: tune its slots (-np) and context (-c).
// -np 0 makes it crash at start-up (SIGFPE): a start failure, recorded and skipped.
TEST(TuneLlamaServer, TunesSlotsAndContextOfARealServer) {
  const fs::path where = tune_llama_dir();
  if (where.empty()) GTEST_SKIP() << kNoLlamaServer;
  const std::string marker = tune_marker();
  const std::string serve = llama_serve(where, "{port}", marker);
  const Study study = run_tune({"--serve", serve, "--param", "np=0,2", "--param",
                                "ctx=256,512", "--url",
                                "http://127.0.0.1:{port}/v1/chat/completions", "--model",
                                marker, "--prompt", "Tell me a story", "--max-tokens", "8",
                                "-n", "6", "--parallel", "2"},
                               300);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 4u) << show(study);
  for (const json& trial : study.ledger) {
    if (trial.at("params").at("np") == "0") {
      EXPECT_EQ(trial.at("status"), "start_failed") << trial.dump();
      EXPECT_FALSE(trial.value("reason", "").empty());
    } else {
      EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
      EXPECT_EQ(trial.at("metrics").at("completed").get<double>(), 6);
    }
  }
  EXPECT_TRUE(study.summary.contains("best"));
  EXPECT_TRUE(processes_with(marker).empty()) << "llama-server outlived the study";
}

// --stage against llama.cpp's server: its slots first (the context at its stage's first value),
// then its context with the slots fixed at stage 1's best.
TEST(TuneLlamaServer, StagesFixTheSlotsThenTuneTheContext) {
  const fs::path where = tune_llama_dir();
  if (where.empty()) GTEST_SKIP() << kNoLlamaServer;
  const std::string marker = tune_marker();
  const Study study = run_tune({"--serve", llama_serve(where, "{port}", marker), "--stage",
                                "np=1,2", "--stage", "ctx=512,1024", "--url",
                                "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
                                "--prompt", "Tell me a story", "--max-tokens", "8", "-n", "6",
                                "--parallel", "2"},
                               300);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  const std::vector<json> first = read_ledger_lines(study.dir / "stage_1_np");
  const std::vector<json> second = read_ledger_lines(study.dir / "stage_2_ctx");
  ASSERT_EQ(first.size(), 2u) << show(study);
  ASSERT_EQ(second.size(), 2u) << show(study);
  const json path = json::parse(read_file((study.dir / "stages.json").string()));
  const json best_np = path.at("stages")[0].at("chosen").at("np");
  for (const json& trial : first) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    EXPECT_EQ(trial.at("params").at("ctx"), "512") << trial.dump();
  }
  for (const json& trial : second) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    EXPECT_EQ(trial.at("stage"), 2);
    EXPECT_EQ(json::array({trial.at("params").at("np")}), best_np) << path.dump(2);
  }
  EXPECT_TRUE(path.at("stages")[1].at("chosen").contains("ctx")) << path.dump(2);
  EXPECT_TRUE(processes_with(marker).empty()) << "llama-server outlived the study";
}

// Issue 37: llama.cpp's server closes each streamed answer's connection first, which leaves
// connections in TIME_WAIT on its port for a minute after it stopped. With a port of each trial's
// own that holds nothing up: no trial waits for it, and nothing warns.
TEST(TuneLlamaServer, TrialsDoNotWaitForTheirServersClosedConnections) {
  const fs::path where = tune_llama_dir();
  if (where.empty()) GTEST_SKIP() << kNoLlamaServer;
  const std::string marker = tune_marker();
  const Study study = run_tune(
      {"--serve", llama_serve(where, "{port}", marker), "--param", "np=1,2", "--param",
       "ctx=256,512", "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker,
       "--prompt", "Tell me a story", "--max-tokens", "8", "-n", "6", "--parallel", "2"},
      300);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 4u) << show(study);
  for (const json& trial : study.ledger) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    expect_time_accounted_for(trial);
  }
  EXPECT_EQ(warning_lines(study.process.err), std::vector<std::string>{}) << study.process.err;
  EXPECT_TRUE(processes_with(marker).empty()) << "llama-server outlived the study";
}

// With the port fixed by --serve, each llama-server binds the port its predecessor left
// connections in TIME_WAIT on. It sets SO_REUSEPORT, so it can at once: nothing waits, nothing
// warns, and every trial is benchmarked.
TEST(TuneLlamaServer, AFixedPortIsBoundAgainAtOnce) {
  const fs::path where = tune_llama_dir();
  if (where.empty()) GTEST_SKIP() << kNoLlamaServer;
  const std::string marker = tune_marker();
  const std::string port = std::to_string(pick_free_port());
  const Study study = run_tune(
      {"--serve", llama_serve(where, port, marker), "--param", "np=1,2", "--param", "ctx=512",
       "--url", "http://127.0.0.1:" + port + "/v1/chat/completions", "--model", marker, "--prompt",
       "Tell me a story", "--max-tokens", "8", "-n", "6", "--parallel", "2"},
      300);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 2u) << show(study);
  for (const json& trial : study.ledger) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    expect_time_accounted_for(trial);
  }
  EXPECT_EQ(warning_lines(study.process.err), std::vector<std::string>{}) << study.process.err;
  EXPECT_EQ(study.summary.at("best").at("server_command_template"),
            study.summary.at("best").at("server_command"))
      << "nothing to leave as {port}";
  EXPECT_TRUE(processes_with(marker).empty()) << "llama-server outlived the study";
}

// --- The learned searches (--strategy tpe:N) with the real Optuna, where python3-optuna is ---

// tpe:3 over the landscape: three configurations benchmarked, the refused and excluded ones
// recorded (and not counted), each configuration drawn at most once, which Python said, and the
// sampler told the refusals: the study ends with the budget, not the 3N cap.
TEST(TuneOptuna, TpeCountsBenchmarksNotRefusalsAndSaysWhichPython) {
  if (python_with_optuna().empty()) GTEST_SKIP() << kNoOptuna;
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--serve",    mock_serve(marker), "--param",
                                   "B=256,512,1024,2048", "--param", "cp=true,false",
                                   "--strategy", "tpe:3",  "--stop-timeout", "5",
                                   "--exclude",  "B==256 and cp==false"};
  const Study study = run_tune(concat(args, landscape_bench(marker, 128)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  EXPECT_NE(study.process.err.find("--strategy tpe:3: Optuna "), std::string::npos) << show(study);
  EXPECT_NE(study.process.err.find(" under /"), std::string::npos) << "which Python ran it";
  int benchmarked = 0;
  std::set<std::string> configurations;
  for (const json& trial : study.ledger) {
    const std::string status = trial.at("status");
    benchmarked += status == "ok" ? 1 : 0;
    EXPECT_TRUE(status == "ok" || status == "start_failed" || status == "excluded")
        << trial.dump();
    if (status != "ok") {
      EXPECT_EQ(trial.at("params").at("cp"), "false") << trial.dump();
    }
    // A drawn excluded configuration is recorded without a server (told infeasible).
    EXPECT_EQ(status == "excluded", trial.at("params").at("B") == "256" &&
                                        trial.at("params").at("cp") == "false")
        << trial.dump();
    if (status == "excluded") {
      EXPECT_FALSE(trial.contains("port")) << trial.dump();
    }
    EXPECT_TRUE(configurations.insert(trial.at("params").dump()).second)
        << "drawn twice: " << trial.dump();
  }
  EXPECT_EQ(benchmarked, 3) << show(study);
  EXPECT_LE(study.ledger.size(), 9u);
  EXPECT_EQ(study.summary.at("study").at("strategy"), "tpe:3");
  EXPECT_NE(study.process.out.find("strategy tpe:3, seed 1"), std::string::npos)
      << study.process.out;
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

// The same seed draws the same configurations; --resume retells the ledger's trials to the
// sampler and draws only the rest of the budget.
TEST(TuneOptuna, ASeedReproducesTheSearchAndResumeRetellsTheLedger) {
  if (python_with_optuna().empty()) GTEST_SKIP() << kNoOptuna;
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--serve", mock_serve(marker), "--param",
                                   "B=256,512,1024,2048", "--param", "cp=true,false",
                                   "--strategy", "tpe:3", "--stop-timeout", "5"};
  const Study first = run_tune(concat(args, landscape_bench(marker, 64)));
  const Study second = run_tune(concat(args, landscape_bench(marker, 64)));
  ASSERT_EQ(first.process.exit_code, 0) << show(first);
  ASSERT_EQ(second.process.exit_code, 0) << show(second);
  const auto labels = [](const Study& study) {
    std::vector<std::string> out;
    for (const json& trial : study.ledger) out.push_back(trial.at("label"));
    return out;
  };
  EXPECT_EQ(labels(first), labels(second)) << show(first) << show(second);

  // Keep the first line of the ledger and resume: it is kept, and three are benchmarked in all.
  std::string kept_line;
  {
    std::ifstream in(first.dir / "study.jsonl");
    std::getline(in, kept_line);
  }
  {
    std::ofstream out(first.dir / "study.jsonl", std::ios::trunc);
    out << kept_line << "\n";
  }
  const Study resumed = load_study(
      run_process({LLMPERF_BIN, "tune", "--resume", first.dir.string()}, kTimeoutS), first.dir);
  ASSERT_EQ(resumed.process.exit_code, 0) << show(resumed);
  EXPECT_NE(resumed.process.out.find("kept from the ledger"), std::string::npos)
      << resumed.process.out;
  ASSERT_FALSE(resumed.ledger.empty());
  EXPECT_EQ(resumed.ledger[0].dump(), json::parse(kept_line).dump());
  int benchmarked = 0;
  std::set<std::string> configurations;
  for (const json& trial : resumed.ledger) {
    benchmarked += trial.at("status") == "ok" ? 1 : 0;
    EXPECT_TRUE(configurations.insert(trial.at("params").dump()).second)
        << "drawn again after --resume: " << trial.dump();
  }
  EXPECT_EQ(benchmarked, 3) << show(resumed);
  EXPECT_TRUE(processes_with(marker).empty());
}

// A Python without Optuna (here: one that skips its site packages) fails before any server
// starts, naming the Python, why, and the package to install.
TEST(TuneOptuna, WithoutOptunaTheErrorNamesThePackage) {
  const std::string dir = make_temp_dir();
  const std::string python = dir + "/python-without-optuna";
  {
    std::ofstream script(python);
    script << "#!/bin/sh\nexec python3 -S \"$@\"\n";
  }
  fs::permissions(python, fs::perms::owner_all);
  const ProcessResult process = run_process(
      {LLMPERF_BIN, "tune", "--study-dir", dir + "/study", "--serve", "never-started {port} {B}",
       "--param", "B=1,2", "--strategy", "tpe:4", "--python", python, "--url",
       "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m", "--prompt", "hi"},
      kTimeoutS);
  EXPECT_EQ(process.exit_code, 2) << process.err;
  EXPECT_NE(process.err.find("no Python here imports it"), std::string::npos) << process.err;
  EXPECT_NE(process.err.find(python + " (" + python + "): ModuleNotFoundError"), std::string::npos)
      << process.err;
  EXPECT_NE(process.err.find("apt-get install python3-optuna"), std::string::npos) << process.err;
  EXPECT_NE(process.err.find("--python PATH"), std::string::npos) << process.err;
  EXPECT_FALSE(fs::exists(dir + "/study/study.jsonl")) << "nothing ran";
}

// CMA-ES models numbers: a word among the parameters is refused before Optuna is even looked for.
TEST(TuneOptuna, CmaesRefusesAWordParameter) {
  const ProcessResult process = run_process(
      {LLMPERF_BIN, "tune", "--serve", "never-started {port} {B} {cp}", "--param", "B=1,2",
       "--param", "cp=true,false", "--strategy", "cmaes:4", "--dry-run", "--url",
       "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m", "--prompt", "hi"},
      kTimeoutS);
  EXPECT_EQ(process.exit_code, 2) << process.err;
  EXPECT_NE(process.err.find("--strategy cmaes: CMA-ES searches numbers only, and --param cp"),
            std::string::npos)
      << process.err;
}

}  // namespace
}  // namespace llmperf::testing

// `llmperf tune --slots` end to end: trials side by side, each in a slot that stands in for GPUs
// (tokens 'a', 'b', 'c' put on the server's command line through {slot} and {gpus}). The ledger's
// start times (milliseconds with --slots) and durations show which trials overlapped, and that no
// two trials at once shared a slot. Ctrl-C and SIGKILL leave no server of any slot, and --resume
// reruns what was running in every slot. Also against llama.cpp's server where it is present.
// The trials' benchmarks run on the slots' threads of one llmperf: ThreadSanitizer runs these
// tests (the "threads" label).
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "llama_server.h"
#include "llmperf_run.h"
#include "test_process.h"
#include "tune_study.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<std::string> kSlotTokens = {"a", "b", "c"};

// The mock, its TTFT a parameter, its model name carrying the marker, {slot} and {gpus}: every
// trial's server command shows the slot it got.
std::string slot_serve(const std::string& marker) {
  return std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker +
         "-{slot}-{gpus} --ttft-ms {t} --itl-ms 5 --output-tokens 16";
}

// The benchmark: its model is the slot's too, so each benchmark talks to its own slot's server.
std::vector<std::string> slot_bench(const std::string& marker, int requests) {
  return {"--url",
          "http://127.0.0.1:{port}/v1/chat/completions",
          "--model",
          marker + "-{slot}-{gpus}",
          "--dataset",
          "random",
          "--input-tokens",
          "50",
          "--output-tokens",
          "16",
          "--parallel",
          "4",
          "-n",
          std::to_string(requests),
          "--seed",
          "1"};
}

// A trial's time in the ledger: from its start (ISO 8601 with milliseconds) for its duration, in
// seconds since the epoch.
struct Span {
  double start = 0;
  double end = 0;
  int slot = -1;
  std::string label;
};

double epoch_seconds(const std::string& iso) {
  std::tm tm{};
  std::istringstream in(iso);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  EXPECT_FALSE(in.fail()) << iso;
  double fraction = 0;
  if (in.peek() == '.') in >> fraction;  // ".123"
  return static_cast<double>(timegm(&tm)) + fraction;
}

std::vector<Span> spans_of(const std::vector<json>& ledger) {
  std::vector<Span> spans;
  for (const json& trial : ledger) {
    if (!trial.contains("duration_s") || !trial.contains("started")) continue;
    Span span;
    span.start = epoch_seconds(trial.at("started").get<std::string>());
    span.end = span.start + trial.at("duration_s").get<double>();
    span.slot = trial.value("slot", -1);
    span.label = trial.value("label", "");
    spans.push_back(span);
  }
  return spans;
}

// Pairs of trials that ran at the same time (beyond the start's millisecond rounding).
int overlapping_pairs(const std::vector<Span>& spans, bool same_slot_only) {
  int pairs = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    for (size_t j = i + 1; j < spans.size(); ++j) {
      if (same_slot_only && spans[i].slot != spans[j].slot) continue;
      const double overlap =
          std::min(spans[i].end, spans[j].end) - std::max(spans[i].start, spans[j].start);
      if (overlap > 0.002) ++pairs;
    }
  }
  return pairs;
}

// Every trial in the ledger ran in a slot of `slots` with that slot's values on its command line,
// no two at once in one slot, and at least two side by side.
void expect_slots_kept(const std::vector<json>& ledger, size_t slots, const std::string& marker) {
  for (const json& trial : ledger) {
    ASSERT_TRUE(trial.contains("slot")) << trial.dump();
    const int slot = trial.at("slot").get<int>();
    ASSERT_GE(slot, 0);
    ASSERT_LT(static_cast<size_t>(slot), slots);
    const std::string expected = marker + "-" + std::to_string(slot) + "-" + kSlotTokens[slot];
    EXPECT_NE(trial.value("server_command", "").find(expected), std::string::npos) << trial.dump();
  }
  const std::vector<Span> spans = spans_of(ledger);
  EXPECT_EQ(overlapping_pairs(spans, true), 0) << "two trials at once in one slot";
  EXPECT_GE(overlapping_pairs(spans, false), 1) << "no two trials ran side by side";
}

TEST(TuneSlots, TrialsRunSideBySideEachInItsOwnSlot) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--slots",          "a;b;c",   "--serve",
                                   slot_serve(marker), "--param", "t=5,40,50,60,70,80"};
  const Study study = run_tune(concat(args, slot_bench(marker, 60)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 6u) << show(study);
  for (const json& trial : study.ledger) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    // The client's own CPU and lateness, and whether it was busy.
    ASSERT_TRUE(trial.contains("client")) << trial.dump();
    EXPECT_GT(trial.at("client").at("cpu_s").get<double>(), 0) << trial.dump();
    EXPECT_TRUE(trial.at("client").at("busy").is_boolean());
  }
  expect_slots_kept(study.ledger, 3, marker);
  // The ports of trials side by side differ.
  std::set<int> ports;
  for (const json& trial : study.ledger) ports.insert(trial.at("port").get<int>());
  EXPECT_EQ(ports.size(), 6u);
  EXPECT_NE(study.process.out.find("Slot"), std::string::npos) << study.process.out;
  EXPECT_EQ(study.summary.at("study").at("spec").at("slots"), "a;b;c");
  EXPECT_EQ(study.summary.at("best").at("label"), "0-5");
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

TEST(TuneSlots, HalvingFillsTheSlotsWithinEachRung) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--slots",   "a;b",         "--strategy",
                                   "halving:2", "--serve",     slot_serve(marker),
                                   "--param",   "t=5,40,80,160"};
  const Study study = run_tune(concat(args, slot_bench(marker, 80)));
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  expect_slots_kept(study.ledger, 2, marker);
  // A rung starts when the one before it has ended.
  std::map<int, std::pair<double, double>> rungs;  // rung -> (first start, last end)
  const std::vector<Span> spans = spans_of(study.ledger);
  ASSERT_EQ(spans.size(), study.ledger.size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const int rung = study.ledger[i].at("rung").get<int>();
    auto [it, fresh] = rungs.emplace(rung, std::make_pair(spans[i].start, spans[i].end));
    if (!fresh) {
      it->second.first = std::min(it->second.first, spans[i].start);
      it->second.second = std::max(it->second.second, spans[i].end);
    }
  }
  ASSERT_GE(rungs.size(), 2u) << show(study);
  for (auto it = std::next(rungs.begin()); it != rungs.end(); ++it) {
    EXPECT_GE(it->second.first + 0.002, std::prev(it)->second.second) << show(study);
  }
  // TTFT 5 ms against 40 (85 ms a request against 120): apart by more than two trials side by
  // side under ThreadSanitizer on a busy machine make them (5 against 10 once swapped there).
  EXPECT_EQ(study.summary.at("best").at("label"), "0-5");
  EXPECT_TRUE(processes_with(marker).empty());
}

// Ctrl-C while two slots benchmark: both servers stop, both trials are recorded interrupted in
// their slots, and --resume runs them again (with the rest).
// A benchmark that throws once its server is ready (a dataset file that is not there) fails its
// own trial, with the reason, while the other slot's trials run to their end.
TEST(TuneSlots, ABenchmarkThatThrowsFailsItsTrialAlone) {
  const std::string marker = tune_marker();
  const fs::path data = fs::path(make_temp_dir());
  for (const char* name : {"a.txt", "c.txt"})
    std::ofstream(data / name) << "hello there\nhow are you\n";
  const std::string missing = (data / "b.txt").string();
  const Study study = run_tune(
      {"--slots", "a;b", "--serve",
       std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker +
           "-{slot} --itl-ms 5 --output-tokens 16",
       "--param",
       "p=" + (data / "a.txt").string() + "," + missing + "," + (data / "c.txt").string(), "--url",
       "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker + "-{slot}", "--dataset",
       "line_by_line", "--dataset-path", "{p}", "--parallel", "2", "-n", "10"});
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 3u) << show(study);
  int ok = 0;
  for (const json& trial : study.ledger) {
    if (trial.at("params").at("p") != missing) {
      EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
      ++ok;
      continue;
    }
    EXPECT_EQ(trial.at("status"), "bench_failed") << trial.dump();
    EXPECT_TRUE(trial.contains("ready_s")) << "its server was ready: " << trial.dump();
    EXPECT_NE(trial.at("reason").get<std::string>().find(missing), std::string::npos)
        << trial.dump();
  }
  EXPECT_EQ(ok, 2);
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

TEST(TuneSlots, CtrlCStopsEverySlotAndResumeRerunsThem) {
  const std::string marker = tune_marker();
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  std::vector<std::string> argv = {LLMPERF_BIN, "tune",     "--study-dir", dir.string(),
                                   "--slots",   "a;b",      "--serve",     slot_serve(marker),
                                   "--param",   "t=5,10,15"};
  argv = concat(argv, slot_bench(marker, 300));
  {
    BackgroundProcess tune(argv);
    ASSERT_TRUE(tune.wait_for_stderr("trial 0-5 (1/3): starting the server", kTimeoutS))
        << tune.stderr_text();
    ASSERT_TRUE(tune.wait_for_stderr("trial 1-10 (2/3): starting the server", kTimeoutS))
        << tune.stderr_text();
    // Both benchmarks under way: two servers of this study are up.
    ASSERT_TRUE(tune.wait_for_stderr(" done, 0 failed", kTimeoutS)) << tune.stderr_text();
    tune.signal(SIGINT);
    EXPECT_EQ(tune.wait(kTimeoutS), 130) << tune.stderr_text();
  }
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived Ctrl-C";
  const std::vector<json> ledger = read_ledger_lines(dir);
  ASSERT_EQ(ledger.size(), 2u);
  std::set<int> slots;
  for (const json& trial : ledger) {
    EXPECT_EQ(trial.at("status"), "interrupted") << trial.dump();
    slots.insert(trial.at("slot").get<int>());
  }
  EXPECT_EQ(slots, (std::set<int>{0, 1}));

  // Resumed: every configuration ends once.
  const Study resumed =
      load_study(run_process({LLMPERF_BIN, "tune", "--resume", dir.string()}, 300), dir);
  ASSERT_EQ(resumed.process.exit_code, 0) << show(resumed);
  std::map<std::string, int> finished;
  for (const json& trial : resumed.ledger) {
    if (trial.at("status") != "interrupted") ++finished[trial.at("label").get<std::string>()];
  }
  EXPECT_EQ(finished, (std::map<std::string, int>{{"0-5", 1}, {"1-10", 1}, {"2-15", 1}}))
      << show(resumed);
  EXPECT_TRUE(processes_with(marker).empty());
}

// llmperf killed with SIGKILL while two slots run: each server's guardian stops it.
TEST(TuneSlots, SigkillLeavesNoServerOfAnySlot) {
  const std::string marker = tune_marker();
  const fs::path dir = fs::path(make_temp_dir()) / "study";
  std::vector<std::string> argv = {LLMPERF_BIN, "tune",  "--study-dir", dir.string(),
                                   "--slots",   "a;b",   "--serve",     slot_serve(marker),
                                   "--param",   "t=5,10"};
  argv = concat(argv, slot_bench(marker, 2000));
  BackgroundProcess tune(argv);
  ASSERT_TRUE(tune.wait_for_stderr("trial 1-10 (2/2): starting the server", kTimeoutS))
      << tune.stderr_text();
  ASSERT_TRUE(tune.wait_for_stderr(" done, 0 failed", kTimeoutS)) << tune.stderr_text();
  EXPECT_EQ(processes_with(marker).size() >= 2, true) << "two servers should be up";
  tune.signal(SIGKILL);
  tune.wait(kTimeoutS);
  // The guardians notice their parent's death and stop their servers (SIGTERM, then gone).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!processes_with(marker).empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // polling a condition, bounded
  }
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived SIGKILL";
  EXPECT_TRUE(read_ledger_lines(dir).empty());  // nothing ended: --resume runs both
}

TEST(TuneSlots, DryRunShowsEachTrialsSlotAndBadSlotsFailBeforeAnyServer) {
  const std::string marker = tune_marker();
  std::vector<std::string> args = {"--dry-run",        "--slots", "a;b",      "--serve",
                                   slot_serve(marker), "--param", "t=5,10,15"};
  const Study dry = run_tune(concat(args, slot_bench(marker, 10)));
  ASSERT_EQ(dry.process.exit_code, 0) << show(dry);
  EXPECT_NE(dry.process.out.find("trial 0  0-5  slot 0 (a)"), std::string::npos) << dry.process.out;
  EXPECT_NE(dry.process.out.find("trial 1  1-10  slot 1 (b)"), std::string::npos);
  EXPECT_NE(dry.process.out.find("trial 2  2-15  slot 0 (a)"), std::string::npos);
  EXPECT_NE(dry.process.out.find("--model " + marker + "-1-b"), std::string::npos);

  const Study shared =
      run_tune(concat({"--slots", "0;0,1", "--serve", slot_serve(marker), "--param", "t=5"},
                      slot_bench(marker, 10)));
  EXPECT_EQ(shared.process.exit_code, 2) << show(shared);
  EXPECT_NE(shared.process.err.find("'0' is in slot 0 and slot 1"), std::string::npos)
      << shared.process.err;
  const Study no_slots =
      run_tune(concat({"--serve", slot_serve(marker), "--param", "t=5"}, slot_bench(marker, 10)));
  EXPECT_EQ(no_slots.process.exit_code, 2) << show(no_slots);
  EXPECT_NE(no_slots.process.err.find("{slot} needs --slots"), std::string::npos)
      << no_slots.process.err;
  EXPECT_TRUE(processes_with(marker).empty());
}

// Slots of GPU ids: each trial's GPU memory is its slot's GPUs' alone, and its GPU count the
// slot's (for output tok/s per GPU), from a stand-in nvidia-smi that answers for three GPUs.
TEST(TuneSlots, EachTrialSamplesAndCountsItsSlotsGpus) {
  const std::string bin = make_temp_dir();
  {
    std::ofstream script(bin + "/nvidia-smi");
    script << "#!/bin/sh\necho '0, 1000, 46068'\necho '1, 2000, 46068'\necho '2, 3000, 46068'\n";
  }
  fs::permissions(bin + "/nvidia-smi", fs::perms::owner_all);
  const std::string dir = make_temp_dir() + "/study";
  const std::string marker = tune_marker();
  const ProcessResult process = run_process(
      concat({"/usr/bin/env", "PATH=" + bin + ":" + std::getenv("PATH"), LLMPERF_BIN, "tune",
              "--study-dir", dir, "--slots", "0;1,2", "--serve",
              std::string(LLMPERF_MOCK_BIN) + " --port {port} --model " + marker + "-{slot}-{gpus}",
              "--param", "a=1,2,3", "--objective", "output_throughput_per_gpu"},
             {"--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model",
              marker + "-{slot}-{gpus}", "--prompt", "hi", "-n", "4"}),
      kTimeoutS);
  ASSERT_EQ(process.exit_code, 0) << process.err;
  const std::vector<json> ledger = read_ledger_lines(dir);
  ASSERT_EQ(ledger.size(), 3u);
  for (const json& trial : ledger) {
    const int slot = trial.at("slot").get<int>();
    EXPECT_NE(trial.at("server_command")
                  .get<std::string>()
                  .find(marker + (slot == 0 ? "-0-0" : "-1-1,2")),
              std::string::npos)
        << trial.dump();
    EXPECT_EQ(trial.at("gpus"), slot == 0 ? 1 : 2) << trial.dump();
    EXPECT_EQ(trial.at("gpu"),
              slot == 0 ? json::parse(R"([{"index":0,"used_mib":1000,"total_mib":46068}])")
                        : json::parse(R"([{"index":1,"used_mib":2000,"total_mib":46068},
                                          {"index":2,"used_mib":3000,"total_mib":46068}])"))
        << trial.dump();
    EXPECT_TRUE(trial.at("metrics").contains("output_throughput_per_gpu")) << trial.dump();
  }
}

// llama.cpp's server in two slots: its -np and -c as parameters, the slot on its --alias.
TEST(TuneSlotsLlamaServer, TwoSlotsOfARealServer) {
  std::string tried;
  const std::optional<fs::path> where = find_llama_server(tried);
  if (!where) {
    GTEST_SKIP() << "llama-server with " << kLlamaModel << " not found (tried " << tried
                 << "; set LLMPERF_LLAMA_SERVER_DIR to its directory)";
  }
  const std::string marker = tune_marker();
  const std::string serve = (*where / "llama-server").string() + " -m " +
                            (*where / kLlamaModel).string() +
                            " --host 127.0.0.1 --port {port} -np {np} -c {ctx} -t 1 --no-webui"
                            " --alias " +
                            marker + "-{slot}-{gpus}";
  const Study study = run_tune({"--slots",      "a;b",
                                "--serve",      serve,
                                "--param",      "np=1,2",
                                "--param",      "ctx=256,512",
                                "--url",        "http://127.0.0.1:{port}/v1/chat/completions",
                                "--model",      marker + "-{slot}-{gpus}",
                                "--prompt",     "Tell me a story",
                                "--max-tokens", "8",
                                "-n",           "6",
                                "--parallel",   "2"},
                               300);
  ASSERT_EQ(study.process.exit_code, 0) << show(study);
  ASSERT_EQ(study.ledger.size(), 4u) << show(study);
  for (const json& trial : study.ledger) {
    EXPECT_EQ(trial.at("status"), "ok") << trial.dump();
    EXPECT_EQ(trial.at("metrics").at("completed").get<double>(), 6) << trial.dump();
  }
  expect_slots_kept(study.ledger, 2, marker);
  EXPECT_TRUE(processes_with(marker).empty()) << "llama-server outlived the study";
}

}  // namespace
}  // namespace llmperf::testing

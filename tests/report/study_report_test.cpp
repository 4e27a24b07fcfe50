// A study's outputs from hand-made ledger records: the line per trial; the closing table's columns
// and rows (failed trials with "-", the GPU column only with GPU figures, each halving
// configuration at its last rung); the reasons; the best configuration (maximize and minimize,
// slo_violated never best, ties to the lower index, halving's deepest rung, a sentence when none
// qualifies); a rerun replacing its interrupted line; the CSV's quoting of a command with commas
// and quotes; the JSON's best and Pareto lists; the Markdown's escaping; and `llmperf report
// STUDYDIR` rebuilding every file byte for byte from study.json and study.jsonl.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/offline/rebuild.h"
#include "report/study/study_files.h"
#include "report/study/study_text.h"
#include "report/tools.h"
#include "study/study_file.h"
#include "study/trial.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

StudyInfo study_report_info() {
  StudyInfo info;
  info.spec.serve =
      "vllm serve q --port {port} --max-num-batched-tokens {mnbt} "
      "--enable-chunked-prefill {cp}";
  info.spec.params = {"cp=true,false", "mnbt=64,512", "pc=flag:--enable-prefix-caching"};
  info.started = "2026-12-01T10:00:00Z";
  info.version = "llmperf 0.1.0";
  info.objective = "output_throughput";
  info.unit = "tok/s";
  info.maximize = true;
  info.strategy = "grid";
  return info;
}

TrialRecord study_trial(int64_t index, const std::string& cp, const std::string& mnbt,
                        TrialStatus status) {
  TrialRecord r;
  r.trial = index;
  r.label = std::to_string(index) + "-" + (cp == "true" ? "enable" : "disable") + "-" + mnbt +
            "-no-enable-prefix-caching";
  r.params = {{"cp", cp}, {"mnbt", mnbt}, {"pc", ""}};
  r.status = status;
  r.server_command = "vllm serve q --port 4100" + std::to_string(index) +
                     " --max-num-batched-tokens " + mnbt + " --enable-chunked-prefill " + cp;
  r.port = 41000 + static_cast<int>(index);
  r.dir = "trial_" + r.label;
  r.started = "2026-12-01T10:0" + std::to_string(index) + ":00Z";
  return r;
}

// The SLO verdict a benchmarked trial's run carries.
std::optional<bool> status_passes(TrialStatus status) { return status == TrialStatus::kOk; }

// Benchmarked: the metrics a driver fills.
void study_metrics(TrialRecord& r, double output, double ttft_p99, double per_user) {
  r.objective = output;
  r.ready_s = 12.25;
  r.duration_s = 80.5;
  r.metrics = {{"ttft.p50", ttft_p99 / 2},
               {"ttft.p99", ttft_p99},
               {"itl.p50", 11.5},
               {"itl.p99", 30},
               {"tpot.p50", 12},
               {"tpot.p99", 25.5},
               {"latency.p50", 900},
               {"latency.p99", 1800},
               {"output_throughput", output},
               {"total_throughput", output * 2},
               {"output_throughput_per_user", per_user},
               {"qps", 3.5},
               {"failed", 0},
               {"completed", 300},
               {"concurrency", 100}};
  r.runs = {{"parallel_100_number_300", output, status_passes(r.status)}};
}

// The study of the field report, in small: two ok trials, a start failure with its log, an SLO
// violation with the highest throughput, one dominated ok trial, an excluded one and one
// interrupted.
std::vector<TrialRecord> study_report_trials() {
  std::vector<TrialRecord> trials;
  TrialRecord t0 = study_trial(0, "true", "64", TrialStatus::kOk);
  study_metrics(t0, 900, 100, 30);
  t0.gpu = {{0, 19344, 46068}, {1, 100, 46068}};
  trials.push_back(t0);
  TrialRecord t1 = study_trial(1, "true", "512", TrialStatus::kOk);
  study_metrics(t1, 1200, 300, 20);
  t1.server_command = R"(sh -c "vllm serve q, --port 41001 --chat-template '{"a": 1}'")";
  trials.push_back(t1);
  TrialRecord t2 = study_trial(2, "false", "64", TrialStatus::kStartFailed);
  t2.reason = "ValueError: max_num_batched_tokens (64) is smaller than max_model_len (2048)";
  t2.log_tail = {"INFO loading <model>", "<script>alert(1)</script>",
                 "ValueError: max_num_batched_tokens (64) is smaller than max_model_len (2048)"};
  t2.server_log = "trial_2/server.log";
  t2.duration_s = 1.5;
  trials.push_back(t2);
  TrialRecord t3 = study_trial(3, "false", "512", TrialStatus::kSloViolated);
  study_metrics(t3, 1500, 2300, 10);
  t3.reason = "ttft.p99 = 2300 ms, limit <= 2000 ms";
  trials.push_back(t3);
  TrialRecord t4 = study_trial(4, "true", "64", TrialStatus::kOk);
  t4.params[2].second = "--enable-prefix-caching";
  t4.label = "4-enable-64-enable-prefix-caching";
  study_metrics(t4, 800, 400, 15);  // dominated by trial 1 on both fronts
  trials.push_back(t4);
  TrialRecord t5 = study_trial(5, "true", "512", TrialStatus::kExcluded);
  t5.reason = "--exclude 'mnbt<128 and cp==false'";
  trials.push_back(t5);
  TrialRecord t6 = study_trial(6, "false", "512", TrialStatus::kInterrupted);
  trials.push_back(t6);
  return trials;
}

// The lines of `text`.
std::vector<std::string> study_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line of `text` that starts with `prefix` ("" when none).
std::string study_line_starting(const std::string& text, const std::string& prefix) {
  for (const std::string& line : study_lines(text)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

// The whitespace-separated cells of a text table's row.
std::vector<std::string> study_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string cell; in >> cell;) cells.push_back(cell);
  return cells;
}

// The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks).
std::vector<std::vector<std::string>> study_parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

std::string study_read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(StudyText, TrialLineSaysIndexLabelParametersStatusObjectiveAndTimes) {
  const StudyInfo info = study_report_info();
  const auto trials = study_report_trials();
  EXPECT_EQ(trial_line(trials[0], info),
            "[0] 0-enable-64-no-enable-prefix-caching cp=true mnbt=64 pc=off: ok, "
            "output_throughput 900 tok/s, 80.5 s (ready in 12.2 s)");
  EXPECT_EQ(
      trial_line(trials[2], info),
      "[2] 2-disable-64-no-enable-prefix-caching cp=false mnbt=64 pc=off: start_failed "
      "(ValueError: max_num_batched_tokens (64) is smaller than max_model_len (2048)), 1.5 s");
  EXPECT_NE(trial_line(trials[4], info).find(" pc=on: ok"), std::string::npos);
  TrialRecord rung = trials[1];
  rung.rung = 2;
  rung.reason = "first line\nsecond line";
  rung.status = TrialStatus::kSloViolated;
  const std::string line = trial_line(rung, info);
  EXPECT_NE(line.find("[1] 1-enable-512-no-enable-prefix-caching rung 2 cp=true"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("slo_violated (first line), output_throughput 1200 tok/s"), std::string::npos)
      << line;
}

TEST(StudyText, TableHasARowPerTrialWithEveryColumn) {
  const std::string text = study_table(study_report_info(), study_report_trials());
  const std::string header = study_line_starting(text, "Trial");
  ASSERT_FALSE(header.empty()) << text;
  const std::vector<std::string> expected = {
      "Trial",   "cp",     "mnbt",  "pc",     "Status", "output_throughput",
      "(tok/s)", "TTFT",   "p50",   "(ms)",   "TTFT",   "p99",
      "(ms)",    "ITL",    "p50",   "(ms)",   "ITL",    "p99",
      "(ms)",    "TPOT",   "p50",   "(ms)",   "TPOT",   "p99",
      "(ms)",    "Output", "tok/s", "Failed", "GPU",    "MiB",
      "(peak)"};
  EXPECT_EQ(study_cells(header), expected) << header;

  EXPECT_EQ(study_cells(study_line_starting(text, "0-enable-64")),
            (std::vector<std::string>{"0-enable-64-no-enable-prefix-caching", "true", "64", "off",
                                      "ok", "900", "50", "100", "11.50", "30", "12", "25.50", "900",
                                      "0", "19444/92136"}));
  // A failed trial: its parameters and status, "-" for every figure.
  EXPECT_EQ(
      study_cells(study_line_starting(text, "2-disable-64")),
      (std::vector<std::string>{"2-disable-64-no-enable-prefix-caching", "false", "64", "off",
                                "start_failed", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"}));
  EXPECT_EQ(study_cells(study_line_starting(text, "4-enable-64"))[3], "on");
  // One row per trial, in index order.
  size_t last = 0;
  for (int i = 0; i <= 6; ++i) {
    const size_t at = text.find("\n" + std::to_string(i) + "-");
    ASSERT_NE(at, std::string::npos) << i;
    EXPECT_GT(at, last) << i;
    last = at;
  }
  EXPECT_NE(text.find("Study: 7 trials (3 ok, 1 excluded, 1 start_failed, 1 slo_violated, 1 "
                      "interrupted); objective output_throughput (tok/s), higher is better; "
                      "strategy grid"),
            std::string::npos)
      << text;
}

TEST(StudyText, NoGpuColumnWithoutGpuFigures) {
  auto trials = study_report_trials();
  for (TrialRecord& t : trials) t.gpu.clear();
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_EQ(text.find("GPU"), std::string::npos) << text;
  EXPECT_EQ(study_cells(study_line_starting(text, "0-enable-64")).size(), 14U);
}

TEST(StudyText, SlotsGetAColumnAndABusyClientIsMarked) {
  auto trials = study_report_trials();
  EXPECT_EQ(study_table(study_report_info(), trials).find("Slot"), std::string::npos);
  for (TrialRecord& t : trials) t.slot = static_cast<int>(t.trial % 2);
  trials[1].client = TrialClient{2.0, 0.95, 12.5, true, "client-bound: ITL stamps late"};
  const std::string text = study_table(study_report_info(), trials);
  const std::vector<std::string> cells = study_cells(study_line_starting(text, trials[1].label));
  ASSERT_GE(cells.size(), 2U);
  EXPECT_EQ(cells[1] + " " + cells[2], "1 *") << text;
  EXPECT_EQ(study_cells(study_line_starting(text, trials[0].label))[1], "0") << text;
  EXPECT_NE(text.find("* the benchmark's client was busy"), std::string::npos) << text;
  EXPECT_NE(trial_line(trials[1], study_report_info()).find(" slot 1 "), std::string::npos);
  EXPECT_NE(trial_line(trials[1], study_report_info()).find("; client busy: client-bound: ITL"),
            std::string::npos);
}

TEST(StudyText, ReasonsOfTheTrialsThatDidNotEndOk) {
  const std::string text = study_table(study_report_info(), study_report_trials());
  const size_t reasons = text.find("\nReasons:\n");
  ASSERT_NE(reasons, std::string::npos) << text;
  const std::string block = text.substr(reasons);
  EXPECT_NE(block.find("  2-disable-64-no-enable-prefix-caching  start_failed: ValueError: "
                       "max_num_batched_tokens (64) is smaller than max_model_len (2048)\n"),
            std::string::npos)
      << block;
  EXPECT_NE(block.find("slo_violated: ttft.p99 = 2300 ms, limit <= 2000 ms"), std::string::npos);
  EXPECT_NE(block.find("excluded: --exclude 'mnbt<128 and cp==false'"), std::string::npos);
  EXPECT_NE(block.find("  6-disable-512-no-enable-prefix-caching  interrupted\n"),
            std::string::npos);
  EXPECT_EQ(block.find("0-enable-64"), std::string::npos) << "an ok trial has no reason";
}

TEST(StudyText, BestIsTheHighestObjectiveAmongOkTrialsNeverAnSloViolation) {
  const std::string text = study_table(study_report_info(), study_report_trials());
  const size_t best = text.find("Best configuration");
  ASSERT_NE(best, std::string::npos) << text;
  EXPECT_EQ(text.substr(best),
            "Best configuration (output_throughput, higher is better): "
            "1-enable-512-no-enable-prefix-caching\n"
            "  parameters: cp=true mnbt=512 pc=off\n"
            "  output_throughput: 1200 tok/s\n"
            "  server command:\n"
            "    sh -c \"vllm serve q, --port 41001 --chat-template '{\"a\": 1}'\"\n");
}

TEST(StudyText, BestOfAMinimizedObjectiveIsTheLowest) {
  StudyInfo info = study_report_info();
  info.objective = "ttft.p99";
  info.unit = "ms";
  info.maximize = false;
  auto trials = study_report_trials();
  for (TrialRecord& t : trials) {
    if (t.metrics.count("ttft.p99")) t.objective = t.metrics["ttft.p99"];
  }
  const std::string text = study_table(info, trials);
  EXPECT_NE(text.find("Best configuration (ttft.p99, lower is better): "
                      "0-enable-64-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  ttft.p99: 100 ms\n"), std::string::npos);
  EXPECT_NE(study_line_starting(text, "Trial").find("ttft.p99 (ms)"), std::string::npos);
}

// Issue 37: the command to paste, {port} left as it is; the command as run stays in the ledger
// and beside it in study_summary.json.
TEST(StudyText, BestServerCommandIsTheOneToPaste) {
  auto trials = study_report_trials();
  trials[1].server_command = "vllm serve q --port 41001 --max-num-batched-tokens 512";
  trials[1].server_command_template = "vllm serve q --port {port} --max-num-batched-tokens 512";
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_NE(text.find("  server command ({port}: the port to serve on):\n"
                      "    vllm serve q --port {port} --max-num-batched-tokens 512\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("41001"), std::string::npos) << text;
  const auto summary = nlohmann::json::parse(study_summary_json(study_report_info(), trials));
  EXPECT_EQ(summary["best"]["server_command_template"],
            "vllm serve q --port {port} --max-num-batched-tokens 512");
  EXPECT_EQ(summary["best"]["server_command"],
            "vllm serve q --port 41001 --max-num-batched-tokens 512");
  EXPECT_NE(study_summary_markdown(study_report_info(), trials)
                .find("The server command (`{port}`: the port to serve on):\n\n```sh\n"
                      "vllm serve q --port {port} --max-num-batched-tokens 512\n```\n"),
            std::string::npos);
  // A port the --url fixed is in the template already: nothing to say about {port}.
  trials[1].server_command_template = "vllm serve q --port 8000 --max-num-batched-tokens 512";
  EXPECT_NE(study_table(study_report_info(), trials)
                .find("  server command:\n    vllm serve q --port 8000 --max-num-batched-tokens "
                      "512\n"),
            std::string::npos);
}

// Item 0 of issue 37: with --search, the objective is each trial's answer, and the headline says
// so and whose figures the table shows.
TEST(StudyText, ASearchObjectiveSaysWhatItIs) {
  StudyInfo info = study_report_info();
  const SearchObjective search = search_objective("rate");
  EXPECT_EQ(search.name, "search.rate");
  EXPECT_EQ(search.unit, "req/s");
  EXPECT_EQ(search_objective("parallel").name, "search.parallel");
  EXPECT_EQ(search_objective("parallel").unit, "concurrency");
  EXPECT_TRUE(is_search_objective("search.parallel"));
  EXPECT_FALSE(is_search_objective("output_throughput"));
  info.objective = search.name;
  info.unit = search.unit;
  auto trials = study_report_trials();
  trials[1].objective = 4000;
  const std::string text = study_table(info, trials);
  EXPECT_NE(text.find("objective search.rate (req/s), higher is better (each trial's --search "
                      "rate answer: the highest rate that met every --slo; the other figures are "
                      "those of the probe at that rate)"),
            std::string::npos)
      << text;
  EXPECT_NE(study_line_starting(text, "Trial").find("search.rate (req/s)"), std::string::npos);
  EXPECT_NE(text.find("  search.rate: 4000 req/s\n"), std::string::npos) << text;
  EXPECT_NE(trial_line(trials[1], info).find(": ok, search.rate 4000 req/s, "), std::string::npos)
      << trial_line(trials[1], info);
  // Any other objective has no such note.
  EXPECT_EQ(study_table(study_report_info(), study_report_trials()).find("--search"),
            std::string::npos);
}

TEST(StudyText, TiesGoToTheLowerIndex) {
  auto trials = study_report_trials();
  trials[4].objective = 1200;       // trial 4 ties trial 1
  std::swap(trials[1], trials[4]);  // and comes first in the ledger
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_NE(text.find("higher is better): 1-enable-512"), std::string::npos) << text;
}

// Issue 39: intervals from --num-runs repeats. Trial 1 leads (1200, [1100, 1300]); trial 0's
// [850, 1250] reaches it, trial 4's [700, 900] does not. Trial 0 has 1 GPU, trial 1 has 2: the
// default tie-break (fewer GPUs) names trial 0, and its per-GPU figures are columns.
std::vector<TrialRecord> tied_trials() {
  auto trials = study_report_trials();
  trials[0].ci95_low = 850;
  trials[0].ci95_high = 1250;
  trials[1].ci95_low = 1100;
  trials[1].ci95_high = 1300;
  trials[4].ci95_low = 700;
  trials[4].ci95_high = 900;
  trials[0].gpus = 1;
  trials[1].gpus = 2;
  trials[0].metrics["output_throughput_per_gpu"] = 900;
  trials[1].metrics["output_throughput_per_gpu"] = 600;
  trials[0].metrics["cost_per_mtok"] = 0.77;
  trials[1].metrics["cost_per_mtok"] = 1.16;
  return trials;
}

TEST(StudyText, TiedWithinNoiseNamesTheTieBreak) {
  const std::string text = study_table(study_report_info(), tied_trials());
  EXPECT_NE(text.find("higher is better): 0-enable-64-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  tied within noise: 0-enable-64-no-enable-prefix-caching, "
                      "1-enable-512-no-enable-prefix-caching (their 95 % intervals of "
                      "output_throughput overlap 1-enable-512-no-enable-prefix-caching's "
                      "[1100, 1300])\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  tie-break gpus:min,gpu_memory:min: 0-enable-64-no-enable-prefix-caching "
                      "(gpus 1), over the leader 1-enable-512-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  for (const char* column : {"95 % CI", "Output tok/s/GPU", "USD/Mtok"}) {
    EXPECT_NE(text.find(column), std::string::npos) << column;
  }
  // Without intervals or GPU counts, none of it.
  const std::string plain = study_table(study_report_info(), study_report_trials());
  for (const char* absent : {"95 % CI", "Output tok/s/GPU", "USD/Mtok", "tied within noise"}) {
    EXPECT_EQ(plain.find(absent), std::string::npos) << absent;
  }
}

TEST(StudyText, NoBestWhenEveryBenchmarkedTrialMissedAnSlo) {
  auto trials = study_report_trials();
  for (TrialRecord& t : trials) {
    if (t.status == TrialStatus::kOk) {
      t.status = TrialStatus::kSloViolated;
      t.reason = "ttft.p99 over 50 ms";
    }
  }
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_NE(text.find("Best configuration (output_throughput, higher is better): none: no trial "
                      "met every --slo (1 excluded, 1 start_failed, 4 slo_violated, 1 "
                      "interrupted); the closest was 3-disable-512-no-enable-prefix-caching "
                      "(output_throughput 1500 tok/s: ttft.p99 = 2300 ms, limit <= 2000 ms).\n"),
            std::string::npos)
      << text;
}

TEST(StudyText, NoBestWhenNoTrialFinishedItsBenchmark) {
  std::vector<TrialRecord> trials = {study_report_trials()[2], study_report_trials()[5]};
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_NE(text.find("none: no trial finished its benchmark (1 excluded, 1 start_failed).\n"),
            std::string::npos)
      << text;
  EXPECT_NE(study_table(study_report_info(), {}).find("none: no trial has finished yet."),
            std::string::npos);
}

// Successive halving over four configurations: 0..3 at rung 0 (30 requests), 1 and 3 promoted to
// rung 1 (90 requests).
std::vector<TrialRecord> study_halving_trials() {
  std::vector<TrialRecord> trials;
  const double rung0[] = {100, 300, 200, 250};
  for (int i = 0; i < 4; ++i) {
    TrialRecord t =
        study_trial(i, i < 2 ? "true" : "false", i % 2 ? "512" : "64", TrialStatus::kOk);
    study_metrics(t, rung0[i], 100, 1);
    trials.push_back(t);
  }
  for (int i : {1, 3}) {
    TrialRecord t = trials[static_cast<size_t>(i)];
    t.rung = 1;
    study_metrics(t, i == 1 ? 280 : 290, 100, 1);
    trials.push_back(t);
  }
  return trials;
}

StudyInfo study_halving_info() {
  StudyInfo info = study_report_info();
  info.strategy = "halving:2";
  info.rungs = {{4, 30, 2}, {2, 90, 0}};
  return info;
}

TEST(StudyText, HalvingShowsEachConfigurationAtItsLastRung) {
  const std::string text = study_table(study_halving_info(), study_halving_trials());
  EXPECT_NE(text.find("Successive halving: rung 0: 4 configurations x 30 requests, 2 promoted; "
                      "rung 1: 2 configurations x 90 requests\n"),
            std::string::npos)
      << text;
  const auto header = study_cells(study_line_starting(text, "Trial"));
  ASSERT_GE(header.size(), 2U);
  EXPECT_EQ(header[1], "Rung");
  const std::pair<const char*, const char*> rows[] = {
      {"0-enable-64", "0"}, {"1-enable-512", "1"}, {"2-disable-64", "0"}, {"3-disable-512", "1"}};
  for (const auto& [label, rung] : rows) {
    const auto cells = study_cells(study_line_starting(text, label));
    ASSERT_GE(cells.size(), 7U) << label;
    EXPECT_EQ(cells[1], rung) << label;
  }
  EXPECT_NE(study_line_starting(text, "1-enable-512").find(" 280 "), std::string::npos);
  // Trial 1 had the best short run (300), but at the full benchmark trial 3 wins.
  EXPECT_NE(text.find("higher is better): 3-disable-512-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  rung: 1\n"), std::string::npos);
}

TEST(StudyText, HalvingFallsBackToAnEarlierRungAndSaysSo) {
  auto trials = study_halving_trials();
  trials[4].status = trials[5].status = TrialStatus::kSloViolated;
  const std::string text = study_table(study_halving_info(), trials);
  EXPECT_NE(text.find("higher is better): 2-disable-64-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  note: measured at rung 0 (30 requests), not the full benchmark: no "
                      "configuration of rung 1 ended ok\n"),
            std::string::npos)
      << text;
}

TEST(StudyText, HalvingStoppedBeforeItsLastRungSaysSo) {
  auto trials = study_halving_trials();
  trials.resize(4);  // rung 0 only: interrupted before rung 1 began
  const std::string text = study_table(study_halving_info(), trials);
  EXPECT_NE(text.find("higher is better): 1-enable-512-no-enable-prefix-caching\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  note: measured at rung 0 (30 requests), not the full benchmark: the "
                      "study did not reach rung 1\n"),
            std::string::npos)
      << text;
}

TEST(StudyText, ARerunReplacesItsInterruptedLine) {
  auto trials = study_report_trials();
  TrialRecord rerun = trials[6];
  rerun.status = TrialStatus::kOk;
  study_metrics(rerun, 2000, 90, 40);
  trials.push_back(rerun);
  const std::string text = study_table(study_report_info(), trials);
  EXPECT_NE(text.find("Study: 7 trials (4 ok,"), std::string::npos) << text;
  EXPECT_NE(text.find("higher is better): 6-disable-512"), std::string::npos) << text;
  EXPECT_EQ(text.find("interrupted"), std::string::npos) << text;
}

class StudyFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_study_files_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
};

TEST_F(StudyFilesTest, CsvQuotesCommasAndQuotesAndHasAColumnPerParameter) {
  const std::string csv = study_summary_csv(study_report_info(), study_report_trials());
  const auto rows = study_parse_csv(csv);
  ASSERT_EQ(rows.size(), 8U) << csv;
  const std::vector<std::string>& header = rows[0];
  ASSERT_GE(header.size(), 9U);
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + 9),
            (std::vector<std::string>{"trial", "label", "rung", "cp", "mnbt", "pc", "status",
                                      "reason", "objective"}));
  EXPECT_EQ(header.back(), "server_command");
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
  const std::vector<std::string>& t1 = rows[2];
  EXPECT_EQ(t1[0], "1");
  EXPECT_EQ(t1[8], "1200");
  EXPECT_EQ(t1.back(), R"(sh -c "vllm serve q, --port 41001 --chat-template '{"a": 1}'")");
  // The raw line: quoted, inner quotes doubled.
  EXPECT_NE(csv.find(R"(,"sh -c ""vllm serve q, --port 41001 --chat-template '{""a"": 1}'""")"),
            std::string::npos)
      << csv;
  EXPECT_EQ(rows[5][5], "--enable-prefix-caching");  // trial 4: the flag's value as it is
  EXPECT_EQ(rows[3][6], "start_failed");
  EXPECT_EQ(rows[3][8], "");  // no objective
}

TEST_F(StudyFilesTest, CsvRenamesAParameterWhoseNameIsAColumn) {
  StudyInfo info = study_report_info();
  info.spec.params = {"status=a,b"};
  TrialRecord t = study_trial(0, "true", "64", TrialStatus::kOk);
  t.params = {{"status", "a"}};
  const auto rows = study_parse_csv(study_summary_csv(info, {t}));
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0][3], "param.status");
  EXPECT_EQ(rows[1][3], "a");
  EXPECT_EQ(rows[1][4], "ok");
}

TEST_F(StudyFilesTest, CsvHasSlotAndClientColumnsOnlyWithSlots) {
  StudyInfo info = study_report_info();
  TrialRecord t = study_trial(0, "true", "64", TrialStatus::kOk);
  const std::string without = study_summary_csv(info, {t});
  EXPECT_EQ(study_parse_csv(without)[0].back(), "server_command");  // as before --slots
  t.slot = 1;
  t.client = TrialClient{2.5, 0.75, 3.0, true, "late"};
  TrialRecord start_failed = study_trial(1, "true", "512", TrialStatus::kStartFailed);
  start_failed.slot = 0;  // no benchmark: no client
  const auto rows = study_parse_csv(study_summary_csv(info, {t, start_failed}));
  ASSERT_EQ(rows.size(), 3U);
  const std::vector<std::string>& header = rows[0];
  ASSERT_GE(header.size(), 4U);
  EXPECT_EQ(std::vector<std::string>(header.end() - 4, header.end()),
            (std::vector<std::string>{"server_command", "slot", "client_cpu_share", "client_busy"}));
  EXPECT_EQ(std::vector<std::string>(rows[1].end() - 3, rows[1].end()),
            (std::vector<std::string>{"1", "0.75", "true"}));
  EXPECT_EQ(std::vector<std::string>(rows[2].end() - 3, rows[2].end()),
            (std::vector<std::string>{"0", "", ""}));
}

TEST_F(StudyFilesTest, JsonHoldsTheBestAndTheParetoFronts) {
  const auto summary =
      nlohmann::json::parse(study_summary_json(study_report_info(), study_report_trials()));
  EXPECT_EQ(summary["schema"], "llmperf.study.summary/1");
  EXPECT_EQ(summary["study"]["schema"], "llmperf.study/1");
  EXPECT_EQ(summary["study"]["objective"]["name"], "output_throughput");
  EXPECT_EQ(summary["best"]["trial"], 1);
  EXPECT_EQ(summary["best"]["label"], "1-enable-512-no-enable-prefix-caching");
  EXPECT_EQ(summary["best"]["objective"], 1200);
  EXPECT_EQ(summary["best"]["params"]["mnbt"], "512");
  EXPECT_EQ(summary["best"]["server_command"],
            R"(sh -c "vllm serve q, --port 41001 --chat-template '{"a": 1}'")");
  EXPECT_FALSE(summary.contains("best_note"));
  // Per user (x) against total (y), both maximized: trial 4 (15, 800) is dominated by trial 1
  // (20, 1200); the slo_violated trial 3 is benchmarked and on the front. By x ascending.
  const auto& per_user = summary["pareto"]["throughput_per_user"];
  EXPECT_EQ(per_user["x"], "output_throughput_per_user");
  EXPECT_EQ(per_user["y"], "output_throughput");
  EXPECT_EQ(per_user["trials"], nlohmann::json({3, 1, 0}));
  EXPECT_EQ(per_user["labels"][0], "3-disable-512-no-enable-prefix-caching");
  // TTFT p99 (x, less is better) against output tok/s: trial 4 (400 ms, 800) is dominated too.
  const auto& latency = summary["pareto"]["ttft_p99"];
  EXPECT_EQ(latency["maximize_x"], false);
  EXPECT_EQ(latency["trials"], nlohmann::json({0, 1, 3}));
  EXPECT_EQ(summary["statuses"]["ok"], 3);
  EXPECT_EQ(summary["statuses"]["start_failed"], 1);
  ASSERT_EQ(summary["trials"].size(), 7U);
  EXPECT_EQ(summary["trials"][2]["log_tail"][1], "<script>alert(1)</script>");
  EXPECT_EQ(summary["trials"][0]["gpu"][0]["used_mib"], 19344);
  EXPECT_TRUE(summary["superseded"].empty());
}

TEST_F(StudyFilesTest, JsonAndCsvHoldTheTiesAndThePerGpuFigures) {
  const auto summary =
      nlohmann::json::parse(study_summary_json(study_report_info(), tied_trials()));
  EXPECT_EQ(summary["best"]["trial"], 0);
  EXPECT_EQ(summary["tied"], nlohmann::json::parse(R"({"by": "repeats", "leader": 1,
      "trials": [0, 1], "labels": ["0-enable-64-no-enable-prefix-caching",
      "1-enable-512-no-enable-prefix-caching"], "tie_break": "gpus:min,gpu_memory:min",
      "decided_by": "gpus", "best": 0})"));
  EXPECT_TRUE(summary["confirm"].is_null());
  // Per user (x: 30, 20) against per GPU (y: 900, 600): trial 0 dominates trial 1.
  EXPECT_EQ(summary["pareto"]["per_gpu_per_user"]["trials"], nlohmann::json::array({0}));
  EXPECT_EQ(summary["trials"][0]["ci95_low"], 850);
  EXPECT_EQ(summary["trials"][0]["gpus"], 1);
  const std::string csv = study_summary_csv(study_report_info(), tied_trials());
  EXPECT_NE(csv.find(",objective,objective_ci95_low,objective_ci95_high,"), std::string::npos);
  EXPECT_NE(csv.find(",900,850,1250,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",900,0.77,"), std::string::npos) << csv;
  const std::string md = study_summary_markdown(study_report_info(), tied_trials());
  EXPECT_NE(md.find("- tied within noise: "), std::string::npos) << md;
  EXPECT_TRUE(nlohmann::json::parse(study_summary_json(study_report_info(), study_report_trials()))
                  ["tied"].is_null());
}

TEST_F(StudyFilesTest, JsonKeepsEarlierRungsAsSuperseded) {
  const auto summary =
      nlohmann::json::parse(study_summary_json(study_halving_info(), study_halving_trials()));
  ASSERT_EQ(summary["trials"].size(), 4U);
  EXPECT_EQ(summary["trials"][1]["rung"], 1);
  ASSERT_EQ(summary["superseded"].size(), 2U);
  EXPECT_EQ(summary["superseded"][0]["trial"], 1);
  EXPECT_EQ(summary["superseded"][0]["rung"], 0);
  EXPECT_EQ(summary["best"]["trial"], 3);
  EXPECT_EQ(summary["study"]["rungs"][0]["configs"], 4);
}

TEST_F(StudyFilesTest, JsonSaysWhyThereIsNoBest) {
  std::vector<TrialRecord> trials = {study_report_trials()[2]};
  const auto summary = nlohmann::json::parse(study_summary_json(study_report_info(), trials));
  EXPECT_TRUE(summary["best"].is_null());
  EXPECT_EQ(summary["best_note"], "no trial finished its benchmark (1 start_failed)");
  EXPECT_TRUE(summary["pareto"]["ttft_p99"]["trials"].empty());
}

TEST_F(StudyFilesTest, MarkdownHasTheTableReasonsAndCommandWithLogTextEscaped) {
  auto trials = study_report_trials();
  trials[2].reason = "<script>alert(1)</script> | `x`";
  const std::string md = study_summary_markdown(study_report_info(), trials);
  EXPECT_EQ(md.rfind("# llmperf tune: output_throughput (tok/s)\n", 0), 0U) << md;
  EXPECT_NE(md.find("| Trial | cp | mnbt | pc | Status |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0-enable-64-no-enable-prefix-caching | true | 64 | off | ok | 900 |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_NE(md.find("start_failed: &lt;script&gt;alert(1)&lt;/script&gt; | \\`x\\`"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find("```sh\nsh -c \"vllm serve q, --port 41001 --chat-template '{\"a\": 1}'\"\n```"),
      std::string::npos)
      << md;
}

TEST_F(StudyFilesTest, WritesEveryFileAndReturnsTheTable) {
  const StudyInfo info = study_report_info();
  const auto trials = study_report_trials();
  const std::string text = write_study_outputs(dir_.string(), info, trials);
  EXPECT_EQ(text, study_table(info, trials));
  for (const char* name :
       {"study_summary.json", "study_summary.csv", "study_summary.md", "study.html"}) {
    EXPECT_TRUE(fs::exists(dir_ / name)) << name;
  }
  EXPECT_EQ(study_read(dir_ / "study_summary.csv"), study_summary_csv(info, trials));
}

TEST_F(StudyFilesTest, ReportRebuildsAStudyDirectoryByteForByte) {
  const StudyInfo info = study_report_info();
  auto trials = study_report_trials();
  // In memory a driver may hold what the ledger cannot keep: it leaves it out either way.
  trials[0].metrics["qps"] = std::numeric_limits<double>::quiet_NaN();
  fs::create_directories(dir_);
  write_study_file(dir_.string(), info);
  {
    std::ofstream ledger(dir_ / "study.jsonl", std::ios::binary);
    for (const TrialRecord& t : trials) ledger << trial_to_json(t) << "\n";
  }
  const std::string live = write_study_outputs(dir_.string(), info, trials);
  const char* names[] = {"study_summary.json", "study_summary.csv", "study_summary.md",
                         "study.html"};
  std::vector<std::string> written;
  for (const char* name : names) {
    written.push_back(study_read(dir_ / name));
    fs::remove(dir_ / name);
  }

  RebuildOptions options;
  options.dir = dir_.string();
  EXPECT_EQ(rebuild_reports(options), live);
  for (size_t i = 0; i < std::size(names); ++i) {
    EXPECT_EQ(study_read(dir_ / names[i]), written[i]) << names[i];
  }
  EXPECT_EQ(written[0].find("nan"), std::string::npos);
}

TEST_F(StudyFilesTest, ReportWarnsOfBadLedgerLines) {
  fs::create_directories(dir_);
  write_study_file(dir_.string(), study_report_info());
  {
    std::ofstream ledger(dir_ / "study.jsonl", std::ios::binary);
    ledger << trial_to_json(study_report_trials()[0]) << "\n{\"schema\": 1}\n";
  }
  RebuildOptions options;
  options.dir = dir_.string();
  const std::string text = rebuild_reports(options);
  EXPECT_EQ(text.rfind("warning: ", 0), 0U) << text;
  EXPECT_NE(text.find("study.jsonl:2:"), std::string::npos) << text;
  EXPECT_NE(text.find("line skipped\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Study: 1 trial (1 ok)"), std::string::npos) << text;
}

}  // namespace
}  // namespace llmperf

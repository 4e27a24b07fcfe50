// `llmperf tune --storage URL --study-name NAME`: two workers on this machine share one learned
// search through Optuna's storage, in an SQLite file and in Debian's PostgreSQL (started by the
// test in a temporary directory with initdb and pg_ctl, stopped at the end whatever happens),
// against llmperf-mock's scheduler model. Checked: the configurations benchmarked across the
// workers are the budget, none ran twice, `llmperf report --storage` rebuilds the combined study
// (its trials and its best), the URL's password is in no output or file, and a database stopped
// mid-study leaves the worker's trials in its ledger with one line that says so.
#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/tune/ports.h"
#include "llmperf_run.h"
#include "loopback_listener.h"
#include "test_process.h"
#include "tune_study.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSharedPassword = "hunter2pw";  // must appear nowhere

bool shared_python_imports(const std::string& modules) {
  return run_process({"/bin/sh", "-c", "/usr/bin/python3 -c 'import " + modules + "' 2>/dev/null"},
                     kTimeoutS)
             .exit_code == 0;
}

// The mock's scheduler model with a budget B and chunked prefill: every configuration starts.
std::vector<std::string> shared_worker_args(const std::string& marker, const fs::path& dir,
                                            const std::string& storage, const std::string& name,
                                            int budget, int requests) {
  return {LLMPERF_BIN, "tune", "--study-dir", dir.string(), "--serve",
          landscape_mock(marker, "--max-num-batched-tokens {B} --enable-chunked-prefill true"),
          "--param", "B=128,256,512,1024,2048", "--strategy", "tpe:" + std::to_string(budget),
          "--storage", storage, "--study-name", name, "--stop-timeout", "5", "--url",
          "http://127.0.0.1:{port}/v1/chat/completions", "--model", marker, "--dataset", "random",
          "--input-tokens", "1000", "--output-tokens", "20", "--parallel", "32", "-n",
          std::to_string(requests), "--seed", "1"};
}

bool shared_benchmarked(const json& trial) {
  const std::string status = trial.at("status");
  return status == "ok" || status == "slo_violated" || status == "bench_failed";
}

// Every file under `dir` that holds `text`.
std::vector<std::string> files_holding(const fs::path& dir, const std::string& text) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    if (read_file(it->path().string()).find(text) != std::string::npos) {
      found.push_back(it->path().string());
    }
  }
  return found;
}

// Debian's PostgreSQL server, run for one test: a cluster made by initdb in a temporary
// directory, listening on 127.0.0.1 at a free port and on a unix socket in that directory, with
// trust authentication (a password in the URL is then never checked, only carried). initdb
// refuses to run as root: as root (CI), the server runs as the `postgres` user Debian's package
// creates, or else `nobody`, through runuser.
class TempPostgres {
 public:
  TempPostgres() {
    bin_ = find_bin();
    if (bin_.empty()) {
      skip_ = "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): "
              "apt-get install postgresql (scripts/setup.sh --test installs it)";
      return;
    }
    if (!shared_python_imports("optuna, psycopg2")) {
      skip_ = "/usr/bin/python3 lacks optuna or psycopg2: apt-get install python3-optuna "
              "python3-psycopg2 (scripts/setup.sh --test installs them)";
      return;
    }
    dir_ = make_temp_dir();
    if (geteuid() == 0) {
      const passwd* user = getpwnam("postgres");
      if (user == nullptr) user = getpwnam("nobody");
      if (user == nullptr) {
        skip_ = "running as root, and neither a postgres nor a nobody user to run initdb as";
        return;
      }
      const std::string runuser =
          fs::exists("/usr/sbin/runuser") ? "/usr/sbin/runuser" : "/sbin/runuser";  // util-linux
      run_as_ = {runuser, "-u", user->pw_name, "--"};
      if (chown(dir_.c_str(), user->pw_uid, user->pw_gid) != 0) {
        error_ = "cannot chown " + dir_;
        return;
      }
    }
    chmod(dir_.c_str(), 0755);
    port_ = pick_free_port();
    const ProcessResult init = run(
        {bin_ + "/initdb", "-D", dir_ + "/data", "-U", "llmperf", "--auth=trust", "--no-sync",
         "-E", "UTF8", "--locale=C"});
    if (init.exit_code != 0) {
      error_ = "initdb failed (exit " + std::to_string(init.exit_code) + "):\n" + init.out + init.err;
      return;
    }
    start();
  }
  ~TempPostgres() { stop(); }
  TempPostgres(const TempPostgres&) = delete;
  TempPostgres& operator=(const TempPostgres&) = delete;

  const std::string& skip_reason() const { return skip_; }
  const std::string& error() const { return error_; }
  std::string url() const {
    return "postgresql://llmperf:" + std::string(kSharedPassword) + "@127.0.0.1:" +
           std::to_string(port_) + "/postgres";
  }
  std::string redacted_url() const {
    return "postgresql://llmperf:***@127.0.0.1:" + std::to_string(port_) + "/postgres";
  }

  void start() {
    const ProcessResult started =
        run({bin_ + "/pg_ctl", "-D", dir_ + "/data", "-l", dir_ + "/server.log", "-w", "-t", "60",
             "-o",
             "-p " + std::to_string(port_) + " -k " + dir_ +
                 " -c listen_addresses=127.0.0.1 -c fsync=off",
             "start"});
    running_ = started.exit_code == 0;
    if (!running_) error_ = "pg_ctl start failed:\n" + started.out + started.err + log();
  }
  void stop() {
    if (!running_) return;
    run({bin_ + "/pg_ctl", "-D", dir_ + "/data", "-m", "fast", "-w", "-t", "60", "stop"});
    running_ = false;
  }
  std::string log() const { return read_file(dir_ + "/server.log"); }

 private:
  static std::string find_bin() {
    std::string best;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
      const std::string bin = (entry.path() / "bin").string();
      if (fs::exists(bin + "/initdb") && fs::exists(bin + "/pg_ctl") && bin > best) best = bin;
    }
    return best;
  }
  ProcessResult run(std::vector<std::string> argv) const {
    argv.insert(argv.begin(), run_as_.begin(), run_as_.end());
    return run_process(argv, kTimeoutS, dir_);
  }

  std::string bin_;
  std::string dir_;
  std::vector<std::string> run_as_;
  int port_ = 0;
  bool running_ = false;
  std::string skip_;
  std::string error_;
};

struct SharedWorkerRun {
  fs::path dir;
  ProcessResult process;
  std::vector<json> ledger;
};

std::string shared_show(const std::vector<SharedWorkerRun>& workers) {
  std::string text;
  for (const SharedWorkerRun& worker : workers) {
    text += "== " + worker.dir.string() + ": exit " + std::to_string(worker.process.exit_code) +
            "\nstdout:\n" + worker.process.out + "\nstderr:\n" + worker.process.err + "ledger:\n";
    for (const json& line : worker.ledger) text += line.dump() + "\n";
  }
  return text;
}

// Two workers at once against `storage`, then the combined study from the storage alone.
void two_workers_share_one_study(const std::string& storage, const std::string& redacted) {
  const std::string marker = tune_marker();
  const fs::path root = make_temp_dir();
  const std::string name = "shared-" + marker;
  constexpr int kBudget = 4;
  std::vector<SharedWorkerRun> workers(2);
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers.size(); ++w) {
    workers[w].dir = root / ("worker" + std::to_string(w));
    threads.emplace_back([&, w] {
      workers[w].process = run_process(
          shared_worker_args(marker, workers[w].dir, storage, name, kBudget, 64), 300);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (SharedWorkerRun& worker : workers) worker.ledger = read_ledger_lines(worker.dir);
  const std::string shown = shared_show(workers);

  int benchmarked = 0;
  std::set<std::string> configurations;
  std::set<int64_t> indices;
  std::optional<double> best;
  size_t lines = 0;
  for (const SharedWorkerRun& worker : workers) {
    EXPECT_EQ(worker.process.exit_code, 0) << shown;
    EXPECT_NE(worker.process.err.find("shared study '" + name + "' in " + redacted),
              std::string::npos)
        << shown;
    for (const json& trial : worker.ledger) {
      ++lines;
      benchmarked += shared_benchmarked(trial) ? 1 : 0;
      EXPECT_TRUE(configurations.insert(trial.at("params").dump()).second)
          << "ran twice: " << trial.dump() << "\n" << shown;
      EXPECT_TRUE(indices.insert(trial.at("trial").get<int64_t>()).second)
          << "one index for two trials: " << trial.dump();
      if (trial.at("status") == "ok" && (!best || trial.at("objective").get<double>() > *best)) {
        best = trial.at("objective").get<double>();
      }
    }
  }
  EXPECT_EQ(benchmarked, kBudget) << shown;
  ASSERT_TRUE(best) << shown;

  const fs::path combined = root / "combined";
  const ProcessResult report =
      run_process({LLMPERF_BIN, "report", "--storage", storage, "--study-name", name,
                   "--outputs-dir", combined.string()},
                  kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const std::vector<json> ledger = read_ledger_lines(combined);
  EXPECT_EQ(ledger.size(), lines) << report.out << shown;
  const json summary = json::parse(read_file((combined / "study_summary.json").string()));
  EXPECT_DOUBLE_EQ(summary.at("best").at("objective").get<double>(), *best) << summary.dump(1);
  EXPECT_EQ(summary.at("study").at("spec").at("study_name"), name);
  EXPECT_TRUE(fs::exists(combined / "study.html"));
  EXPECT_NE(report.out.find("Best configuration"), std::string::npos) << report.out;

  // The password: in no output and no file.
  for (const SharedWorkerRun& worker : workers) {
    EXPECT_EQ(worker.process.out.find(kSharedPassword), std::string::npos) << shown;
    EXPECT_EQ(worker.process.err.find(kSharedPassword), std::string::npos) << shown;
  }
  EXPECT_EQ(report.out.find(kSharedPassword), std::string::npos);
  EXPECT_EQ(report.err.find(kSharedPassword), std::string::npos) << report.err;
  EXPECT_EQ(files_holding(root, kSharedPassword), std::vector<std::string>{});
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

TEST(TuneShared, TwoWorkersShareAnSqliteStudy) {
  if (python_with_optuna().empty()) GTEST_SKIP() << kNoOptuna;
  const std::string db = make_temp_dir() + "/study.db";
  two_workers_share_one_study("sqlite:///" + db, "sqlite:///" + db);
}

TEST(TuneShared, TwoWorkersShareAPostgresqlStudy) {
  TempPostgres postgres;
  if (!postgres.skip_reason().empty()) GTEST_SKIP() << postgres.skip_reason();
  ASSERT_EQ(postgres.error(), "");
  two_workers_share_one_study(postgres.url(), postgres.redacted_url());
  EXPECT_EQ(postgres.log().find(kSharedPassword), std::string::npos);
}

// The database stopped while a worker runs: it says so in one line naming the storage (without
// its password), stops asking, and ends (exit 1) with its trials in its ledger and its tables.
TEST(TuneShared, ADatabaseStoppedMidStudyLeavesTheTrialsInTheLedger) {
  TempPostgres postgres;
  if (!postgres.skip_reason().empty()) GTEST_SKIP() << postgres.skip_reason();
  ASSERT_EQ(postgres.error(), "");
  const std::string marker = tune_marker();
  const fs::path dir = fs::path(make_temp_dir()) / "worker";
  BackgroundProcess worker(
      shared_worker_args(marker, dir, postgres.url(), "gone-" + marker, 5, 256));
  // Stop the database once the first trial is in the ledger.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (read_ledger_lines(dir).empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(read_ledger_lines(dir).empty()) << worker.stderr_text();
  postgres.stop();
  const int code = worker.wait(180);
  const std::string err = worker.stderr_text();
  EXPECT_EQ(code, 1) << err;
  const std::string line = "the shared study's storage " + postgres.redacted_url() + " failed (";
  EXPECT_NE(err.find(line), std::string::npos) << err;
  EXPECT_NE(err.find("this worker stops asking"), std::string::npos) << err;
  const std::vector<json> ledger = read_ledger_lines(dir);
  EXPECT_GE(ledger.size(), 1u) << err;
  EXPECT_LT(ledger.size(), 5u) << "it stopped asking";
  EXPECT_TRUE(fs::exists(dir / "study_summary.json")) << err;
  EXPECT_EQ(err.find(kSharedPassword), std::string::npos) << err;
  EXPECT_EQ(files_holding(dir, kSharedPassword), std::vector<std::string>{});
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

// A PostgreSQL storage at an address that accepts connections and never answers (a hung server, a
// proxy with nothing behind it): the worker ends with the connect timeout's error, in seconds.
// Before, it waited the Optuna bridge's 10-minute limit on an answer, ten times the connect
// attempt for a race between workers, and said nothing until then.
TEST(TuneShared, AStorageThatNeverAnswersFailsWithinSeconds) {
  if (!shared_python_imports("optuna, psycopg2")) {
    GTEST_SKIP() << "/usr/bin/python3 lacks optuna or psycopg2: apt-get install python3-optuna "
                    "python3-psycopg2 (scripts/setup.sh --test installs them)";
  }
  // Listening, never accepting: the kernel completes each connection, nothing ever answers it.
  int port = 0;
  const int listener = listen_on_loopback(port);
  ASSERT_GE(listener, 0);
  const std::string storage = "postgresql://llmperf:" + std::string(kSharedPassword) +
                              "@127.0.0.1:" + std::to_string(port) + "/db";
  const std::string marker = tune_marker();
  const fs::path dir = fs::path(make_temp_dir()) / "worker";
  // 60 s: the connect timeout (10 s) and the bridge's start, with room for a loaded machine (ten
  // connect attempts would take 100 s).
  const ProcessResult run =
      run_process(shared_worker_args(marker, dir, storage, "silent", 2, 16), 60);
  close(listener);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("timeout expired"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("cannot open the shared study"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(kSharedPassword), std::string::npos) << run.err;
  EXPECT_TRUE(processes_with(marker).empty()) << "a server outlived the study";
}

// --resume gives the storage the ledger's trials it lacks (here: a new database, as after one
// that went away), which then count toward the shared budget; study.json keeps a password as ***,
// so --storage must be given again.
TEST(TuneShared, ResumeGivesTheStorageTheTrialsItLacks) {
  if (python_with_optuna().empty()) GTEST_SKIP() << kNoOptuna;
  const std::string marker = tune_marker();
  const fs::path root = make_temp_dir();
  const fs::path dir = root / "worker";
  const std::string first = "sqlite:///" + (root / "first.db").string();
  const std::string second = "sqlite:///" + (root / "second.db").string();
  const ProcessResult ran =
      run_process(shared_worker_args(marker, dir, first, "resumed", 2, 64), 300);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const std::vector<json> ledger = read_ledger_lines(dir);
  ASSERT_EQ(ledger.size(), 2u) << ran.err;

  // study.json as a study with a password in its URL leaves it.
  json study = json::parse(read_file((dir / "study.json").string()));
  study["spec"]["storage"] = "postgresql://u:***@127.0.0.1:1/db";
  std::ofstream((dir / "study.json").string()) << study.dump(2) << "\n";
  const ProcessResult refused =
      run_process({LLMPERF_BIN, "tune", "--resume", dir.string()}, kTimeoutS);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("give --storage URL again with --resume"), std::string::npos)
      << refused.err;

  const ProcessResult resumed = run_process(
      {LLMPERF_BIN, "tune", "--resume", dir.string(), "--storage", second}, 300);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(read_ledger_lines(dir).size(), 2u) << "the budget was spent: " << resumed.err;
  const fs::path combined = root / "combined";
  const ProcessResult report =
      run_process({LLMPERF_BIN, "report", "--storage", second, "--study-name", "resumed",
                   "--outputs-dir", combined.string()},
                  kTimeoutS);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  std::set<std::string> labels;
  for (const json& trial : read_ledger_lines(combined)) labels.insert(trial.at("label"));
  EXPECT_EQ(labels, (std::set<std::string>{ledger[0].at("label"), ledger[1].at("label")}))
      << report.out;
}

// A strategy that lists its configurations up front is refused with --storage, so is a staged
// study, and a bad URL is refused before anything starts, without its password.
TEST(TuneShared, GridAndBadUrlsAreRefused) {
  const ProcessResult grid = run_process(
      {LLMPERF_BIN, "tune", "--serve", "never-started {port} {B}", "--param", "B=1,2",
       "--storage", "sqlite:///x.db", "--study-name", "s", "--dry-run", "--url",
       "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m", "--prompt", "hi"},
      kTimeoutS);
  EXPECT_EQ(grid.exit_code, 2) << grid.err;
  EXPECT_NE(grid.err.find("--storage is for the learned searches"), std::string::npos) << grid.err;
  const ProcessResult bad = run_process(
      {LLMPERF_BIN, "tune", "--serve", "never-started {port} {B}", "--param", "B=1,2",
       "--strategy", "tpe:2", "--storage", std::string("postgres://u:") + kSharedPassword + "@h/db",
       "--study-name", "s", "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model",
       "m", "--prompt", "hi"},
      kTimeoutS);
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--storage 'postgres://u:***@h/db': write postgresql://"),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(bad.err.find(kSharedPassword), std::string::npos) << bad.err;
  const ProcessResult staged = run_process(
      {LLMPERF_BIN, "tune", "--serve", "never-started {port} {B}", "--stage", "B=1,2",
       "--strategy", "tpe:2", "--storage", "sqlite:///x.db", "--study-name", "s", "--dry-run",
       "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", "m", "--prompt", "hi"},
      kTimeoutS);
  EXPECT_EQ(staged.exit_code, 2) << staged.err;
  EXPECT_NE(staged.err.find("a staged study (--stage) cannot be shared"), std::string::npos)
      << staged.err;
}

}  // namespace
}  // namespace llmperf::testing

// One trial: templates, the server's start and readiness, the benchmark runs, the stop, and the
// record. The order of the checks decides the status: a benchmark flag that does not parse for
// this configuration fails the trial before its server starts; a server that exits or never gets
// ready is never benchmarked.
#include "app/tune/trial_runner.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/benchmark.h"
#include "app/signals.h"
#include "app/tune/gpu_sampler.h"
#include "app/tune/objectives.h"
#include "app/tune/ports.h"
#include "app/tune/server_log.h"
#include "app/tune/server_process.h"
#include "core/clock.h"
#include "metrics/catalogue.h"
#include "metrics/stats/confidence.h"
#include "study/gpu_cost.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

constexpr size_t kLogTailLines = 20;

// scheme://host:port of a URL, and its host and port (-1 when the URL names none).
struct UrlParts {
  std::string base;  // "http://127.0.0.1:8000"
  std::string host;
  int port = -1;            // the port it names, else its scheme's (80, 443)
  bool port_named = false;  // the URL names its port ("http://x:8000/", not "http://x/")
};

UrlParts url_parts(const std::string& url) {
  UrlParts parts;
  CURLU* handle = curl_url();
  if (handle == nullptr) return parts;
  if (curl_url_set(handle, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    char* scheme = nullptr;
    char* host = nullptr;
    char* port = nullptr;
    curl_url_get(handle, CURLUPART_SCHEME, &scheme, 0);
    curl_url_get(handle, CURLUPART_HOST, &host, 0);
    parts.port_named = curl_url_get(handle, CURLUPART_PORT, &port, 0) == CURLUE_OK;
    if (port == nullptr) curl_url_get(handle, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
    if (scheme != nullptr && host != nullptr) {
      parts.host = host;
      parts.port = port != nullptr ? std::atoi(port) : -1;
      parts.base = fmt::format("{}://{}{}", scheme, host,
                               port != nullptr ? fmt::format(":{}", port) : "");
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
  }
  curl_url_cleanup(handle);
  return parts;
}

size_t discard_reply(char*, size_t size, size_t count, void*) { return size * count; }

// POSTs `url` with an empty body; the HTTP status, 0 when none came.
long post_empty(const std::string& url) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return 0;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard_reply);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30'000L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
  long status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  return status;
}

// Resets the server's prefix cache between two runs: --between-cmd when given, else vLLM's
// POST /reset_prefix_cache or SGLang's POST /flush_cache, whichever the server offers. Returns
// what was done, for the log.
std::string reset_between_runs(const StudySpec& spec, const TemplateValues& values,
                               const std::string& base_url) {
  if (!spec.between_cmd.empty()) {
    const std::string command = substitute(spec.between_cmd, values, "--between-cmd");
    const int status = std::system(command.c_str());
    return fmt::format("--between-cmd exited with status {}", status);
  }
  if (!spec.reset_cache) return "no cache reset (--no-reset-cache)";
  for (const char* path : {"/reset_prefix_cache", "/flush_cache"}) {
    const long status = post_empty(base_url + path);
    if (status >= 200 && status < 300) return fmt::format("POST {} answered {}", path, status);
  }
  return "the server offers no cache reset (POST /reset_prefix_cache, /flush_cache)";
}

// The record's view of one summary: the values the study tables show.
void fill_metrics(const RunResult& run, std::map<std::string, double>& metrics) {
  for (const KeyFigure& figure : study_figures()) {
    const std::string name = figure_name(figure);
    if (const auto value = metric_value(parse_metric(name, "metric"), run.summary)) {
      metrics[name] = *value;
    }
  }
  // The server's own view (its /metrics against llmperf's counts), where it exports one.
  for (const char* name : {"token_mismatch", "request_mismatch"}) {
    if (const auto value = metric_value(parse_metric(name, "metric"), run.summary)) {
      metrics[std::string("server.") + name] = *value;
    }
  }
  metrics["failed"] = static_cast<double>(run.summary.failed);
  metrics["completed"] = static_cast<double>(run.summary.succeeded);
  metrics["concurrency"] = run.info.parallel;
  if (const auto it = metrics.find("output_throughput"); it != metrics.end() && run.info.parallel > 0) {
    metrics["output_throughput_per_user"] = it->second / run.info.parallel;
  }
}

// One benchmark of a trial: its runs' objectives and the run that stands for it (the best run
// that met every --slo, else the best run).
struct BenchOutcome {
  std::vector<TrialRun> runs;
  const RunResult* chosen = nullptr;
  std::optional<double> objective;
  bool passed = false;  // the chosen run met every --slo
  std::string unmet;    // --search without an answer: why (the chosen run is the lowest probe)
};

// Output tok/s per GPU and the cost per million output tokens (study/gpu_cost.h), from the
// record's GPU count and --gpu-hour-cost.
void add_gpu_figures(TrialRecord& record, const StudySpec& spec) {
  const auto output = record.metrics.find("output_throughput");
  if (!record.gpus || output == record.metrics.end()) return;
  if (const auto per_gpu = throughput_per_gpu(output->second, *record.gpus)) {
    record.metrics[std::string(kPerGpuMetric)] = *per_gpu;
  }
  if (const auto cost = cost_per_mtok(output->second, *record.gpus, spec.gpu_hour_cost)) {
    record.metrics[std::string(kCostPerMtokMetric)] = *cost;
  }
}

BenchOutcome judge(const BenchmarkResult& result, const Objective& objective,
                   std::optional<int> gpus, const StudySpec& spec) {
  BenchOutcome out;
  const RunResult* best_passing = nullptr;
  const RunResult* best_any = nullptr;
  std::optional<double> passing_value;
  std::optional<double> any_value;
  const auto better = [&](double a, const std::optional<double>& b) {
    return !b || (objective.maximize ? a > *b : a < *b);
  };
  for (const RunResult& run : result.runs) {
    TrialRun entry;
    entry.name = fs::path(run.info.output_dir).filename().string();
    entry.objective = run.summary.succeeded > 0
                          ? objective_value(objective, metric_value(objective.metric, run.summary),
                                            gpus, spec)
                          : std::nullopt;
    if (!run.verdict.results.empty()) entry.passed_slo = run.verdict.passed();
    out.runs.push_back(entry);
    if (!entry.objective) continue;
    if (better(*entry.objective, any_value)) {
      any_value = entry.objective;
      best_any = &run;
    }
    if (run.verdict.passed() && better(*entry.objective, passing_value)) {
      passing_value = entry.objective;
      best_passing = &run;
    }
  }
  out.chosen = best_passing != nullptr ? best_passing : best_any;
  out.objective = best_passing != nullptr ? passing_value : any_value;
  out.passed = best_passing != nullptr;
  if (out.chosen == nullptr && !result.runs.empty()) out.chosen = &result.runs.back();
  return out;
}

// Why a benchmark measured nothing usable: its failures, by kind, with the first message.
std::string failure_reason(const RunResult& run) {
  std::string reason = fmt::format("all {} requests failed", run.summary.total);
  if (!run.summary.failure_examples.empty()) {
    const auto& [kind, example] = *run.summary.failure_examples.begin();
    reason += fmt::format(" ({}: {})", kind, example);
  }
  return reason;
}

// The first --slo that the chosen run violated, as the reason of slo_violated.
std::string slo_reason(const RunResult& run) {
  for (const auto& [slo, outcome] : run.verdict.results) {
    if (!outcome.passed) return fmt::format("--slo '{}': {}", slo.expression, outcome.text);
  }
  return "an --slo was violated";
}

// A --search benchmark: its answer (the highest value whose probe met every --slo) is the
// objective, and the probe that found it gives the metrics. Without an answer, the lowest value
// tried stands for it and `unmet` says why. The probes are judged as the search judged them (a
// probe stopped early fails); they ran in the order of the runs.
BenchOutcome judge_search(const BenchmarkResult& result, const SearchOutcome& search) {
  BenchOutcome out;
  std::optional<size_t> lowest;
  for (size_t i = 0; i < result.runs.size() && i < search.probes.size(); ++i) {
    const SearchProbe& probe = search.probes[i];
    TrialRun entry;
    entry.name = fs::path(result.runs[i].info.output_dir).filename().string();
    entry.objective = probe.value;
    entry.passed_slo = probe.passed;
    out.runs.push_back(entry);
    if (search.best && probe.passed && probe.value == *search.best) {
      out.chosen = &result.runs[i];
      out.objective = search.best;
      out.passed = true;
    }
    if (!lowest || probe.value < search.probes[*lowest].value) lowest = i;
  }
  if (out.chosen != nullptr || !lowest) return out;
  const RunResult& run = result.runs[*lowest];
  out.chosen = &run;
  out.unmet = fmt::format("--search: no value met every --slo; the lowest tried, {:g}, {}",
                          search.probes[*lowest].value,
                          run.info.stopped_early ? "stopped early" : "failed " + slo_reason(run));
  return out;
}

// The client's health over a trial's runs (--slots): its worker threads' CPU, its worst lateness
// and whether some run was client-bound or late on a busy machine (metrics/client_health.h's
// judgements, as each run's text gives them). None when no run measured it.
std::optional<TrialClient> client_of(const std::vector<BenchmarkResult>& results) {
  std::optional<TrialClient> client;
  for (const BenchmarkResult& result : results) {
    for (const RunResult& run : result.runs) {
      const ClientHealth& health = run.summary.client;
      if (!health.measured) continue;
      if (!client) client.emplace();
      client->cpu_s += health.cpu_s;
      client->cpu_share = std::max(client->cpu_share, health.cpu_utilization);
      client->lateness_p99_ms = std::max({client->lateness_p99_ms, health.stamp_delay.p99_ns / 1e6,
                                          health.client_lag.p99_ns / 1e6});
      if (client->busy || !(health.client_bound || health.machine_busy)) continue;
      client->busy = true;
      const std::vector<std::string>& why =
          health.client_bound ? health.warnings : health.machine_warnings;
      client->why = !why.empty()          ? why.front()
                    : health.client_bound ? "the client was the bottleneck"
                                          : "the machine was busy";
      // Whose load it mostly was, when the study's own other trials weighed most.
      const MachineLoad& machine = health.machine;
      if (machine.side_by_side_runs > 0 && machine.side_by_side_cpu_s > machine.others_cpu_s) {
        client->why = "mostly the study's other slots' benchmarks: " + client->why;
      }
    }
  }
  return client;
}

// Now as ISO 8601 with milliseconds: with --slots, the ledger's start times show which trials
// overlapped.
std::string wall_clock_ms_text() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", text, static_cast<int>(ms.count()));
}

// How many times a trial's server is started on a port of its own that another process took.
constexpr int kPortAttempts = 3;

// Gives a leased port back when the trial ends, on every path.
struct PortRelease {
  PortLeases* leases = nullptr;
  int port = 0;
  ~PortRelease() {
    if (leases != nullptr && port > 0) leases->release(port);
  }
};

void set_status(TrialRecord& record, TrialStatus status, std::string reason) {
  record.status = status;
  record.reason = std::move(reason);
}

}  // namespace

TemplateValues template_values(const TrialSpec& trial, const std::string& port,
                               const std::string& outdir) {
  TemplateValues values = {{"port", port}, {"trial", std::to_string(trial.index)}, {"outdir", outdir}};
  if (trial.slot) {
    values.emplace_back("slot", std::to_string(trial.slot->index));
    values.emplace_back("gpus", trial.slot->slot.gpus());
  }
  values.insert(values.end(), trial.params.begin(), trial.params.end());
  return values;
}

std::vector<std::string> trial_bench_args(const std::vector<std::string>& bench_args,
                                          const TemplateValues& values,
                                          const std::string& outputs_dir) {
  std::vector<std::string> args;
  for (size_t i = 0; i < bench_args.size(); ++i) {
    const std::string& arg = bench_args[i];
    if (arg == "--outputs-dir") {
      ++i;  // and its value: the trial's directory takes its place
      continue;
    }
    if (arg.rfind("--outputs-dir=", 0) == 0 || arg == "--no-timestamp") continue;
    args.push_back(substitute(arg, values, fmt::format("benchmark argument '{}'", arg)));
  }
  args.insert(args.end(), {"--outputs-dir", outputs_dir, "--no-timestamp"});
  return args;
}

std::string shell_join(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& arg : args) {
    if (!out.empty()) out += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_./:=,@%+") == std::string::npos;
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (const char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

namespace {

// run_trial's steps, filling `record` as they go.
TrialRecord run_trial_steps(const TrialContext& context, const TrialSpec& trial,
                            TrialRecord& record) {
  const StudySpec& spec = *context.spec;
  record.trial = trial.index;
  record.label = trial.label;
  record.rung = trial.rung;
  record.params = trial.params;
  record.dir = trial.dir;
  record.started =
      trial.slot ? wall_clock_ms_text() : wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
  std::optional<std::vector<int>> slot_gpus;  // the slot's GPU ids, when its items are
  if (trial.slot) {
    record.slot = trial.slot->index;
    slot_gpus = trial.slot->slot.gpu_ids();
  }
  const int64_t started_ns = now_ns();
  const auto finish = [&](TrialStatus status, std::string reason) {
    set_status(record, status, std::move(reason));
    record.duration_s = static_cast<double>(now_ns() - started_ns) / 1e9;
    return record;
  };

  const fs::path outdir = fs::absolute(fs::path(context.study_dir) / trial.dir);
  std::error_code ec;
  fs::create_directories(outdir, ec);
  if (ec) return finish(TrialStatus::kBenchFailed, "cannot create " + outdir.string() + ": " + ec.message());
  const fs::path log_path = outdir / "server.log";
  record.server_log = (fs::path(trial.dir) / "server.log").string();

  // The templates, and the benchmark's flags for this configuration, for the trial's port, then
  // its server, until it is ready. A port of the trial's own that another process bound first
  // (ports.h: picking one is racy) gets the server started again on another.
  int port = 0;
  PortRelease lease{context.ports};
  std::vector<std::string> args;
  Config config;
  UrlParts url;
  std::unique_ptr<ServerProcess> server;
  ReadyResult ready;
  for (int attempt = 1;; ++attempt) {
    std::string stop_command;
    try {
      if (lease.port > 0) context.ports->release(std::exchange(lease.port, 0));
      port = context.ports != nullptr ? context.ports->lease() : pick_free_port();
      if (context.ports != nullptr) lease.port = port;
      record.port = port;
      const TemplateValues values = template_values(trial, std::to_string(port), outdir.string());
      record.server_command = substitute(spec.serve, values, "--serve");
      if (!spec.gpus_per_trial.empty()) {
        record.gpus = gpu_count(substitute(spec.gpus_per_trial, values, "--gpus-per-trial"));
      } else if (slot_gpus) {
        record.gpus = static_cast<int>(slot_gpus->size());  // the slot's own count
      }
      if (!spec.stop_cmd.empty()) stop_command = substitute(spec.stop_cmd, values, "--stop-cmd");
      args = trial_bench_args(spec.bench_args, values, (outdir / "bench").string());
      record.bench_args = args;
      config = context.parse_bench_flags(args, nullptr);
    } catch (const std::exception& error) {
      return finish(TrialStatus::kBenchFailed, error.what());
    }
    if (trial.requests > 0 && !config.load.number.empty()) {  // a halving rung: shorter runs
      const int64_t longest =
          *std::max_element(config.load.number.begin(), config.load.number.end());
      for (int64_t& n : config.load.number) {
        n = std::max<int64_t>(1, n * trial.requests / std::max<int64_t>(1, longest));
      }
    }
    url = url_parts(config.target.url);
    // The --url names {port} when it names the port picked for this trial; a port it names
    // otherwise is fixed by the user, and the server's command binds that one.
    const bool own_port = url.port <= 0 || url.port == port;
    // The command to paste: the port as the user gave it ({port} or the --url's), the rest as
    // run. (The same names as the command that ran: it cannot throw.)
    record.server_command_template = substitute(
        spec.serve,
        template_values(trial, url.port_named && !own_port ? std::to_string(url.port) : "{port}",
                        outdir.string()),
        "--serve");

    ServerSpec server_spec;
    server_spec.command = record.server_command;
    server_spec.stop_command = stop_command;
    server_spec.log_path = log_path.string();
    server_spec.host = url.host.empty() ? "127.0.0.1" : url.host;
    server_spec.port = own_port ? port : url.port;
    server_spec.fixed_port = !own_port;
    server_spec.stop_timeout_ms = seconds_to_ms(spec.stop_timeout_s);
    try {
      server = std::make_unique<ServerProcess>(server_spec);
    } catch (const std::exception& error) {
      return finish(TrialStatus::kStartFailed, error.what());
    }

    ReadyOptions ready_options;
    ready_options.timeout_ms = seconds_to_ms(spec.ready_timeout_s);
    ready_options.interrupted = [] { return interrupt_requested(); };
    ready = server->wait_ready(ready_options);
    if (ready.outcome != ReadyOutcome::kExited || !own_port || attempt == kPortAttempts ||
        !log_says_port_taken(log_path.string(), port)) {
      break;
    }
    server->stop();
    spdlog::info("trial {}: port {} was taken before its server bound it ({}); starting it again "
                 "on another port",
                 trial.label, port, ready.reason);
  }
  const auto stop_server = [&] { record.stop_s = server->stop().elapsed_s; };
  const auto stop_with_tail = [&](TrialStatus status, std::string reason) {
    stop_server();
    record.log_tail = log_tail(log_path.string(), kLogTailLines);
    return finish(status, std::move(reason));
  };
  switch (ready.outcome) {
    case ReadyOutcome::kReady:
      record.ready_s = ready.elapsed_s;
      break;
    case ReadyOutcome::kExited:
      return stop_with_tail(TrialStatus::kStartFailed, ready.reason);
    case ReadyOutcome::kTimedOut:
      return stop_with_tail(TrialStatus::kReadyTimeout, ready.reason);
    case ReadyOutcome::kInterrupted:
      return stop_with_tail(TrialStatus::kInterrupted, "interrupted while the server started");
  }

  // The benchmark, --num-runs times on this server.
  GpuSamplerOptions gpu_options;
  if (slot_gpus) gpu_options.gpu_ids = *slot_gpus;  // this slot's GPUs only
  GpuSampler gpu(gpu_options);
  std::vector<BenchmarkResult> results;
  std::vector<BenchOutcome> outcomes;
  std::string bench_error;
  const TemplateValues values = template_values(trial, std::to_string(port), outdir.string());
  const int64_t bench_start_ns = now_ns();
  for (int r = 0; r < spec.num_runs && !interrupt_requested(); ++r) {
    Config run_config = config;
    if (spec.num_runs > 1) {
      run_config.output.outputs_dir = (outdir / fmt::format("bench_run_{}", r)).string();
      if (r > 0) spdlog::info("trial {}: {}", trial.label, reset_between_runs(spec, values, url.base));
    }
    try {
      results.push_back(run_benchmark(run_config));
    } catch (const std::exception& error) {  // std::bad_alloc too
      bench_error = error.what();
      break;
    } catch (...) {
      bench_error = "the benchmark failed: an exception that is not a std::exception";
      break;
    }
    if (results.back().probe_failed || results.back().interrupted) break;
  }
  record.bench_s = static_cast<double>(now_ns() - bench_start_ns) / 1e9;
  record.gpu = gpu.stop();
  if (trial.slot) record.client = client_of(results);
  const std::optional<int> server_exit = server->exit_code();
  stop_server();

  for (const BenchmarkResult& result : results) {
    outcomes.push_back(result.search ? judge_search(result, *result.search)
                                     : judge(result, *context.objective, record.gpus, spec));
  }
  for (const BenchOutcome& outcome : outcomes) {
    record.runs.insert(record.runs.end(), outcome.runs.begin(), outcome.runs.end());
  }
  if (interrupt_requested() || (!results.empty() && results.back().interrupted)) {
    return finish(TrialStatus::kInterrupted, "interrupted during the benchmark");
  }
  if (server_exit) {
    record.log_tail = log_tail(log_path.string(), kLogTailLines);
    const std::string line = first_error_line(log_path.string());
    return finish(TrialStatus::kBenchFailed,
                  fmt::format("the server exited (status {}) during the benchmark{}", *server_exit,
                              line.empty() ? "" : ": " + line));
  }
  if (!bench_error.empty()) return finish(TrialStatus::kBenchFailed, bench_error);
  if (results.empty() || results.back().probe_failed) {
    return finish(TrialStatus::kBenchFailed,
                  "the benchmark's start-up probe failed (see the trial's bench/ directory)");
  }

  // The median repeat stands for the trial; its chosen run gives the metrics.
  std::vector<size_t> order;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].objective) order.push_back(i);
  }
  if (order.empty()) {
    const BenchOutcome& last = outcomes.back();
    if (!last.unmet.empty() && last.chosen->summary.succeeded > 0) {
      fill_metrics(*last.chosen, record.metrics);
      add_gpu_figures(record, spec);
      return finish(TrialStatus::kSloViolated, last.unmet);
    }
    return finish(TrialStatus::kBenchFailed,
                  last.chosen != nullptr ? failure_reason(*last.chosen) : "the benchmark ran no run");
  }
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return *outcomes[a].objective < *outcomes[b].objective; });
  const BenchOutcome& median = outcomes[order[(order.size() - 1) / 2]];
  record.objective = median.objective;
  fill_metrics(*median.chosen, record.metrics);
  add_gpu_figures(record, spec);
  if (context.objectives != nullptr) {
    record_objective_values(record, *median.chosen, *context.objectives, spec);
  }
  if (order.size() > 1) {
    record.metrics["objective.min"] = *outcomes[order.front()].objective;
    record.metrics["objective.max"] = *outcomes[order.back()].objective;
    // Each repeat's objective and the 95 % interval of their mean (Student t over the repeats,
    // as `llmperf --num-runs` gives its figures): best.h ties the overlapping ones.
    for (const BenchOutcome& outcome : outcomes) {
      if (outcome.objective) record.repeats.push_back(*outcome.objective);
    }
    const MeanInterval interval = mean_interval(record.repeats);
    record.ci95_low = interval.ci95_low;
    record.ci95_high = interval.ci95_high;
  }
  if (!median.passed) return finish(TrialStatus::kSloViolated, slo_reason(*median.chosen));
  return finish(TrialStatus::kOk, "");
}

}  // namespace

TrialRecord run_trial(const TrialContext& context, const TrialSpec& trial) {
  // Whatever escapes a step (a std::bad_alloc, an exception of no std type, from the benchmark or
  // from recording it) fails this trial alone: with --slots the other slots' trials go on, and
  // the study records this one with its reason. The server, if it started, was stopped as the
  // exception left the steps (ServerProcess's destructor).
  TrialRecord record;
  const int64_t started_ns = now_ns();
  const auto failed = [&](std::string reason) {
    set_status(record, TrialStatus::kBenchFailed, std::move(reason));
    record.duration_s = static_cast<double>(now_ns() - started_ns) / 1e9;
    return record;
  };
  try {
    return run_trial_steps(context, trial, record);
  } catch (const std::exception& error) {
    return failed(fmt::format("the trial failed: {}", error.what()));
  } catch (...) {
    return failed("the trial failed: an exception that is not a std::exception");
  }
}

}  // namespace llmperf

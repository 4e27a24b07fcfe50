// A benchmark as a function (see benchmark.h).
#include "app/benchmark.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <thread>

#include "app/baseline_db.h"
#include "core/clock.h"
#include "core/files.h"
#include "core/text.h"
#include "engine/engine.h"
#include "plan/run_plan.h"
#include "app/progress.h"
#include "app/protocol_check.h"
#include "app/results_db.h"
#include "app/server_watch.h"
#include "engine/schedule.h"
#include "app/signals.h"
#include "engine/worker_threads.h"
#include "app/push_gateway.h"
#include "http/curl_transport.h"
#include "metrics/client_health.h"
#include "metrics/metrics.h"
#include "prepare/prompt_source.h"
#include "report/report.h"
#include "report/run_control.h"
#include "server/server_identity.h"
#include "server/side_channel.h"
#include "store/evalscope_db.h"
#include "verdict/baseline.h"
#include "verdict/history_baseline.h"
#include "report/history/history_baseline_text.h"
#include "verdict/early_stop.h"
#include "verdict/repeats.h"
#include "verdict/search.h"
#include "verdict/slo.h"
#include "workload/dataset.h"
#include "workload/request_builder.h"

namespace llmperf {
namespace {

// Sleeps up to `seconds`, waking early when the user interrupts.
void interruptible_sleep(double seconds) {
  const int64_t until = now_ns() + static_cast<int64_t>(seconds * 1e9);
  while (now_ns() < until && interrupt_count().load() == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// Explains a failed probe; returns true when the run should not proceed.
bool probe_blocks_run(const Config& config, const RequestRecord& probe) {
  if (probe.ok()) {
    spdlog::info("probe request succeeded: HTTP {}, {} output tokens in {:.3f} s",
                 probe.http_status, probe.output_tokens,
                 static_cast<double>(probe.end_ns - probe.sent_ns) / 1e9);
    return false;
  }
  switch (probe.error) {
    case ErrorKind::kConnectRefused:
      spdlog::error(
          "cannot connect to {}: connection refused. Is the server running and listening "
          "on that host and port?",
          url_without_userinfo(config.url));
      return true;
    case ErrorKind::kResolve:
    case ErrorKind::kConnectTimeout:
      spdlog::error("cannot reach {}: {}", url_without_userinfo(config.url), probe.error_message);
      return true;
    case ErrorKind::kHttp:
      if (probe.http_status >= 400 && probe.http_status < 500 && probe.http_status != 429) {
        spdlog::error(
            "the server rejected the probe request ({}). Check --url, --model, "
            "--api-key and the request options.",
            probe.error_message);
        return true;
      }
      break;
    default:
      break;
  }
  spdlog::warn("probe request failed ({}: {}); running anyway, failures will be recorded",
               failure_kind_name(probe.error, probe.http_status), probe.error_message);
  return false;
}

// Before any request: the longest request the sweep plans against the server's context length
// (its identity endpoints', else its tokenize API's). Refuses with std::invalid_argument (a usage
// error: exit code 2) when it cannot fit, or only warns with --allow-truncation.
void check_context(const Config& config, const PromptSource& source, const ServerIdentity& server) {
  ContextLength context{server.max_model_len, server.max_model_len_source};
  if (context.tokens <= 0) context = source.tokenize_context();
  const std::optional<PlannedLength> longest = source.longest_request();
  if (!longest) return;
  const std::optional<std::string> overflow = context_overflow(*longest, context);
  if (!overflow) return;
  if (!config.allow_truncation) {
    throw std::invalid_argument(fmt::format(
        "{}. Ask for shorter requests, or give the server a longer context (llama.cpp: -c is "
        "shared by the --parallel slots); --allow-truncation runs anyway",
        *overflow));
  }
  spdlog::warn(
      "{}; running anyway (--allow-truncation): the Lengths block and the length_miss "
      "figure will show what the server did",
      *overflow);
}

// Everything one invocation shares across its runs, and the runs' results.
class Benchmark {
 public:
  Benchmark(const Config& config, const BenchmarkPlan& plan, const RequestSettings& settings,
            PromptSource& source, const RequestBuilder& builder, ServerWatch& server,
            const BenchmarkOptions& options)
      : config_(config),
        plan_(plan),
        report_(report_options(config, plan.resolved)),
        settings_(settings),
        source_(source),
        builder_(builder),
        server_(server),
        options_(options) {
    for (const std::string& expression : config.slo) slos_.push_back(parse_slo(expression));
    // --search rate: a probe passes only when the server kept up with the rate asked. Otherwise a
    // probe whose requests queued could pass on the latencies of the few it served.
    if (config.search == "rate") {
      slos_.push_back(
          parse_slo(fmt::format("rate_sustained>={:g}%", 100 - config.rate_tolerance_pct)));
    }
    metrics_options_.percentiles = config.percentiles;
    metrics_options_.goodput = parse_goodput(config.goodput);
    metrics_options_.output_forced = config.ignore_eos.value_or(false);
    metrics_options_.url_count = config.urls.size();
    metrics_options_.include_cancelled = config.include_cancelled;
    if (!config.baseline_path.empty()) {
      const BaselineSource baseline = parse_baseline_source(config.baseline_path);
      if (baseline.history) {
        history_db_ = baseline.path;  // read after each run (app/baseline_db.h)
      } else {
        baseline_ = load_baseline(baseline.path);
      }
    }
    stop_rules_ = early_stop_rules(config);
    result_.sweep_dir = plan.sweep_dir;
    if (!config.results_db.empty()) results_db_.emplace(config, result_.sweep_dir);
    if (config.shards > 1) {
      run_id_ = benchmark_run_id(config, plan.resolved);
      spdlog::info("shard {} of {} ({}), benchmark {}: this process sends one request in {}, "
                   "from id {}",
                   config.shard, config.shards, config.shard_source, run_id_, config.shards,
                   config.shard);
    }
  }

  // Runs every (parallel, number, rate) of the sweep in order.
  void run_sweep() {
    const std::vector<Config::RunSpec>& runs = plan_.runs;
    for (size_t i = 0; i < runs.size() && !result_.interrupted; ++i) {
      if (result_.stop_aborted) {
        spdlog::warn("--on-stop abort: the {} remaining run(s) are skipped", runs.size() - i);
        break;
      }
      if (i > 0 && !pause_between_runs()) break;
      const std::string title = fmt::format("run {}/{}", i + 1, runs.size());
      if (config_.num_runs <= 1) {
        run_one(runs[i], i, title);
      } else {
        run_repeats(runs[i], i, title);
      }
    }
  }

  // --search: bisection over parallel or rate, each probe a full run judged by the SLOs.
  void run_search() {
    const bool by_rate = config_.search == "rate";
    const Config::RunSpec base = plan_.runs.front();
    SearchSpec spec;
    spec.lo = config_.search_range[0];
    spec.hi = config_.search_range[1];
    spec.integer = !by_rate;
    spec.relative_precision = config_.search_precision_pct / 100;
    spec.doubling = config_.search_doubling;
    int probes = 0;
    const SearchOutcome outcome = bisect_search(spec, [&](double value) -> std::optional<bool> {
      if (probes > 0 && !pause_between_runs()) return std::nullopt;
      Config::RunSpec run = base;
      if (by_rate) {
        run.rate = value;
      } else {
        run.parallel = static_cast<int>(value);
      }
      if (config_.search_number_multiplier > 0) {  // EvalScope: requests grow with the value
        run.number = std::max<int64_t>(1, std::llround(value * config_.search_number_multiplier));
      }
      const bool passed =
          run_one(run, static_cast<size_t>(probes), fmt::format("search probe {}", probes + 1));
      ++probes;
      if (result_.interrupted || result_.stop_aborted) return std::nullopt;
      return passed && !result_.runs.back().info.stopped_early;  // a stopped probe fails
    });
    if (!result_.stop_aborted) result_.stopped_early = 0;
    result_.search_text = render_search(outcome, by_rate, result_.runs);
    result_.search = outcome;
    // Failing probes are how the search finds its bound; only "nothing passes" is a violation.
    result_.slo_failures = outcome.best ? 0 : 1;
    write_file_atomic((std::filesystem::path(result_.sweep_dir) / "search_summary.md").string(),
                      result_.search_text);
  }

  // Writes what covers all runs (the sweep table's files, --junit) and hands the result over.
  BenchmarkResult finish() && {
    if (!result_.runs.empty()) write_sweep_outputs(result_.sweep_dir, sweep_rows(result_));
    if (!result_.repeated.empty()) write_repeats_sweep_outputs(result_.sweep_dir, result_.repeated);
    if (!config_.junit_path.empty()) {
      // A repeated run is one test case, judged on its interval; its repeats are not.
      std::vector<RunVerdict> verdicts;
      std::vector<HistoryComparison> history;  // --baseline db: (never for repeats)
      size_t next = 0;
      for (size_t i = 0; i < result_.runs.size(); ++i) {
        if (next < result_.repeated.size() && i == result_.repeated[next].first_run) {
          verdicts.push_back(result_.repeated[next].verdict);
          i += result_.repeated[next++].count - 1;
          continue;
        }
        verdicts.push_back(result_.runs[i].verdict);
        if (result_.runs[i].history_baseline) history.push_back(*result_.runs[i].history_baseline);
      }
      write_file_atomic(config_.junit_path, render_junit(verdicts, history));
      spdlog::info("JUnit verdicts written to {}", config_.junit_path);
    }
    result_.interrupted = result_.interrupted || interrupt_count().load() > 0;
    return std::move(result_);
  }

 private:
  // One full run: load, summary, files, verdicts. Returns whether it met every SLO.
  bool run_one(const Config::RunSpec& spec, size_t index, const std::string& title) {
    const std::vector<Prompt>& prompts = source_.prepare(spec, index);
    const RunPlan run =
        plan_run(config_, spec, {source_.trace_schedule(), source_.sessions()}, result_.sweep_dir);
    const LoadPlan& plan = run.load;
    RunInfo info;
    info.parallel = run.parallel;
    info.number = run.number;
    info.rate = spec.rate;
    info.input_tokens = spec.input_tokens;
    info.output_tokens = spec.output_tokens;
    info.ramp = config_.ramp_up;
    info.output_dir = run.output_dir;
    if (repeat_ > 0) {  // --num-runs: each repeat is a run directory of its own
      info.output_dir = (std::filesystem::path(run.output_dir) / fmt::format("repeat_{}", repeat_))
                            .string();
    }
    info.dataset = source_.dataset();
    info.workload = source_.workload();
    info.server = server_.identity();
    info.shard = {config_.shard, config_.shards, config_.shard_source, run_id_, false, {}};
    wait_for_start_at();
    info.started_at = wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
    info.anchor_steady_ns = now_ns();
    info.anchor_unix_ns = unix_now_ns();
    const char* unit = plan.sessions != nullptr ? "conversations" : "requests";
    spdlog::info("{}: {}, {} {}{}{}", title, run.label, spec.number, unit,
                 plan.warmup > 0 ? fmt::format(" after {} warm-up", plan.warmup) : "",
                 plan.sessions != nullptr ? fmt::format(" ({} turns)", run.requests) : "");
    const double rate = spec.rate;
    // Each finished request is written to requests.jsonl and folded into the summary as it
    // arrives, then dropped: memory holds a compact row per request, not the records.
    metrics_options_.open_loop = rate > 0;
    metrics_options_.rate_segments = config_.ramp_up.on() ? kRampSegments : 0;
    metrics_options_.origin_ns = info.anchor_steady_ns;
    SummaryBuilder summary_builder(metrics_options_);
    const ReportOptions& report = report_;
    RecordsFile records_file(report, info);
    // benchmark_data.db, EvalScope's per-request database, fed beside requests.jsonl.
    EvalScopeDb evalscope(info.output_dir.empty() ? "." : info.output_dir, report.secrets);
    const int64_t unix_offset_ns = info.anchor_unix_ns - info.anchor_steady_ns;
    ClientTotals client_totals;  // warm-up included: the server counts it too
    client_totals.shard_of_benchmark = config_.shards > 1;
    RunResult run_result;
    EarlyStopMonitor monitor(stop_rules_, &plan.schedule_ns, plan.duration_ns);
    std::atomic<int> early_stop{0};
    StopControl stop{&interrupt_count()};
    stop.early_stop = &early_stop;
    std::unique_ptr<LivePusher> pusher;  // --push-gateway
    auto sink = [&](std::span<RequestRecord> records) {
      if (pusher) pusher->add(records);
      for (RequestRecord& record : records) {
        records_file.append(record);
        evalscope.add(record, unix_offset_ns);
        summary_builder.add(record);
        client_totals.add(record);
        if (monitor.active()) monitor.add(record);
        if (options_.keep_records) run_result.records.push_back(std::move(record));
      }
      records_file.flush();
      // Early stops: judged here, on the collector thread, once per batch of records.
      if (monitor.active() && early_stop.load(std::memory_order_relaxed) == 0) {
        if (const auto& decision = monitor.check(now_ns() - info.anchor_steady_ns)) {
          early_stop.store(1, std::memory_order_relaxed);
          spdlog::warn("{}: stopping early ({}): {}", run.label, decision->reason,
                       decision->detail);
        }
      }
    };
    server_.begin_run(info.output_dir, info.anchor_steady_ns);
    LoadProgress progress;
    if (!config_.push_gateway.empty()) pusher = make_pusher(info, progress);
    LoadResult load;
    {
      ProgressDisplay display(progress, run.requests, run.label, config_.log_every_n_query);
      load = run_load(settings_, plan, prompts, builder_, &progress,
                        stop, sink);
    }
    if (pusher) info.push_gateway = pusher->finish();
    ServerSummary server_summary = server_.end_run(client_totals);
    records_file.commit();
    evalscope.commit();
    info.duration_s = static_cast<double>(load.end_ns - load.start_ns) / 1e9;
    info.stopped_early = monitor.decision();
    // An early stop ends the run through the interrupt's path; only a signal makes it interrupted.
    info.interrupted = load.interrupted && (!info.stopped_early || interrupt_count().load() > 0);
    result_.interrupted = result_.interrupted || info.interrupted;
    if (info.stopped_early) {
      ++result_.stopped_early;
      if (config_.on_stop == "abort") result_.stop_aborted = true;
    }

    RunTrace trace;
    run_result.info = std::move(info);
    run_result.summary = summary_builder.finish(&trace);
    const RunSummary& measured = run_result.summary;
    ClientHealthInput health;
    health.stamp_delay_ns = std::move(load.stamp_delay_ns);
    health.cpu_s = load.cpu_s;
    health.wall_s = run_result.info.duration_s;
    health.threads = run.workers.threads;
    health.usable_cores = usable_cores();
    health.client_lag_ns = rate > 0 ? &measured.open_loop.client_lag_ns : nullptr;
    health.measured = {rate > 0 ? 1e9 / rate : 0, &measured.ttft_ns, &measured.itl_ns,
                       &measured.latency_ns};
    health.machine = load.machine;
    run_result.summary.client = assess_client_health(health, config_.percentiles);
    run_result.summary.client.threads_reason = run.workers.reason;
    run_result.summary.server = std::move(server_summary);
    warn_http_version_fallback(config_, run_result.summary);

    const RunVerdict verdict = evaluate_slos(run.name, slos_, run_result.summary);
    for (const auto& [slo, outcome] : verdict.results) {
      run_result.info.slo.push_back({slo.expression, outcome.passed, outcome.text});
    }
    std::string text = render_text_summary(report, run_result.info, run_result.summary);
    text += render_load_text(run_result.info, run_result.summary, config_.arrival);
    text += render_server_text(run_result.info, run_result.summary);
    text += render_verdicts_text(run_result.summary, verdict);
    if (baseline_ && repeat_ == 0) {  // repeats are judged together, on intervals
      run_result.baseline =
          compare_to_baseline(*baseline_, run_result.summary, parse_tolerance(config_.tolerance));
      text += render_baseline_table(*run_result.baseline);
      if (run_result.baseline->regressed()) ++result_.regressions;
    }
    if (!history_db_.empty() && repeat_ == 0) judge_against_history_db(run, report, run_result, text);
    text += render_length_warning(run_result.info, run_result.summary);
    text += render_stopped_early_text(run_result.info);
    if (run_result.info.push_gateway) text += render_push_gateway_text(*run_result.info.push_gateway);
    write_run_outputs(report, run_result.info, run_result.summary, trace, records_file.vllm_arrays());
    spdlog::info("results written to {}", run_result.info.output_dir);
    const bool passed = verdict.passed();
    if (!passed && repeat_ == 0) ++result_.slo_failures;  // repeats: judged on the interval
    run_result.verdict = verdict;
    run_result.text = std::move(text);
    // --results-db: after its files and verdicts, so a database that fails loses nothing else.
    if (results_db_ && !results_db_->append(report, run_result)) ++result_.results_db_failures;
    result_.runs.push_back(std::move(run_result));
    if (options_.on_run) options_.on_run(result_.runs.back());
    return passed;
  }

  // --push-gateway: the run's pusher, grouped by --name (else the model) and the run's directory
  // under --outputs-dir as its run id.
  std::unique_ptr<LivePusher> make_pusher(const RunInfo& info, const LoadProgress& progress) {
    PushGatewayOptions push;
    push.url = config_.push_gateway;
    push.interval_s = config_.push_interval_s;
    push.insecure = config_.insecure;
    push.cacert = config_.cacert;
    push.labels = {
        {"name", config_.name.empty() ? plan_.resolved.model : config_.name},
        {"run_id", std::filesystem::path(info.output_dir)
                       .lexically_relative(config_.outputs_dir.empty() ? "." : config_.outputs_dir)
                       .string()},
    };
    // The run's --tags, but for those named as the grouping key's own labels (job, name, run_id).
    for (const auto& [key, value] : config_.tags) {
      if (key != "job" && key != "name" && key != "run_id") push.labels.emplace_back(key, value);
    }
    return std::make_unique<LivePusher>(std::move(push), progress);
  }

  // --baseline db:FILE: this run against the last --baseline-runs comparable runs of the history,
  // before its own files are written (so a --results-db on the same file cannot hold it yet).
  void judge_against_history_db(const RunPlan& run, const ReportOptions& report,
                                RunResult& run_result, std::string& text) {
    HistoryBaselineOptions options;
    options.runs = config_.baseline_runs;
    options.k = config_.noise_k;
    HistoryRunKey key;
    key.name = config_.name;
    key.run_label = run.name;
    for (const auto& tag : config_.tags) {  // but those --baseline-ignore-tag leaves out
      if (std::find(config_.baseline_ignore_tags.begin(), config_.baseline_ignore_tags.end(),
                    tag.first) == config_.baseline_ignore_tags.end()) {
        key.tags.push_back(tag);
      }
    }
    key.started_unix = static_cast<double>(run_result.info.anchor_unix_ns) / 1e9;
    run_result.history_baseline = compare_run_to_history(
        history_db_, options, key, run_figures(report, run_result.info, run_result.summary));
    text += render_history_baseline(*run_result.history_baseline);
    if (run_result.history_baseline->regressed()) ++result_.regressions;
  }

  // --num-runs: the run K times, each into <run dir>/repeat_<k>, with --sleep-interval between;
  // then <run dir>/summary.json (the last repeat's, with "repeats") and the interval verdict.
  void run_repeats(const Config::RunSpec& spec, size_t index, const std::string& title) {
    const size_t first = result_.runs.size();
    for (int k = 1; k <= config_.num_runs && !result_.interrupted && !result_.stop_aborted; ++k) {
      if (k > 1 && !pause_between_runs()) break;
      repeat_ = k;
      run_one(spec, index, fmt::format("{}, repeat {}/{}", title, k, config_.num_runs));
    }
    repeat_ = 0;
    const size_t count = result_.runs.size() - first;
    if (count < 2) return;  // interrupted: nothing to compare
    std::vector<KeyMetrics> keys;
    for (size_t j = first; j < result_.runs.size(); ++j) {
      keys.push_back(key_metrics(result_.runs[j].summary));
    }
    const std::vector<RepeatedMetric> metrics = repeated_metrics(keys);
    const RunResult& last = result_.runs.back();
    const std::string dir =
        std::filesystem::path(last.info.output_dir).parent_path().string();
    const std::string name = dir.substr(dir.find_last_of('/') + 1);
    // --slo on the interval of the repeats: the verdict of the run, in its summary.json and JUnit.
    std::vector<const RunSummary*> summaries;
    for (size_t j = first; j < result_.runs.size(); ++j) summaries.push_back(&result_.runs[j].summary);
    RepeatedRun repeated{name, dir, first, count, metrics,
                         evaluate_slos_on_repeats(name, slos_, summaries)};
    RunInfo info = last.info;
    info.slo.clear();
    for (const auto& [slo, outcome] : repeated.verdict.results) {
      info.slo.push_back({slo.expression, outcome.passed, outcome.text});
    }
    write_repeats_summary(report_, dir, {info, last.summary}, metrics);
    std::string text = render_repeats_text(name, count, metrics);
    if (!slos_.empty()) {
      text += "\nSLOs on the 95 % interval of the repeats (violated only when the whole interval "
              "misses the limit)\n";
      text += render_verdicts_text(RunSummary{}, repeated.verdict);
      if (!repeated.verdict.passed()) ++result_.slo_failures;
    }
    result_.repeated.push_back(std::move(repeated));
    if (baseline_) {
      const BaselineComparison comparison =
          compare_repeats_to_baseline(*baseline_, metrics, parse_tolerance(config_.tolerance));
      text += render_baseline_table(comparison);
      if (comparison.regressed()) ++result_.regressions;
    }
    spdlog::info("repeats summarised in {}/summary.json", dir);
    result_.repeats_text += text;
  }

  // --start-at: the first run waits for the wall-clock instant (every shard prepared first), sleeping
  // to 2 ms before it and spinning the rest; later runs follow --sleep-interval.
  void wait_for_start_at() {
    if (config_.start_at_unix_ns < 0 || waited_for_start_) return;
    waited_for_start_ = true;
    const int64_t target = config_.start_at_unix_ns;
    const int64_t left_ns = target - unix_now_ns();
    if (left_ns <= 0) {
      spdlog::warn("--start-at was {:.3f} s ago: starting now", static_cast<double>(-left_ns) / 1e9);
      return;
    }
    spdlog::info("waiting {:.3f} s for --start-at", static_cast<double>(left_ns) / 1e9);
    constexpr int64_t kSpinNs = 2'000'000;
    while (interrupt_count().load() == 0) {
      const int64_t rest = target - unix_now_ns();
      if (rest <= kSpinNs) break;
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(rest - kSpinNs, 50'000'000)));
    }
    while (interrupt_count().load() == 0 && unix_now_ns() < target) {
    }
  }

  // Sleeps --sleep-interval between runs; false when interrupted meanwhile.
  bool pause_between_runs() {
    if (config_.sleep_interval_s > 0) {
      spdlog::info("sleeping {:g} s before the next run (--sleep-interval)",
                   config_.sleep_interval_s);
      interruptible_sleep(config_.sleep_interval_s);
    }
    if (interrupt_count().load() > 0) result_.interrupted = true;
    return !result_.interrupted;
  }

  // The search's table (a row per probe, with what decided it) and its answer.
  static std::string render_search(const SearchOutcome& outcome, bool by_rate,
                                   const std::vector<RunResult>& probes) {
    const char* axis = by_rate ? "rate (req/s)" : "parallel";
    std::string out =
        fmt::format("\nSearch over {} (bisection; each probe is a full run)\n\n", axis);
    out += by_rate ? fmt::format("| probe | {} | sustained (req/s) | sends that waited for a slot "
                                 "| meets every --slo | why not |\n|---|---|---|---|---|---|\n",
                                 axis)
                   : fmt::format("| probe | {} | qps (req/s) | meets every --slo | why not |\n"
                                 "|---|---|---|---|---|\n",
                                 axis);
    for (size_t i = 0; i < outcome.probes.size(); ++i) {
      const SearchProbe& probe = outcome.probes[i];
      std::string why;
      std::string load = "n/a";
      std::string waits = "n/a";
      if (i < probes.size()) {
        const RunResult& run = probes[i];
        for (const auto& [slo, result] : run.verdict.results) {
          if (!result.passed) why += (why.empty() ? "" : "; ") + result.text;
        }
        if (run.info.stopped_early) why += (why.empty() ? "" : "; ") + std::string("stopped early");
        const RunSummary& s = run.summary;
        load = fmt::format("{:.3g}", by_rate ? s.sustained_rate : s.qps);
        // A probe whose sends waited for one of its --parallel slots: the cap, not the rate,
        // paced it, and the latencies from the planned send count the wait.
        waits = s.open_loop.slot_waits == 0
                    ? fmt::format("none (cap {})", run.info.parallel)
                    : fmt::format("{:.0f}% (cap {} reached)", 100 * s.open_loop.cap_reached_share(),
                                  run.info.parallel);
      }
      out += by_rate ? fmt::format("| {} | {:g} | {} | {} | {} | {} |\n", i + 1, probe.value, load,
                                   waits, probe.passed ? "yes" : "no", why)
                     : fmt::format("| {} | {:g} | {} | {} | {} |\n", i + 1, probe.value, load,
                                   probe.passed ? "yes" : "no", why);
    }
    out += outcome.best
               ? fmt::format("\nHighest {} meeting every --slo: {:g}\n", axis, *outcome.best)
               : fmt::format("\nNo {} in the range meets every --slo.\n", axis);
    if (by_rate) {
      out += "(latency SLOs judged from each request's planned send, as a user of the server sees "
             "them; a probe fails when the server sustained less than the rate asked by more than "
             "--rate-tolerance)\n";
    }
    if (outcome.interrupted) out += "(search interrupted: the answer is a lower bound)\n";
    return out;
  }

  const Config& config_;
  const BenchmarkPlan& plan_;
  const ReportOptions report_;  // the reports' share of the config, with plan_'s resolved flags
  const RequestSettings& settings_;
  PromptSource& source_;
  const RequestBuilder& builder_;
  ServerWatch& server_;
  std::vector<Slo> slos_;
  std::optional<BaselineSummary> baseline_;
  std::string history_db_;  // --baseline db:FILE: the history database
  EarlyStopRules stop_rules_;  // --max-errors, --max-error-rate, --stop-on-saturation
  MetricsOptions metrics_options_;
  std::string run_id_;            // sharded: the benchmark the shards share (benchmark_run_id)
  bool waited_for_start_ = false;  // --start-at: the first run waited for it
  int repeat_ = 0;                 // --num-runs: the repeat run_one runs (1..K; 0: no repeats)
  const BenchmarkOptions& options_;
  std::optional<ResultsDb> results_db_;  // --results-db
  BenchmarkResult result_;
};

// Waits for the server (--ready-check-timeout-sec) and returns the model to ask for: --model, or
// without it the one model the server's /v1/models lists, as vLLM does. Several models or none:
// an error naming them.
std::string served_model(const Config& config) {
  if (!config.model.empty() && config.ready_timeout_s <= 0) return config.model;
  const std::vector<std::string> models = fetch_served_models(
      base_url_of(config.url), side_channel_options(config), config.ready_timeout_s);
  if (!config.model.empty()) return config.model;
  if (models.size() != 1) {
    throw std::invalid_argument(fmt::format(
        "--model is missing and the server's /v1/models lists {}: give --model{}",
        models.empty() ? std::string("no model") : fmt::format("{}", fmt::join(models, ", ")),
        models.empty() ? "" : " (one of those)"));
  }
  spdlog::info("model: {}, the one model the server lists (no --model given)", models.front());
  return models.front();
}

}  // namespace

std::vector<SweepRow> sweep_rows(const BenchmarkResult& result) {
  std::vector<SweepRow> rows;
  rows.reserve(result.runs.size());
  for (const RunResult& run : result.runs) rows.push_back({run.info, run.summary});
  return rows;
}

BenchmarkResult run_benchmark(const Config& config, const BenchmarkOptions& options) {
  install_interrupt_handlers();
  init_transport();

  const std::string model = served_model(config);
  PromptSource source(config, model);
  const BenchmarkPlan plan =
      plan_benchmark(config, model, source.workload().trace, output_timestamp());
  const RequestSettings settings = request_settings(config);
  const RequestBuilder builder(config, model);
  if (config.debug) {
    spdlog::debug("probe request body: {}", builder.build_body(source.probe_prompts().front()));
  }
  ServerWatch server(config);
  Benchmark benchmark(config, plan, settings, source, builder, server, options);
  // The first run's prompts before anything is sent: a length the template cannot fit fails here.
  source.prepare(plan.runs.front(), 0);
  check_context(config, source, server.identity());

  if (config.probe) {
    spdlog::info("probe: one request to {}{}", url_without_userinfo(config.url),
                 config.urls.size() > 1
                     ? fmt::format(" (the first of {} replicas)", config.urls.size())
                     : "");
    LoadProgress probe_progress;
    std::vector<RequestRecord> probe;
    RequestSettings probe_settings = settings;
    probe_settings.cancel_rate = 0;  // the probe is never closed on purpose
    run_load(probe_settings, LoadPlan{}, source.probe_prompts(), builder, &probe_progress,
             StopControl{}, [&probe](std::span<RequestRecord> records) {
               for (RequestRecord& record : records) probe.push_back(std::move(record));
             });
    if (probe.empty() || probe_blocks_run(config, probe.front())) {
      BenchmarkResult refused;
      refused.probe_failed = true;
      return refused;
    }
  }

  if (config.search.empty()) {
    benchmark.run_sweep();
  } else {
    benchmark.run_search();
  }
  return std::move(benchmark).finish();
}

}  // namespace llmperf

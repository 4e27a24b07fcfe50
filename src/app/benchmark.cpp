// A benchmark as a function (see benchmark.h; its parts are in benchmark/). run_benchmark, the one
// function here that sees the Config, plans the benchmark (plan/run_plan.h's BenchmarkPlan) and
// checks what must hold before the first request (preflight.h); Benchmark then runs the runs from
// the plan alone, in their order (run_series.h). Each run is planned as it comes (the plan's
// RunPlanner: --search makes its probes as it goes) and goes top to bottom in run_one: run (its
// records fanned out to its consumers, run_consumers.h), summarise, judge (run_judge.h), render
// (run_text.h), write its files, store it in --results-db.
#include "app/benchmark.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <optional>
#include <span>
#include <utility>

#include "app/benchmark/preflight.h"
#include "app/benchmark/run_consumers.h"
#include "app/benchmark/run_judge.h"
#include "app/benchmark/run_series.h"
#include "app/benchmark/run_text.h"
#include "app/progress.h"
#include "app/protocol_check.h"
#include "app/results_db.h"
#include "app/server_watch.h"
#include "app/signals.h"
#include "core/clock.h"
#include "core/config.h"
#include "engine/engine.h"
#include "engine/worker_threads.h"
#include "http/curl_transport.h"
#include "metrics/client_health.h"
#include "plan/run_plan.h"
#include "plan/side_channels.h"
#include "prepare/prompt_source.h"
#include "workload/dataset.h"
#include "workload/request_builder.h"

namespace llmperf {
namespace {

// Everything one invocation shares across its runs, and the runs' results.
class Benchmark {
 public:
  Benchmark(const BenchmarkPlan& plan, PromptSource& source, const RequestBuilder& builder,
            ServerWatch& server, const BenchmarkOptions& options)
      : plan_(plan),
        source_(source),
        builder_(builder),
        server_(server),
        options_(options),
        judge_(plan.verdicts) {
    result_.sweep_dir = plan.sweep_dir;
    if (!plan.output.results_db.empty()) results_db_.emplace(plan.output, result_.sweep_dir);
    const RunInfo::Shard& shard = plan.shard;
    if (shard.count > 1) {
      spdlog::info(
          "shard {} of {} ({}), benchmark {}: this process sends one request in {}, "
          "from id {}",
          shard.index, shard.count, shard.source, shard.run_id, shard.count, shard.index);
    }
  }

  // The sweep's runs, or --search's probes; then what covers them all.
  BenchmarkResult run() && {
    RunSeries series{plan_, judge_,
                     [this](const RunSpec& spec, size_t index, const std::string& title,
                            int repeat) { return run_one(spec, index, title, repeat); },
                     result_};
    if (!plan_.verdicts.search) {
      run_sweep(series);
    } else {
      run_search(series);
    }
    finish_series(plan_.output, result_);
    return std::move(result_);
  }

 private:
  // One full run (`repeat`: k of --num-runs' repeats, 0 otherwise): run, summarise, judge,
  // render, write, store. Returns whether it met every SLO.
  bool run_one(const RunSpec& spec, size_t index, const std::string& title, int repeat) {
    const std::vector<Prompt>& prompts = source_.prepare(spec, index);
    const RunPlan run = plan_run(plan_.planner, spec,
                                 {source_.trace_schedule(), source_.sessions()}, result_.sweep_dir);
    RunResult result;
    result.info = start_info(run, repeat);
    const LoadPlan& plan = run.load;
    spdlog::info("{}: {}, {} {}{}{}", title, run.label, spec.number,
                 plan.sessions != nullptr ? "conversations" : "requests",
                 plan.warmup > 0 ? fmt::format(" after {} warm-up", plan.warmup) : "",
                 plan.sessions != nullptr ? fmt::format(" ({} turns)", run.requests) : "");

    // Run: each finished record goes to the run's consumers as it arrives, then is dropped
    // (memory holds a compact row per request, not the records) unless the caller keeps them.
    LoadProgress progress;
    RunConsumers consumers(consumer_options(run, result), result.info, run, progress);
    server_.begin_run(result.info.output_dir, result.info.anchor_steady_ns);
    LoadResult load = run_through(consumers, run, prompts, progress);
    ServerSummary server = server_.end_run(consumers.client_totals());
    note_end(load, consumers, result.info);

    // Summarise, judge (repeats are judged together, on their intervals), render.
    RunTrace trace;
    result.summary = summarise(consumers.summary(), load, run, &trace);
    result.summary.server = std::move(server);
    warn_http_version_fallback(plan_.settings.http_mode, result.summary);
    judge_.judge(run, plan_.report, repeat > 0, result);
    if (repeat == 0) count_verdicts(result, result_);
    result.text = render_run_text(plan_.report, result);

    // Write the run's files, then store it: a --results-db that fails loses nothing else.
    write_run_outputs(plan_.report, result.info, result.summary, trace, consumers.vllm_arrays());
    spdlog::info("results written to {}", result.info.output_dir);
    if (results_db_ && !results_db_->append(plan_.report, result)) ++result_.results_db_failures;
    const bool passed = result.verdict.passed();
    result_.runs.push_back(std::move(result));
    if (options_.on_run) options_.on_run(result_.runs.back());
    return passed;
  }

  // The run's settings and identity, anchored at its start (after --start-at, for the first).
  RunInfo start_info(const RunPlan& run, int repeat) {
    RunInfo info;
    info.parallel = run.parallel;
    info.number = run.number;
    info.rate = run.spec.rate;
    info.input_tokens = run.spec.input_tokens;
    info.output_tokens = run.spec.output_tokens;
    info.ramp = run.ramp_up;
    info.output_dir = run.output_dir;
    if (repeat > 0) {  // --num-runs: each repeat is a run directory of its own
      info.output_dir =
          (std::filesystem::path(run.output_dir) / fmt::format("repeat_{}", repeat)).string();
    }
    info.dataset = source_.dataset();
    info.workload = source_.workload();
    info.server = server_.identity();
    info.shard = plan_.shard;
    if (!waited_for_start_) wait_for_start_at(plan_.series.start_at_unix_ns);
    waited_for_start_ = true;
    info.started_at = wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
    info.anchor_steady_ns = now_ns();
    info.anchor_unix_ns = unix_now_ns();
    return info;
  }

  RunConsumerOptions consumer_options(const RunPlan& run, RunResult& result) const {
    RunConsumerOptions options;
    options.report = &plan_.report;
    options.metrics = plan_.metrics;
    options.metrics.open_loop = run.spec.rate > 0;
    options.metrics.origin_ns = result.info.anchor_steady_ns;
    options.stop_rules = &plan_.verdicts.stop_rules;
    if (plan_.output.push) {
      options.push = push_gateway_options(*plan_.output.push, result.info.output_dir);
    }
    options.shard_of_benchmark = plan_.shard.count > 1;
    options.kept = options_.keep_records ? &result.records : nullptr;
    return options;
  }

  // The load, with the progress display, its records fanned out to `consumers`.
  LoadResult run_through(RunConsumers& consumers, const RunPlan& run,
                         const std::vector<Prompt>& prompts, LoadProgress& progress) {
    StopControl stop{&interrupt_count()};
    stop.early_stop = consumers.early_stop_flag();
    RecordFanout& fanout = consumers.fanout();
    fanout.begin_run();
    LoadResult load;
    {
      ProgressDisplay display(progress, run.requests, run.label, plan_.output.log_every_n_query);
      load = run_load(plan_.settings, run.load, prompts, builder_, &progress, stop,
                      [&fanout](std::span<RequestRecord> records) { fanout.add(records); });
    }
    fanout.end_run();
    return load;
  }

  // How the run ended: its length, an early stop or an interrupt (which end the sweep's too).
  void note_end(const LoadResult& load, const RunConsumers& consumers, RunInfo& info) {
    info.push_gateway = consumers.push_gateway();
    info.duration_s = static_cast<double>(load.end_ns - load.start_ns) / 1e9;
    info.stopped_early = consumers.stopped_early();
    // An early stop ends the run through the interrupt's path; only a signal makes it interrupted.
    info.interrupted = load.interrupted && (!info.stopped_early || interrupt_count().load() > 0);
    result_.interrupted = result_.interrupted || info.interrupted;
    if (info.stopped_early) {
      ++result_.stopped_early;
      if (plan_.verdicts.abort_on_stop) result_.stop_aborted = true;
    }
  }

  // The run's summary from its records, with the client's health (could it keep up?).
  RunSummary summarise(SummaryBuilder& builder, LoadResult& load, const RunPlan& run,
                       RunTrace* trace) const {
    RunSummary summary = builder.finish(trace);
    const double rate = run.spec.rate;
    ClientHealthInput health;
    health.stamp_delay_ns = std::move(load.stamp_delay_ns);
    health.cpu_s = load.cpu_s;
    health.wall_s = static_cast<double>(load.end_ns - load.start_ns) / 1e9;
    health.threads = run.workers.threads;
    health.usable_cores = usable_cores();
    health.client_lag_ns = rate > 0 ? &summary.open_loop.client_lag_ns : nullptr;
    health.measured = {rate > 0 ? 1e9 / rate : 0, &summary.ttft_ns, &summary.itl_ns,
                       &summary.latency_ns};
    health.machine = load.machine;
    summary.client = assess_client_health(health, plan_.metrics.percentiles);
    summary.client.threads_reason = run.workers.reason;
    return summary;
  }

  const BenchmarkPlan& plan_;  // everything the runs take of the Config
  PromptSource& source_;
  const RequestBuilder& builder_;
  ServerWatch& server_;
  const BenchmarkOptions& options_;
  const RunJudge judge_;                 // --slo, --baseline
  bool waited_for_start_ = false;        // --start-at: the first run waited for it
  std::optional<ResultsDb> results_db_;  // --results-db
  BenchmarkResult result_;
};

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

  const std::string model = served_model(config.target);
  PromptSource source(prepare_sections(config), model, side_channel_options(config.target));
  const BenchmarkPlan plan =
      plan_benchmark(config, model, source.workload().trace, output_timestamp());
  const RequestBuilder builder(
      request_sections(config.target, config.body, config.workload, config.load), model);
  if (config.output.debug) {
    spdlog::debug("probe request body: {}", builder.build_body(source.probe_prompts().front()));
  }
  ServerWatch server(plan.server);
  Benchmark benchmark(plan, source, builder, server, options);
  // The first run's prompts before anything is sent: a length the template cannot fit fails here.
  source.prepare(plan.runs.front(), 0);
  check_context(config.workload.allow_truncation, source, server.identity());
  if (config.target.probe && !probe_allows_run(config.target, plan.settings, source, builder)) {
    BenchmarkResult refused;
    refused.probe_failed = true;
    return refused;
  }
  return std::move(benchmark).run();
}

}  // namespace llmperf

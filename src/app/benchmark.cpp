// A benchmark as a function (see benchmark.h).
#include "app/benchmark.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <thread>

#include "core/clock.h"
#include "engine/engine.h"
#include "app/progress.h"
#include "engine/sweep/prompt_source.h"
#include "app/server_watch.h"
#include "engine/schedule.h"
#include "app/signals.h"
#include "engine/worker_threads.h"
#include "http/curl_transport.h"
#include "metrics/client_health.h"
#include "metrics/metrics.h"
#include "report/report.h"
#include "server/server_identity.h"
#include "server/side_channel.h"
#include "verdict/baseline.h"
#include "verdict/search.h"
#include "verdict/slo.h"
#include "workload/dataset.h"
#include "workload/request_builder.h"

namespace llmperf {
namespace {

std::string utc_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// A run name usable as one directory level: model names such as "Qwen/Qwen2.5-7B" keep their
// text but cannot climb out of --outputs-dir or create extra levels.
std::string safe_path_component(const std::string& name) {
  std::string out;
  for (const char c : name) {
    out.push_back((c == '/' || c == '\\' || c == '\0') ? '_' : c);
  }
  if (out.empty() || out == "." || out == "..") out = "run";
  return out;
}

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
          config.url);
      return true;
    case ErrorKind::kResolve:
    case ErrorKind::kConnectTimeout:
      spdlog::error("cannot reach {}: {}", config.url, probe.error_message);
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
  Benchmark(const Config& config, PromptSource& source, const RequestBuilder& builder,
            ServerWatch& server, const BenchmarkOptions& options)
      : config_(config), source_(source), builder_(builder), server_(server), options_(options) {
    for (const std::string& expression : config.slo) slos_.push_back(parse_slo(expression));
    metrics_options_.percentiles = config.percentiles;
    metrics_options_.goodput = parse_goodput(config.goodput);
    metrics_options_.output_forced = config.ignore_eos.value_or(false);
    if (!config.baseline_path.empty()) baseline_ = load_baseline(config.baseline_path);
    std::filesystem::path base(config.outputs_dir);
    if (!config.no_timestamp) base /= output_timestamp();
    std::string name = safe_path_component(config.name.empty() ? config.model : config.name);
    // Shards may share a volume: each writes its own directory, which `llmperf merge` combines.
    if (config.shards > 1) name += fmt::format("_shard_{}_of_{}", config.shard, config.shards);
    result_.sweep_dir = (base / name).string();
    if (config.shards > 1) {
      run_id_ = benchmark_run_id(config);
      spdlog::info("shard {} of {} ({}), benchmark {}: this process sends one request in {}, "
                   "from id {}",
                   config.shard, config.shards, config.shard_source, run_id_, config.shards,
                   config.shard);
    }
  }

  // Runs every (parallel, number, rate) of the sweep in order.
  void run_sweep() {
    const std::vector<Config::RunSpec> runs = config_.run_specs();
    for (size_t i = 0; i < runs.size() && !result_.interrupted; ++i) {
      if (i > 0 && !pause_between_runs()) break;
      run_one(runs[i], i, fmt::format("run {}/{}", i + 1, runs.size()));
    }
  }

  // --search: bisection over parallel or rate, each probe a full run judged by the SLOs.
  void run_search() {
    const bool by_rate = config_.search == "rate";
    const Config::RunSpec base = config_.run_specs().front();
    SearchSpec spec;
    spec.lo = config_.search_range[0];
    spec.hi = config_.search_range[1];
    spec.integer = !by_rate;
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
      if (result_.interrupted) return std::nullopt;
      return passed;
    });
    result_.search_text = render_search(outcome, by_rate);
    result_.search = outcome;
    // Failing probes are how the search finds its bound; only "nothing passes" is a violation.
    result_.slo_failures = outcome.best ? 0 : 1;
    write_file_atomic((std::filesystem::path(result_.sweep_dir) / "search_summary.md").string(),
                      result_.search_text);
  }

  // Writes what covers all runs (the sweep table's files, --junit) and hands the result over.
  BenchmarkResult finish() && {
    if (!result_.runs.empty()) {
      std::vector<SweepRow> rows;
      rows.reserve(result_.runs.size());
      for (const RunResult& run : result_.runs) rows.push_back({run.info, run.summary});
      write_sweep_outputs(result_.sweep_dir, rows);
    }
    if (!config_.junit_path.empty()) {
      std::vector<RunVerdict> verdicts;
      for (const RunResult& run : result_.runs) verdicts.push_back(run.verdict);
      write_file_atomic(config_.junit_path, render_junit(verdicts));
      spdlog::info("JUnit verdicts written to {}", config_.junit_path);
    }
    result_.interrupted = result_.interrupted || interrupt_count().load() > 0;
    return std::move(result_);
  }

 private:
  // One full run: load, summary, files, verdicts. Returns whether it met every SLO.
  bool run_one(const Config::RunSpec& run, size_t index, const std::string& title) {
    const auto [parallel, number, rate, input_tokens, output_tokens] = run;
    const std::vector<Prompt>& prompts = source_.prepare(run, index);
    RunInfo info;
    info.parallel = parallel;
    info.number = number;
    info.rate = rate;
    info.input_tokens = input_tokens;
    info.output_tokens = output_tokens;
    const RampUp& ramp = config_.ramp_up;
    info.ramp = ramp;
    const bool replay = source_.trace_schedule() != nullptr;
    std::string run_name =
        replay      ? fmt::format("trace_x{:g}_parallel_{}_number_{}", config_.trace_speedup,
                                  parallel, number)
        : ramp.on() ? fmt::format("ramp_{}_{:g}_{:g}_parallel_{}_number_{}", ramp.strategy,
                                ramp.start_rps, ramp.end_rps, parallel, number)
        : rate > 0 ? fmt::format("rate_{:g}_parallel_{}_number_{}", rate, parallel, number)
                   : fmt::format("parallel_{}_number_{}", parallel, number);
    if (input_tokens >= 0) run_name += fmt::format("_in_{}", input_tokens);
    if (output_tokens >= 0) run_name += fmt::format("_out_{}", output_tokens);
    info.output_dir = (std::filesystem::path(result_.sweep_dir) / run_name).string();
    info.dataset = source_.dataset();
    info.workload = source_.workload();
    info.server = server_.identity();
    info.shard = {config_.shard, config_.shards, config_.shard_source, run_id_, false, {}};

    LoadPlan plan;
    // A shard keeps its share of the concurrency (the remainder spread over the first shards).
    plan.parallel = std::max(1, parallel / config_.shards +
                                    (config_.shard < parallel % config_.shards ? 1 : 0));
    plan.number = number;
    plan.warmup = config_.warmup_count(number);
    plan.shard = config_.shard;
    plan.shards = config_.shards;
    const WorkerThreads workers = choose_worker_threads(
        config_.threads, plan.parallel, usable_cores(), is_loopback_url(config_.url));
    plan.threads = workers.threads;
    plan.duration_ns = static_cast<int64_t>(config_.duration_s * 1e9);
    if (replay) {  // the trace's own times
      plan.schedule_ns = shard_share(*source_.trace_schedule(), plan);
    } else if (rate > 0) {
      // The whole benchmark's arrivals, from the seed, partitioned: the union keeps the process.
      const ScheduleSpec schedule{rate, parse_arrival(config_.arrival), config_.burstiness,
                                  config_.seed, config_.ramp_up};
      plan.schedule_ns = shard_share(make_schedule(schedule, plan.warmup + number), plan);
    }
    // Requests the run is to send: one per turn of its conversations (fewer where one fails).
    int64_t requests = plan.shard_total();
    plan.sessions = source_.sessions();
    if (plan.sessions != nullptr) {
      const std::vector<SessionScript>& sessions = *plan.sessions;
      requests = 0;
      for (int64_t i = plan.shard; i < plan.warmup + number; i += plan.shards) {
        requests += static_cast<int64_t>(sessions[static_cast<size_t>(i) % sessions.size()].turns.size());
      }
    }
    if (config_.shards > 1) {  // this directory holds the shard's share
      LoadPlan warmup_only = plan;
      warmup_only.number = 0;
      info.parallel = plan.parallel;
      info.number = plan.shard_total() - warmup_only.shard_total();
    }
    wait_for_start_at();
    info.started_at = utc_iso8601();
    info.anchor_steady_ns = now_ns();
    info.anchor_unix_ns = unix_now_ns();
    std::string label =
        replay ? fmt::format("trace replay x{:g}, mean {:.3g} req/s (cap {})", config_.trace_speedup,
                            rate, parallel)
        : ramp.on()  ? fmt::format("ramp-up {} {:g} -> {:g} req/s (cap {})", ramp.strategy,
                                 ramp.start_rps, ramp.end_rps, parallel)
        : rate > 0 ? fmt::format("rate {:g}/s (cap {})", rate, parallel)
                   : fmt::format("parallel {}", parallel);
    if (input_tokens >= 0) label += fmt::format(", input {}", input_tokens);
    if (output_tokens >= 0) label += fmt::format(", output {}", output_tokens);
    const char* unit = plan.sessions != nullptr ? "conversations" : "requests";
    if (config_.shards > 1) {
      label += fmt::format(", shard {} of {}: {} of the", config_.shard, config_.shards, info.number);
    }
    spdlog::info("{}: {}, {} {}{}{}", title, label, number, unit,
                 plan.warmup > 0 ? fmt::format(" after {} warm-up", plan.warmup) : "",
                 plan.sessions != nullptr ? fmt::format(" ({} turns)", requests) : "");
    // Each finished request is written to requests.jsonl and folded into the summary as it
    // arrives, then dropped: memory holds a compact row per request, not the records.
    metrics_options_.open_loop = rate > 0;
    metrics_options_.rate_segments = config_.ramp_up.on() ? kRampSegments : 0;
    metrics_options_.origin_ns = info.anchor_steady_ns;
    SummaryBuilder summary_builder(metrics_options_);
    RecordsFile records_file(config_, info);
    ClientTotals client_totals;  // warm-up included: the server counts it too
    client_totals.shard_of_benchmark = config_.shards > 1;
    RunResult run_result;
    auto sink = [&](std::span<RequestRecord> records) {
      for (RequestRecord& record : records) {
        records_file.append(record);
        summary_builder.add(record);
        client_totals.add(record);
        if (options_.keep_records) run_result.records.push_back(std::move(record));
      }
      records_file.flush();
    };
    server_.begin_run(info.output_dir, info.anchor_steady_ns);
    LoadProgress progress;
    LoadResult load;
    {
      ProgressDisplay display(progress, requests, label, config_.log_every_n_query);
      load = run_load(config_, plan, prompts, builder_, &progress,
                        StopControl{&interrupt_count()}, sink);
    }
    ServerSummary server_summary = server_.end_run(client_totals);
    records_file.commit();
    info.duration_s = static_cast<double>(load.end_ns - load.start_ns) / 1e9;
    info.interrupted = load.interrupted;
    result_.interrupted = result_.interrupted || load.interrupted;

    RunTrace trace;
    SweepRow row{info, summary_builder.finish(&trace)};
    ClientHealthInput health{std::move(load.stamp_delay_ns), load.cpu_s, info.duration_s,
                             workers.threads,
                             rate > 0 ? &row.summary.open_loop.client_lag_ns : nullptr};
    row.summary.client = assess_client_health(health, config_.percentiles);
    row.summary.client.threads_reason = workers.reason;
    row.summary.server = std::move(server_summary);

    const RunVerdict verdict = evaluate_slos(run_name, slos_, row.summary);
    for (const auto& [slo, outcome] : verdict.results) {
      row.info.slo.push_back({slo.expression, outcome.passed, outcome.text});
    }
    std::string text = render_text_summary(config_, row.info, row.summary);
    text += render_load_text(row.info, row.summary, config_.arrival);
    text += render_server_text(row.info, row.summary);
    text += render_verdicts_text(row.summary, verdict);
    if (baseline_) {
      run_result.baseline =
          compare_to_baseline(*baseline_, row.summary, parse_tolerance(config_.tolerance));
      text += render_baseline_table(*run_result.baseline);
      if (run_result.baseline->regressed()) ++result_.regressions;
    }
    text += render_length_warning(row.info, row.summary);
    write_run_outputs(config_, row.info, row.summary, trace);
    spdlog::info("results written to {}", row.info.output_dir);
    const bool passed = verdict.passed();
    if (!passed) ++result_.slo_failures;
    run_result.info = std::move(row.info);
    run_result.summary = std::move(row.summary);
    run_result.verdict = verdict;
    run_result.text = std::move(text);
    result_.runs.push_back(std::move(run_result));
    if (options_.on_run) options_.on_run(result_.runs.back());
    return passed;
  }

  // This shard's entries of the whole benchmark's schedule: ids shard, shard + shards, ...
  static std::vector<int64_t> shard_share(const std::vector<int64_t>& all, const LoadPlan& plan) {
    if (plan.shards <= 1) return all;
    std::vector<int64_t> share;
    for (size_t i = static_cast<size_t>(plan.shard); i < all.size();
         i += static_cast<size_t>(plan.shards)) {
      share.push_back(all[i]);
    }
    return share;
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

  static std::string render_search(const SearchOutcome& outcome, bool by_rate) {
    const char* axis = by_rate ? "rate (req/s)" : "parallel";
    std::string out =
        fmt::format("\nSearch over {} (bisection; each probe is a full run)\n\n", axis);
    out += fmt::format("| probe | {} | meets every --slo |\n|---|---|---|\n", axis);
    for (size_t i = 0; i < outcome.probes.size(); ++i) {
      out += fmt::format("| {} | {:g} | {} |\n", i + 1, outcome.probes[i].value,
                         outcome.probes[i].passed ? "yes" : "no");
    }
    out += outcome.best
               ? fmt::format("\nHighest {} meeting every --slo: {:g}\n", axis, *outcome.best)
               : fmt::format("\nNo {} in the range meets every --slo.\n", axis);
    if (outcome.interrupted) out += "(search interrupted: the answer is a lower bound)\n";
    return out;
  }

  const Config& config_;
  PromptSource& source_;
  const RequestBuilder& builder_;
  ServerWatch& server_;
  std::vector<Slo> slos_;
  std::optional<BaselineSummary> baseline_;
  MetricsOptions metrics_options_;
  std::string run_id_;            // sharded: the benchmark the shards share (benchmark_run_id)
  bool waited_for_start_ = false;  // --start-at: the first run waited for it
  const BenchmarkOptions& options_;
  BenchmarkResult result_;
};

// A trace's run is its requests at their own times: -n is the number read and the nominal rate
// (run names, the open-loop outputs) their mean rate after --trace-speedup.
Config with_trace_plan(const Config& given, const TraceInfo& trace) {
  Config config = given;
  if (!trace.on) return config;
  config.number = {trace.entries};
  const double span_s = trace.span_s / trace.speedup;
  const double mean_rate = span_s > 0 ? static_cast<double>(trace.entries - 1) / span_s
                                      : static_cast<double>(trace.entries);
  config.rate.assign(std::max<size_t>(1, config.parallel.size()), mean_rate);  // one per cap
  return config;
}

// Waits for the server (--ready-check-timeout-sec) and, without --model, takes the one model its
// /v1/models lists, as vLLM does. Several models or none: an error naming them.
Config with_served_model(const Config& given) {
  if (!given.model.empty() && given.ready_timeout_s <= 0) return given;
  const std::vector<std::string> models = fetch_served_models(
      base_url_of(given.url), side_channel_options(given), given.ready_timeout_s);
  Config config = given;
  if (!config.model.empty()) return config;
  if (models.size() != 1) {
    throw std::invalid_argument(fmt::format(
        "--model is missing and the server's /v1/models lists {}: give --model{}",
        models.empty() ? std::string("no model") : fmt::format("{}", fmt::join(models, ", ")),
        models.empty() ? "" : " (one of those)"));
  }
  config.model = models.front();
  spdlog::info("model: {}, the one model the server lists (no --model given)", config.model);
  return config;
}

}  // namespace

BenchmarkResult run_benchmark(const Config& requested, const BenchmarkOptions& options) {
  install_interrupt_handlers();
  init_transport();

  const Config given = with_served_model(requested);
  PromptSource source(given);
  const Config config = with_trace_plan(given, source.workload().trace);
  const RequestBuilder builder(config);
  if (config.debug) {
    spdlog::debug("probe request body: {}", builder.build_body(source.probe_prompts().front()));
  }
  ServerWatch server(config);
  Benchmark benchmark(config, source, builder, server, options);
  // The first run's prompts before anything is sent: a length the template cannot fit fails here.
  source.prepare(config.run_specs().front(), 0);
  check_context(config, source, server.identity());

  if (config.probe) {
    spdlog::info("probe: one request to {}", config.url);
    LoadProgress probe_progress;
    std::vector<RequestRecord> probe;
    run_load(config, LoadPlan{}, source.probe_prompts(), builder, &probe_progress, StopControl{},
             [&probe](std::span<RequestRecord> records) {
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

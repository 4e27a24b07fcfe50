// Planning a run (see run_plan.h).
#include "plan/run_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/config/prepare_sections.h"
#include "engine/schedule.h"
#include "plan/stage_options.h"

namespace llmperf {
namespace {

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

// This shard's entries of the whole benchmark's schedule: ids shard, shard + shards, ...
std::vector<int64_t> shard_share(const std::vector<int64_t>& all, const LoadPlan& plan) {
  if (plan.shards <= 1) return all;
  std::vector<int64_t> share;
  for (size_t i = static_cast<size_t>(plan.shard); i < all.size();
       i += static_cast<size_t>(plan.shards)) {
    share.push_back(all[i]);
  }
  return share;
}

std::string run_name(const RunPlanner& planner, const RunSpec& spec, bool replay) {
  const RampUp& ramp = planner.load.ramp_up;
  std::string name =
      replay      ? fmt::format("trace_x{:g}_parallel_{}_number_{}", planner.trace_speedup,
                                spec.parallel, spec.number)
      : ramp.on() ? fmt::format("ramp_{}_{:g}_{:g}_parallel_{}_number_{}", ramp.strategy,
                                ramp.start_rps, ramp.end_rps, spec.parallel, spec.number)
      : spec.rate > 0
          ? fmt::format("rate_{:g}_parallel_{}_number_{}", spec.rate, spec.parallel, spec.number)
          : fmt::format("parallel_{}_number_{}", spec.parallel, spec.number);
  if (spec.input_tokens >= 0) name += fmt::format("_in_{}", spec.input_tokens);
  if (spec.output_tokens >= 0) name += fmt::format("_out_{}", spec.output_tokens);
  return name;
}

std::string run_label(const RunPlanner& planner, const RunPlan& run) {
  const RunSpec& spec = run.spec;
  const RampUp& ramp = planner.load.ramp_up;
  std::string label =
      run.replay      ? fmt::format("trace replay x{:g}, mean {:.3g} req/s (cap {})",
                                    planner.trace_speedup, spec.rate, spec.parallel)
      : ramp.on()     ? fmt::format("ramp-up {} {:g} -> {:g} req/s (cap {})", ramp.strategy,
                                    ramp.start_rps, ramp.end_rps, spec.parallel)
      : spec.rate > 0 ? fmt::format("rate {:g}/s (cap {})", spec.rate, spec.parallel)
                      : fmt::format("parallel {}", spec.parallel);
  if (spec.input_tokens >= 0) label += fmt::format(", input {}", spec.input_tokens);
  if (spec.output_tokens >= 0) label += fmt::format(", output {}", spec.output_tokens);
  if (planner.load.shards > 1) {
    label += fmt::format(", shard {} of {}: {} of the", planner.load.shard, planner.load.shards,
                         run.number);
  }
  return label;
}

// The benchmark's directory: <--outputs-dir>[/<timestamp>]/<--name or `model`>, with a
// "_shard_I_of_N" suffix for a shard. `timestamp` is the level --no-timestamp leaves out.
std::string sweep_dir_of(const Config& config, const std::string& model,
                         const std::string& timestamp) {
  std::filesystem::path base(config.output.outputs_dir);
  if (!config.output.no_timestamp) base /= timestamp;
  std::string name = safe_path_component(config.output.name.empty() ? model : config.output.name);
  // Shards may share a volume: each writes its own directory, which `llmperf merge` combines.
  if (config.load.shards > 1)
    name += fmt::format("_shard_{}_of_{}", config.load.shard, config.load.shards);
  return (base / name).string();
}

}  // namespace

RunPlan plan_run(const RunPlanner& planner, const RunSpec& spec, const WorkloadShape& workload,
                 const std::string& sweep_dir) {
  const LoadConfig& load = planner.load;
  RunPlan run;
  run.spec = spec;
  run.replay = workload.trace_schedule != nullptr;
  run.ramp_up = load.ramp_up;
  run.name = run_name(planner, spec, run.replay);
  run.output_dir = (std::filesystem::path(sweep_dir) / run.name).string();

  LoadPlan& plan = run.load;
  // A shard keeps its share of the concurrency (the remainder spread over the first shards).
  plan.parallel =
      std::max(1, spec.parallel / load.shards + (load.shard < spec.parallel % load.shards ? 1 : 0));
  plan.number = spec.number;
  plan.warmup = load.warmup_count(spec.number);
  plan.shard = load.shard;
  plan.shards = load.shards;
  run.workers =
      choose_worker_threads(load.threads, plan.parallel, usable_cores(), planner.loopback);
  plan.threads = run.workers.threads;
  plan.duration_ns = static_cast<int64_t>(load.duration_s * 1e9);
  if (run.replay) {  // the trace's own times
    plan.schedule_ns = shard_share(*workload.trace_schedule, plan);
  } else if (spec.rate > 0) {
    // The whole benchmark's arrivals, from the seed, partitioned: the union keeps the process.
    // --search rate: each probe asks exactly its rate on average (ScheduleSpec::exact_mean).
    const ScheduleSpec schedule{spec.rate,       parse_arrival(load.arrival),
                                load.burstiness, load.seed,
                                load.ramp_up,    planner.exact_mean_rate};
    plan.schedule_ns = shard_share(make_schedule(schedule, plan.warmup + spec.number), plan);
  }
  // Requests the run is to send: one per turn of its conversations (fewer where one fails).
  run.requests = plan.shard_total();
  plan.sessions = workload.sessions;
  if (plan.sessions != nullptr) {
    const std::vector<SessionScript>& sessions = *plan.sessions;
    run.requests = 0;
    for (int64_t i = plan.shard; i < plan.warmup + spec.number; i += plan.shards) {
      run.requests +=
          static_cast<int64_t>(sessions[static_cast<size_t>(i) % sessions.size()].turns.size());
    }
  }
  run.parallel = spec.parallel;
  run.number = spec.number;
  if (load.shards > 1) {  // this directory holds the shard's share
    LoadPlan warmup_only = plan;
    warmup_only.number = 0;
    run.parallel = plan.parallel;
    run.number = plan.shard_total() - warmup_only.shard_total();
  }
  run.label = run_label(planner, run);
  return run;
}

RunPlanner run_planner(const Config& config) {
  RunPlanner planner;
  planner.load = config.load;
  planner.trace_speedup = config.workload.trace_speedup;
  planner.loopback = is_loopback_url(config.target.url);
  planner.exact_mean_rate = config.verdicts.search == "rate";
  return planner;
}

RequestSettings request_settings(const Config& config) {
  RequestSettings settings;
  settings.url = config.target.url;
  settings.connect_timeout_s = config.target.connect_timeout_s;
  settings.read_timeout_s = config.target.read_timeout_s;
  settings.total_timeout_s = config.target.total_timeout_s;
  settings.insecure = config.target.insecure;
  settings.cacert = config.target.cacert;
  settings.http_mode = config.target.http2                   ? HttpMode::kHttp2
                       : config.target.http2_prior_knowledge ? HttpMode::kHttp2PriorKnowledge
                                                             : HttpMode::kHttp1;
  settings.max_streams_per_connection = config.target.max_streams_per_connection;
  settings.stream = config.body.stream;
  settings.history_recorded = config.workload.history_recorded;
  settings.keep_text_mib = config.output.keep_text_mib;
  settings.turn_delay = config.workload.turn_delay;
  settings.seed = config.load.seed;
  settings.urls = config.target.urls;
  settings.least_inflight = config.target.url_policy == "least-inflight";
  settings.cancel_rate = config.load.cancel_rate;
  settings.cancel_after = parse_cancel_after(config.load.cancel_after).value_or(CancelAfter{});
  return settings;
}

BenchmarkPlan plan_benchmark(const Config& config, std::string model, const TraceInfo& trace,
                             const std::string& timestamp) {
  BenchmarkPlan plan;
  plan.resolved = {std::move(model), config.load.number, config.load.rate};
  if (trace.on) {
    plan.resolved.number = {trace.entries};
    const double span_s = trace.span_s / trace.speedup;
    const double mean_rate = span_s > 0 ? static_cast<double>(trace.entries - 1) / span_s
                                        : static_cast<double>(trace.entries);
    plan.resolved.rate.assign(std::max<size_t>(1, config.load.parallel.size()), mean_rate);
  }
  plan.runs = run_specs(config, plan.resolved);
  plan.sweep_dir = sweep_dir_of(config, plan.resolved.model, timestamp);
  plan.report = report_options(config, plan.resolved);
  plan.metrics = metrics_options(config);
  plan.verdicts = verdict_plan(config.verdicts, config.output);
  plan.output = output_plan(config.output, config.target, plan.resolved.model);
  plan.server = server_view_options(config.target, config.server);
  plan.settings = request_settings(config);
  plan.planner = run_planner(config);
  plan.series = {config.load.num_runs, config.load.sleep_interval_s, config.load.start_at_unix_ns};
  plan.shard.index = config.load.shard;
  plan.shard.count = config.load.shards;
  plan.shard.source = config.load.shard_source;
  if (config.load.shards > 1) plan.shard.run_id = benchmark_run_id(config, plan.resolved);
  return plan;
}

PrepareSections prepare_sections(const Config& config) {
  return {config.target, config.workload, config.body, config.load};
}

}  // namespace llmperf

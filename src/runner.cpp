// Benchmark driver (see runner.h).
#include "runner.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <thread>

#include "llmperf/clock.h"
#include "llmperf/dataset.h"
#include "llmperf/engine.h"
#include "llmperf/metrics.h"
#include "llmperf/report.h"
#include "llmperf/request_builder.h"
#include "progress.h"
#include "signals.h"

namespace llmperf {
namespace {

std::string local_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d_%H%M%S", &tm);
  return buffer;
}

std::string utc_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
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
    spdlog::info("probe request succeeded: HTTP {}, {} output tokens in {:.3f} s", probe.http_status,
                 probe.output_tokens, static_cast<double>(probe.end_ns - probe.sent_ns) / 1e9);
    return false;
  }
  switch (probe.error) {
    case ErrorKind::kConnectRefused:
      spdlog::error("cannot connect to {}: connection refused. Is the server running and listening "
                    "on that host and port?",
                    config.url);
      return true;
    case ErrorKind::kResolve:
    case ErrorKind::kConnectTimeout:
      spdlog::error("cannot reach {}: {}", config.url, probe.error_message);
      return true;
    case ErrorKind::kHttp:
      if (probe.http_status >= 400 && probe.http_status < 500 && probe.http_status != 429) {
        spdlog::error("the server rejected the probe request ({}). Check --url, --model, "
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

}  // namespace

int run_benchmark(const Config& config) {
  install_interrupt_handlers();
  init_transport();

  const auto runs = config.runs();
  int64_t most_requests = 0;
  for (const auto& [parallel, number] : runs) most_requests = std::max(most_requests, number);

  DatasetOptions dataset_options;
  dataset_options.kind = config.dataset;
  dataset_options.path = config.dataset_path;
  dataset_options.fixed_prompt = config.prompt;
  dataset_options.min_length = config.min_prompt_length;
  dataset_options.max_length = config.max_prompt_length;
  dataset_options.limit = most_requests;
  DatasetStats dataset_stats;
  const std::vector<Prompt> prompts = load_prompts(dataset_options, dataset_stats);
  spdlog::info("dataset: {} prompts from {} ({} records read, {} outside the length filter, {} "
               "malformed)",
               prompts.size(), config.prompt.empty() ? config.dataset_path : "--prompt",
               dataset_stats.records_read, dataset_stats.skipped_length, dataset_stats.malformed);
  if (dataset_stats.malformed > 0) {
    spdlog::warn("dataset: skipped {} malformed records; first: {}", dataset_stats.malformed,
                 dataset_stats.first_malformed_reason);
  }

  const RequestBuilder builder(config);
  if (config.debug) {
    spdlog::debug("first request body: {}", builder.build_body(prompts.front()));
  }

  if (config.probe) {
    spdlog::info("probe: one request to {}", config.url);
    LoadProgress probe_progress;
    const LoadResult probe =
        run_load(config, LoadPlan{1, 1, 1}, prompts, builder, &probe_progress, StopControl{});
    if (probe.records.empty() || probe_blocks_run(config, probe.records.front())) {
      return kExitCannotProceed;
    }
  }

  const std::string sweep_dir = (std::filesystem::path(config.outputs_dir) / local_timestamp() /
                                 safe_path_component(config.name.empty() ? config.model : config.name))
                                    .string();
  std::vector<SweepRow> rows;
  bool interrupted = false;
  MetricsOptions metrics_options;
  metrics_options.percentiles = config.percentiles;

  for (size_t i = 0; i < runs.size() && !interrupted; ++i) {
    const auto [parallel, number] = runs[i];
    if (i > 0 && config.sleep_interval_s > 0) {
      spdlog::info("sleeping {:g} s before the next run (--sleep-interval)", config.sleep_interval_s);
      interruptible_sleep(config.sleep_interval_s);
      if (interrupt_count().load() > 0) break;
    }
    RunInfo info;
    info.parallel = parallel;
    info.number = number;
    info.output_dir =
        (std::filesystem::path(sweep_dir) / fmt::format("parallel_{}_number_{}", parallel, number))
            .string();
    info.started_at = utc_iso8601();
    info.anchor_steady_ns = now_ns();
    info.anchor_unix_ns = unix_now_ns();
    info.dataset = dataset_stats;

    spdlog::info("run {}/{}: parallel {}, {} requests", i + 1, runs.size(), parallel, number);
    LoadProgress progress;
    LoadResult result;
    {
      ProgressDisplay display(progress, number, fmt::format("parallel {}", parallel),
                              config.log_every_n_query);
      result = run_load(config, LoadPlan{parallel, number, config.threads}, prompts, builder,
                        &progress, StopControl{&interrupt_count()});
    }
    info.duration_s = static_cast<double>(result.end_ns - result.start_ns) / 1e9;
    info.interrupted = result.interrupted;
    interrupted = result.interrupted;

    SweepRow row{info, summarize(result.records, metrics_options)};
    std::fputs(render_text_summary(config, row.info, row.summary).c_str(), stdout);
    std::fflush(stdout);
    write_run_outputs(config, row.info, row.summary, result.records);
    spdlog::info("results written to {}", row.info.output_dir);
    rows.push_back(std::move(row));
  }

  if (!rows.empty()) {
    if (rows.size() > 1) std::fputs(render_sweep_text(rows).c_str(), stdout);
    write_sweep_outputs(sweep_dir, rows);
    std::fputs(fmt::format("\nOutputs: {}\n", sweep_dir).c_str(), stdout);
    std::fflush(stdout);
  }
  if (interrupted || interrupt_count().load() > 0) {
    spdlog::warn("interrupted: results above are partial");
    return kExitInterrupted;
  }
  return kExitOk;
}

}  // namespace llmperf

// What each stage takes of a Config (see stage_options.h).
#include "plan/stage_options.h"

#include <fmt/format.h>

#include <cstdint>

#include "core/text.h"
#include "metrics/goodput.h"
#include "plan/config_block.h"

namespace llmperf {

std::string benchmark_run_id(const Config& config, const ResolvedFlags& resolved) {
  nlohmann::ordered_json j = config_block(config, resolved);
  // Where each shard writes and how it logs may differ; the benchmark is the same.
  for (const char* key : {"outputs_dir", "debug", "log_every_n_query", "junit", "baseline"}) {
    j.erase(key);
  }
  uint64_t hash = 14695981039346656037ull;  // FNV-1a: the same id on every machine and build
  for (const unsigned char c : j.dump()) hash = (hash ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

ReportOptions report_options(const Config& config, const ResolvedFlags& resolved) {
  ReportOptions options;
  options.model = resolved.model;
  options.name = config.output.name;
  options.url = config.target.url;
  for (const std::string& url : config.target.urls)
    options.urls.push_back(url_without_userinfo(url));
  options.api_kind = config.target.api_kind;
  options.stream = config.body.stream;
  options.batch_size = config.workload.batch_size;
  options.documents = config.workload.documents;
  options.image_num = config.workload.image_num;
  options.image_width = config.workload.image_width;
  options.image_height = config.workload.image_height;
  options.summary_format = config.output.summary_format;
  options.arrival = config.load.arrival;
  options.burstiness = config.load.burstiness;
  options.default_cap = config.load.default_cap;
  options.percentile_metrics = config.output.percentile_metrics;
  options.metric_percentiles = config.output.metric_percentiles;
  options.vllm = config.output.vllm;
  options.several_runs = run_specs(config, resolved).size() > 1;
  options.percentiles = config.output.percentiles;
  options.output_forced = config.body.ignore_eos.value_or(false);
  options.metrics_interval_s = config.server.metrics_interval_s;
  options.verbose = config.output.verbose;
  options.secrets = config_secrets(config);
  // Invalid UTF-8 (a --prompt cut mid-character) becomes U+FFFD, as summary.json writes it.
  options.config_json = config_block(config, resolved).dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return options;
}

MetricsOptions metrics_options(const Config& config) {
  MetricsOptions options;
  options.percentiles = config.output.percentiles;
  options.goodput = parse_goodput(config.verdicts.goodput);
  options.output_forced = config.body.ignore_eos.value_or(false);
  options.url_count = config.target.urls.size();
  options.include_cancelled = config.load.include_cancelled;
  options.rate_segments = config.load.ramp_up.on() ? kRampSegments : 0;
  return options;
}

}  // namespace llmperf

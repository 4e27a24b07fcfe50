// `llmperf report DIR`: rebuilds every summary and chart of a run directory, or of each run of a
// sweep directory plus the sweep files, from requests.jsonl (record_from_json + summarize) without
// sending a request. The run's identity and config are read back from its summary.json ("run",
// "config" and "dataset"); secrets there are already masked and stay masked.
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/internal.h"
#include "report/report.h"
#include "report/tools.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// `value` as a T, or nullopt when it is of another type (integers must also fit T).
template <typename T>
std::optional<T> as(const json& value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return report_detail::json_integer<T>(value);
  } else {
    try {
      return value.get<T>();
    } catch (const json::exception&) {
      return std::nullopt;
    }
  }
}

// A field of an unexpected type keeps its default: these are for presentation only.
template <typename T>
void take(const json& j, const char* key, T& field) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if (const std::optional<T> value = as<T>(*it)) field = *value;
}

template <typename T>
void take_optional(const json& j, const char* key, std::optional<T>& field) {
  auto it = j.find(key);
  if (it == j.end()) return;
  if (it->is_null()) {
    field.reset();
  } else if (it->is_number()) {
    if (const std::optional<T> value = as<T>(*it)) field = *value;
  }
}

// The Config fields summary.json records (config_json), as far as presentation needs them.
Config config_from_json(const json& c) {
  Config config;
  if (!c.is_object()) return config;
  take(c, "api", config.api);
  take(c, "url", config.url);
  take(c, "model", config.model);
  take(c, "name", config.name);
  take(c, "dataset", config.dataset);
  take(c, "dataset_path", config.dataset_path);
  take(c, "prompt", config.prompt);
  take(c, "min_prompt_length", config.min_prompt_length);
  take(c, "max_prompt_length", config.max_prompt_length);
  take(c, "input_tokens", config.input_tokens);
  take(c, "output_tokens", config.output_tokens);
  take(c, "prefix_length", config.prefix_length);
  take(c, "prefix_groups", config.prefix_groups);
  take(c, "prompts_per_group", config.prompts_per_group);
  take(c, "prefix_zipf", config.prefix_zipf);
  take(c, "tokenize_prompt", config.tokenize_prompt);
  take(c, "max_tokens_low", config.max_tokens_low);
  take(c, "sharegpt_output_len", config.sharegpt_output_len);
  take(c, "parallel", config.parallel);
  take(c, "number", config.number);
  take(c, "threads", config.threads);
  take(c, "sleep_interval", config.sleep_interval_s);
  take(c, "seed", config.seed);
  take(c, "stream", config.stream);
  take_optional(c, "max_tokens", config.max_tokens);
  take_optional(c, "min_tokens", config.min_tokens);
  take_optional(c, "temperature", config.temperature);
  take_optional(c, "top_p", config.top_p);
  take(c, "stop", config.stop);
  take(c, "stop_token_ids", config.stop_token_ids);
  if (auto it = c.find("extra_args"); it != c.end() && !it->is_null()) {
    config.extra_args = it->is_string() ? it->get<std::string>() : it->dump();
  }
  take(c, "connect_timeout", config.connect_timeout_s);
  take(c, "read_timeout", config.read_timeout_s);
  take(c, "total_timeout", config.total_timeout_s);
  take(c, "outputs_dir", config.outputs_dir);
  take(c, "log_every_n_query", config.log_every_n_query);
  take(c, "debug", config.debug);
  take(c, "percentiles", config.percentiles);
  take(c, "probe", config.probe);
  take(c, "allow_truncation", config.allow_truncation);
  take(c, "insecure", config.insecure);
  take(c, "server_metrics", config.server_metrics);
  take(c, "metrics_url", config.metrics_url);
  take(c, "metrics_interval", config.metrics_interval_s);
  take(c, "profile", config.profile);
  take(c, "batch_size", config.batch_size);
  take(c, "documents", config.documents);
  take(c, "image_num", config.image_num);
  take(c, "image_width", config.image_width);
  take(c, "image_height", config.image_height);
  take(c, "start_at_unix_ns", config.start_at_unix_ns);
  if (const auto eos = c.find("ignore_eos"); eos != c.end() && eos->is_boolean()) {
    config.ignore_eos = eos->get<bool>();
  }
  if (auto it = c.find("api_key"); it != c.end() && it->is_string()) config.api_key = "***";
  if (auto it = c.find("headers"); it != c.end() && it->is_object()) {
    for (const auto& [name, value] : it->items()) {
      if (value.is_string()) config.headers.emplace_back(name, value.get<std::string>());
    }
  }
  take(c, "percentile_metrics", config.percentile_metrics);
  take(c, "metric_percentiles", config.metric_percentiles);
  if (auto it = c.find("vllm"); it != c.end() && it->is_object()) {
    take(*it, "backend", config.vllm.backend);
    take(*it, "label", config.vllm.label);
    take(*it, "model_id", config.vllm.model_id);
    take(*it, "tokenizer", config.vllm.tokenizer);
    if (auto m = it->find("metadata"); m != it->end() && m->is_object()) {
      for (const auto& [key, value] : m->items()) {
        if (value.is_string()) config.vllm.metadata.emplace_back(key, value.get<std::string>());
      }
    }
  }
  const std::string kind = c.value("api_kind", "chat");
  config.api_kind = api_kind_from_name(kind);
  return config;
}

RunInfo info_from_json(const json& summary, const fs::path& dir) {
  RunInfo info;
  const json run = summary.value("run", json::object());
  take(run, "parallel", info.parallel);
  take(run, "number", info.number);
  take(run, "rate", info.rate);
  take(run, "started_at", info.started_at);
  take(run, "duration_s", info.duration_s);
  take(run, "interrupted", info.interrupted);
  take(run, "input_tokens", info.input_tokens);
  take(run, "output_tokens", info.output_tokens);
  info.workload = report_detail::workload_from_json(summary.value("workload", json::object()));
  info.workload.trace = report_detail::trace_from_json(summary.value("trace", json()));
  // Kept for summary.json only: the records read back count from 0, and so does the rebuild.
  take(run, "monotonic_anchor_ns", info.anchor_steady_ns);
  take(run, "anchor_unix_ns", info.anchor_unix_ns);
  const json shard = summary.value("shard", json());
  if (shard.is_object()) {
    take(shard, "index", info.shard.index);
    take(shard, "count", info.shard.count);
    take(shard, "source", info.shard.source);
    take(shard, "run_id", info.shard.run_id);
    take(shard, "merged", info.shard.merged);
    take(shard, "starts_unix_ns", info.shard.starts_unix_ns);
  }
  info.output_dir = dir.string();
  const json open_loop = summary.value("open_loop", json());
  if (open_loop.is_object() && open_loop.value("ramp_up", json()).is_object()) {
    const json& ramp = open_loop["ramp_up"];
    take(ramp, "strategy", info.ramp.strategy);
    take(ramp, "start_rps", info.ramp.start_rps);
    take(ramp, "end_rps", info.ramp.end_rps);
  }
  const json d = summary.value("dataset", json::object());
  take(d, "records_read", info.dataset.records_read);
  take(d, "accepted", info.dataset.accepted);
  take(d, "skipped_length", info.dataset.skipped_length);
  take(d, "skipped_empty", info.dataset.skipped_empty);
  take(d, "skipped_turns", info.dataset.skipped_turns);
  take(d, "malformed", info.dataset.malformed);
  take(d, "malformed_lines", info.dataset.malformed_lines);
  take(d, "first_malformed_reason", info.dataset.first_malformed_reason);
  return info;
}

struct RebuiltRun {
  SweepRow row;
  std::string text;  // the text summary
};

RebuiltRun rebuild_run(const fs::path& dir, const RebuildOptions& options) {
  const json summary = report_detail::read_json_file((dir / "summary.json").string());
  // The config block is rewritten as a run writes it: through a Config (config_from_json keeps
  // what the reports need; the rest takes its default, as `llmperf report` always wrote it).
  Config config = config_from_json(summary.value("config", json::object()));
  if (!options.summary_format.empty()) config.summary_format = options.summary_format;
  if (!options.percentiles.empty()) config.percentiles = options.percentiles;
  const ReportOptions report = report_options(config);
  RunInfo info = info_from_json(summary, dir);

  MetricsOptions metrics;
  metrics.percentiles = report.percentiles;
  metrics.open_loop = info.rate >= 0;
  metrics.rate_segments = info.ramp.on() ? kRampSegments : 0;
  metrics.output_forced = report.output_forced;
  SummaryBuilder builder(metrics);  // record times are relative to the run's anchor: origin 0
  ClientTotals client_totals;
  VllmArrays vllm(0, report.secrets);
  bool anchored = false;
  read_records_file((dir / "requests.jsonl").string(), [&](RecordsLine& line) {
    builder.add(line.record);
    client_totals.add(line.record);
    vllm.add(line.record);
    // The records count from the anchor (0); the first that can, gives its wall-clock reading.
    if (!anchored && line.anchor_unix_ns) {
      info.anchor_unix_ns = *line.anchor_unix_ns;
      anchored = true;
    }
  });

  // requests.jsonl is the source and stays as it is; every other file is rewritten.
  RunTrace trace;
  RebuiltRun out{SweepRow{info, builder.finish(&trace)}, ""};
  const json old_server = summary.value("server", json());
  out.row.info.server = report_detail::identity_from_json(old_server);
  out.row.summary.server =
      report_detail::server_summary_from_files((dir / "server_metrics.jsonl").string(), old_server,
                                               client_totals, report.metrics_interval_s);
  write_run_outputs(report, out.row.info, out.row.summary, trace, vllm);
  out.text = render_text_summary(report, out.row.info, out.row.summary) +
             render_server_text(out.row.info, out.row.summary);
  return out;
}

bool is_run_dir(const fs::path& dir) {
  return fs::exists(dir / "summary.json") && fs::exists(dir / "requests.jsonl");
}

}  // namespace

std::string rebuild_reports(const RebuildOptions& options) {
  const fs::path dir(options.dir);
  if (!fs::is_directory(dir)) {
    throw std::runtime_error(fmt::format("{} is not a directory", options.dir));
  }
  if (is_run_dir(dir)) return rebuild_run(dir, options).text;

  std::vector<fs::path> runs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && is_run_dir(entry.path())) runs.push_back(entry.path());
  }
  if (runs.empty()) {
    throw std::runtime_error(
        fmt::format("{} holds no run: expected summary.json and requests.jsonl in it or in its "
                    "parallel_<p>_number_<n> subdirectories",
                    options.dir));
  }
  std::vector<RebuiltRun> rebuilt;
  for (const auto& run : runs) rebuilt.push_back(rebuild_run(run, options));
  std::stable_sort(rebuilt.begin(), rebuilt.end(), [](const RebuiltRun& a, const RebuiltRun& b) {
    const RunInfo& x = a.row.info;
    const RunInfo& y = b.row.info;
    return std::tie(x.rate, x.parallel, x.number) < std::tie(y.rate, y.parallel, y.number);
  });
  std::string text;
  std::vector<SweepRow> rows;
  for (auto& run : rebuilt) {
    text += run.text + "\n";
    rows.push_back(std::move(run.row));
  }
  if (rows.size() > 1) text += render_sweep_text(rows);
  write_sweep_outputs(dir.string(), rows);
  return text;
}

}  // namespace llmperf

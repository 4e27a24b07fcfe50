// summary.json's one reader and one writer (summary_file.h): the typed parts to and from JSON in
// the order they are written, the other blocks as they are; and what --baseline reads of the file.
#include "report/summary_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "report/files/summary_figures.h"
#include "report/internal.h"

namespace llmperf {
namespace {

using Json = SummaryFile::Json;

Json optional_integer_json(const std::optional<int64_t>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// --- the typed blocks, each written and read in the same order ---

Json run_json(const SummaryRun& r) {
  return Json{
      {"parallel", r.parallel},
      {"number", r.number},
      {"rate", number_or_null(r.rate)},
      {"started_at", r.started_at},
      {"duration_s", number_or_null(r.duration_s)},
      {"interrupted", r.interrupted},
      {"input_tokens", optional_integer_json(r.input_tokens)},
      {"output_tokens", optional_integer_json(r.output_tokens)},
      {"output_dir", r.output_dir},
      // CLOCK_MONOTONIC reading the times of requests.jsonl count from: correlates them with other
      // monotonic-clock logs on the same machine (a server's, a tracer's).
      {"monotonic_anchor_ns", r.monotonic_anchor_ns},
      // The wall clock read together with it: shards' records are aligned on it when merged.
      {"anchor_unix_ns", r.anchor_unix_ns},
  };
}

SummaryRun run_from_json(const Json& j) {
  SummaryRun r;
  read_json_field(j, "parallel", r.parallel);
  read_json_field(j, "number", r.number);
  r.rate = json_field<double>(j, "rate");
  read_json_field(j, "started_at", r.started_at);
  r.duration_s = json_field<double>(j, "duration_s");
  read_json_field(j, "interrupted", r.interrupted);
  r.input_tokens = json_field<int64_t>(j, "input_tokens");
  r.output_tokens = json_field<int64_t>(j, "output_tokens");
  read_json_field(j, "output_dir", r.output_dir);
  read_json_field(j, "monotonic_anchor_ns", r.monotonic_anchor_ns);
  read_json_field(j, "anchor_unix_ns", r.anchor_unix_ns);
  return r;
}

Json requests_json(const SummaryRequests& r) {
  Json out{{"total", r.total},
           {"succeeded", r.succeeded},
           {"failed", r.failed},
           {"warmup", r.warmup},
           {"resent", r.resent}};
  if (r.cancelled > 0) out["cancelled"] = r.cancelled;  // --cancel-rate only
  return out;
}

SummaryRequests requests_from_json(const Json& j) {
  SummaryRequests r;
  read_json_field(j, "total", r.total);
  read_json_field(j, "succeeded", r.succeeded);
  read_json_field(j, "failed", r.failed);
  read_json_field(j, "warmup", r.warmup);
  read_json_field(j, "resent", r.resent);
  read_json_field(j, "cancelled", r.cancelled);
  return r;
}

// Sharded runs: the shard this directory holds, or how a merge combined them (null: neither).
Json shard_file_json(const RunInfo::Shard& s) {
  if (s.count <= 1) return nullptr;
  Json j{{"count", s.count}, {"run_id", s.run_id}, {"merged", s.merged}};
  if (s.merged) {
    j["starts_unix_ns"] = s.starts_unix_ns;
    if (!s.starts_unix_ns.empty()) {
      const auto [low, high] =
          std::minmax_element(s.starts_unix_ns.begin(), s.starts_unix_ns.end());
      j["start_spread_ms"] = static_cast<double>(*high - *low) / 1e6;
    }
  } else {
    j["index"] = s.index;
    j["source"] = s.source;
  }
  return j;
}

RunInfo::Shard shard_from_json(const Json& j) {
  RunInfo::Shard s;
  if (!j.is_object()) return s;
  read_json_field(j, "count", s.count);
  read_json_field(j, "run_id", s.run_id);
  read_json_field(j, "merged", s.merged);
  read_json_field(j, "starts_unix_ns", s.starts_unix_ns);
  read_json_field(j, "index", s.index);
  read_json_field(j, "source", s.source);
  return s;
}

Json tokens_json(const SummaryTokens& t) {
  return Json{
      {"input_total", t.input_total},
      {"output_total", t.output_total},
      {"input_source", t.input_source},
      {"output_source", t.output_source},
      {"output_from_usage", t.output_from_usage},
      {"output_estimated", t.output_estimated},
      {"input_from_usage", t.input_from_usage},
      {"input_estimated", t.input_estimated},
      {"input_chars_total", t.input_chars_total},
      {"output_chars_total", t.output_chars_total},
  };
}

SummaryTokens tokens_from_json(const Json& j) {
  SummaryTokens t;
  read_json_field(j, "input_total", t.input_total);
  read_json_field(j, "output_total", t.output_total);
  read_json_field(j, "input_source", t.input_source);
  read_json_field(j, "output_source", t.output_source);
  read_json_field(j, "output_from_usage", t.output_from_usage);
  read_json_field(j, "output_estimated", t.output_estimated);
  read_json_field(j, "input_from_usage", t.input_from_usage);
  read_json_field(j, "input_estimated", t.input_estimated);
  read_json_field(j, "input_chars_total", t.input_chars_total);
  read_json_field(j, "output_chars_total", t.output_chars_total);
  return t;
}

std::optional<SummaryDistribution> distribution_from_json(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  SummaryDistribution d;
  read_json_field(j, "count", d.count);
  d.mean = json_field<double>(j, "mean");
  d.stddev = json_field<double>(j, "std");
  d.min = json_field<double>(j, "min");
  d.max = json_field<double>(j, "max");
  if (const auto points = j.find("percentiles"); points != j.end() && points->is_object()) {
    for (const auto& [key, value] : points->items()) {
      d.percentiles.emplace_back(
          key, value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt);
    }
  }
  d.percentiles_relative_error = json_field<double>(j, "percentiles_relative_error");
  return d;
}

Json metrics_json(const SummaryMetrics& m) {
  Json out = Json::object();
  for (const SummaryMetricKey& metric : summary_metric_keys()) {
    out[metric.key] = distribution_file_json(m.*metric.field);
  }
  return out;
}

SummaryMetrics metrics_from_json(const Json& j) {
  SummaryMetrics m;
  if (!j.is_object()) return m;
  for (const SummaryMetricKey& metric : summary_metric_keys()) {
    if (const auto it = j.find(metric.key); it != j.end()) {
      m.*metric.field = distribution_from_json(*it);
    }
  }
  return m;
}

Json summary_file_json(const SummaryFile& f) {
  Json out{
      {"schema", kSummarySchema},
      {"llmperf_version", f.llmperf_version},
      {"run", run_json(f.run)},
      {"config", f.config},
      {"dataset", f.dataset},
      {"workload", f.workload},
      {"requests", requests_json(f.requests)},
      {"failures_by_kind", f.failures_by_kind},
      {"failure_examples", f.failure_examples},
      {"window_s", number_or_null(f.window_s)},
      {metric_key(Metric::kQps), number_or_null(f.qps)},
      {metric_key(Metric::kOutputThroughput), number_or_null(f.output_throughput_tok_s)},
      {metric_key(Metric::kTotalThroughput), number_or_null(f.total_throughput_tok_s)},
      {"input_throughput_chars_s", number_or_null(f.input_throughput_chars_s)},
      {"output_throughput_chars_s", number_or_null(f.output_throughput_chars_s)},
      {"peak_output_throughput_tok_s", number_or_null(f.peak_output_throughput_tok_s)},
      {"peak_concurrency", f.peak_concurrency},
      {"exactness", f.exactness},
      {"shared_prefix", f.shared_prefix},
      {"conversations", f.conversations},
      {"reasoning", f.reasoning},
      {"shard", shard_file_json(f.shard)},
      {"items", f.items},
      {"trace", f.trace},
      {std::string(metric_info(Metric::kGoodput).name), f.goodput},
      {"open_loop", f.open_loop},
      {"client_bound", f.client_bound},
      {"client", f.client},
      {"slo", f.slo},
      {"server", f.server},
      {"http", f.http},
      {"tokens", tokens_json(f.tokens)},
      {"metrics", metrics_json(f.metrics)},
      {"metric_definitions", f.metric_definitions},
  };
  if (!f.by_url.is_null()) out["by_url"] = f.by_url;  // several --url only
  return out;
}

// `object` with `key`: `value` inserted right after `after` (the keys keep their order).
Json with_key_after(const Json& object, const char* after, const char* key, const Json& value) {
  Json out = Json::object();
  for (const auto& [name, item] : object.items()) {
    out[name] = item;
    if (name == after) out[key] = value;
  }
  return out;
}

// The file's JSON with the blocks that only some runs have.
Json summary_file_full_json(const SummaryFile& f) {
  Json j = summary_file_json(f);
  if (!f.stopped_early.is_null()) j = with_key_after(j, "run", "stopped_early", f.stopped_early);
  if (!f.repeats.is_null()) j = with_key_after(j, "metrics", "repeats", f.repeats);
  if (!f.push_gateway.is_null()) j = with_key_after(j, "server", "push_gateway", f.push_gateway);
  return j;
}

}  // namespace

const std::vector<SummaryMetricKey>& summary_metric_keys() {
  using M = SummaryMetrics;
  using S = RunSummary;
  const auto of = [](Metric metric, std::optional<SummaryDistribution> M::*field) {
    const MetricInfo& info = metric_info(metric);
    return SummaryMetricKey{metric, metric_key(metric), field, info.dist, base_per_unit(info)};
  };
  static const std::vector<SummaryMetricKey> keys = {
      of(Metric::kLatency, &M::latency_s),
      of(Metric::kTtft, &M::ttft_ms),
      of(Metric::kTtfat, &M::ttfat_ms),
      of(Metric::kTtfb, &M::ttfb_ms),
      of(Metric::kTpot, &M::tpot_ms),
      of(Metric::kItl, &M::itl_ms),
      of(Metric::kInputTokens, &M::input_tokens),
      of(Metric::kOutputTokens, &M::output_tokens),
      {{}, "chunks_per_request", &M::chunks_per_request, &S::chunks_per_request, 1},
      {{}, "output_tok_s_per_request", &M::output_tok_s_per_request, &S::output_tps_per_request, 1},
      {{}, "total_tok_s_per_request", &M::total_tok_s_per_request, &S::total_tps_per_request, 1},
      of(Metric::kLatencyFromPlanned, &M::latency_from_planned_s),
      of(Metric::kTtftFromPlanned, &M::ttft_from_planned_ms),
      of(Metric::kTtfatFromPlanned, &M::ttfat_from_planned_ms),
      of(Metric::kTtfbFromPlanned, &M::ttfb_from_planned_ms),
      {{}, "schedule_lag_ms", &M::schedule_lag_ms, &S::schedule_lag_ns, report_detail::kNsPerMs},
  };
  return keys;
}

Json summary_metrics_json(const SummaryMetrics& metrics) { return metrics_json(metrics); }

std::optional<double> SummaryDistribution::percentile(std::string_view key) const {
  for (const auto& [name, value] : percentiles) {
    if (name == key) return value;
  }
  return std::nullopt;
}

Json number_or_null(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

Json number_or_null(std::optional<double> value) {
  if (!value) return nullptr;
  return number_or_null(*value);
}

Json distribution_file_json(const std::optional<SummaryDistribution>& d) {
  if (!d) return nullptr;
  Json points = Json::object();
  for (const auto& [key, value] : d->percentiles) points[key] = number_or_null(value);
  Json out{{"count", d->count},
           {"mean", number_or_null(d->mean)},
           {"std", number_or_null(d->stddev)},
           {"min", number_or_null(d->min)},
           {"max", number_or_null(d->max)},
           {"percentiles", points}};
  if (d->percentiles_relative_error) {
    out["percentiles_relative_error"] = *d->percentiles_relative_error;
  }
  return out;
}

SummaryFile parse_summary_file(std::string_view text) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw std::invalid_argument(fmt::format("not valid JSON ({})", e.what()));
  }
  if (!j.is_object() || !j.contains("schema")) {
    throw std::invalid_argument(fmt::format(
        "not an llmperf summary.json (no \"schema\"; expected \"{}\")", kSummarySchema));
  }
  const Json& schema = j.at("schema");
  if (!schema.is_string() || schema.get<std::string>() != kSummarySchema) {
    throw std::invalid_argument(
        fmt::format("unsupported schema {} (expected \"{}\")", schema.dump(), kSummarySchema));
  }
  const auto block = [&j](std::string_view key) {
    const auto it = j.find(key);
    return it == j.end() ? Json() : *it;
  };
  SummaryFile f;
  read_json_field(j, "llmperf_version", f.llmperf_version);
  f.run = run_from_json(block("run"));
  f.config = block("config");
  f.dataset = block("dataset");
  f.workload = block("workload");
  f.requests = requests_from_json(block("requests"));
  f.failures_by_kind = block("failures_by_kind");
  f.failure_examples = block("failure_examples");
  f.window_s = json_field<double>(j, "window_s");
  f.qps = json_field<double>(j, metric_key(Metric::kQps).c_str());
  f.output_throughput_tok_s = json_field<double>(j, metric_key(Metric::kOutputThroughput).c_str());
  f.total_throughput_tok_s = json_field<double>(j, metric_key(Metric::kTotalThroughput).c_str());
  f.input_throughput_chars_s = json_field<double>(j, "input_throughput_chars_s");
  f.output_throughput_chars_s = json_field<double>(j, "output_throughput_chars_s");
  f.peak_output_throughput_tok_s = json_field<double>(j, "peak_output_throughput_tok_s");
  read_json_field(j, "peak_concurrency", f.peak_concurrency);
  f.exactness = block("exactness");
  f.shared_prefix = block("shared_prefix");
  f.conversations = block("conversations");
  f.reasoning = block("reasoning");
  f.shard = shard_from_json(block("shard"));
  f.items = block("items");
  f.trace = block("trace");
  f.goodput = block(metric_info(Metric::kGoodput).name);
  f.open_loop = block("open_loop");
  read_json_field(j, "client_bound", f.client_bound);
  f.client = block("client");
  f.slo = block("slo");
  f.server = block("server");
  f.http = block("http");
  f.tokens = tokens_from_json(block("tokens"));
  f.metrics = metrics_from_json(block("metrics"));
  f.metric_definitions = block("metric_definitions");
  f.stopped_early = block("stopped_early");
  f.repeats = block("repeats");
  f.by_url = block("by_url");
  f.push_gateway = block("push_gateway");
  return f;
}

std::string summary_file_text(const SummaryFile& file) {
  return summary_file_full_json(file).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

SummaryFile read_summary_file(const std::string& path) {
  const std::string text = report_detail::read_text_file(path);
  try {
    return parse_summary_file(text);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
}

// --- --baseline: the key metrics of a stored run ---

BaselineSummary load_baseline(const std::string& path) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--baseline '{}': {}", path, why));
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fail("cannot open the file (give the path of a run's summary.json)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw fail("cannot read the file");
  SummaryFile file;
  try {
    file = parse_summary_file(text.str());
  } catch (const std::invalid_argument& e) {
    throw fail(e.what());
  }

  BaselineSummary baseline;
  baseline.path = path;
  // The key figures as summary.json holds them (summary_figures.h), in the baseline's units.
  const std::vector<SummaryFigure> figures = summary_figures(file);
  for (size_t i = 0; i < key_figures().size(); ++i) {
    const KeyFigure& key = key_figures()[i];
    const SummaryFigure* figure = find_figure(figures, figure_name(key));
    if (figure != nullptr && figure->value) {
      key_metric(baseline.metrics, i) = to_figure_unit(key, *figure->value);
    }
  }

  if (file.repeats.is_object()) {
    for (const auto& [key, metric] : file.repeats.items()) {
      const std::optional<double> low = json_field<double>(metric, "ci95_low");
      const std::optional<double> high = json_field<double>(metric, "ci95_high");
      if (low && high) baseline.repeat_intervals[key] = {*low, *high};
    }
  }

  const SummaryRun& run = file.run;
  baseline.description = fmt::format("parallel {}", run.parallel);
  if (run.rate) baseline.description += fmt::format(", rate {}", *run.rate);
  baseline.description += fmt::format(", number {}", run.number);
  if (!run.started_at.empty()) baseline.description += ", " + run.started_at;
  return baseline;
}

}  // namespace llmperf

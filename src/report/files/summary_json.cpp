// summary.json's content from a run (summary_file(): a SummaryFile, which summary_file.cpp writes
// and reads) and the run's identity read back from one (run_info_from_summary), the masked config,
// plus the JSON helpers the other report files share. Times leave here in explicit units: metrics
// in ms or s.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "core/version.h"
#include "metrics/catalogue.h"
#include "metrics/goodput.h"
#include "report/http_phases_view.h"
#include "report/internal.h"

namespace llmperf {
namespace report_detail {
namespace {

Json dataset_json(const DatasetStats& stats) {
  return Json{{"records_read", stats.records_read},
              {"accepted", stats.accepted},
              {"skipped_length", stats.skipped_length},
              {"skipped_empty", stats.skipped_empty},
              {"skipped_turns", stats.skipped_turns},
              {"malformed", stats.malformed},
              {"malformed_lines", stats.malformed_lines},
              {"first_malformed_reason", stats.first_malformed_reason}};
}

DatasetStats dataset_from_json(const Json& j) {
  DatasetStats stats;
  read_json_field(j, "records_read", stats.records_read);
  read_json_field(j, "accepted", stats.accepted);
  read_json_field(j, "skipped_length", stats.skipped_length);
  read_json_field(j, "skipped_empty", stats.skipped_empty);
  read_json_field(j, "skipped_turns", stats.skipped_turns);
  read_json_field(j, "malformed", stats.malformed);
  read_json_field(j, "malformed_lines", stats.malformed_lines);
  read_json_field(j, "first_malformed_reason", stats.first_malformed_reason);
  return stats;
}

// What each metric means: the catalogue's definitions, with the other figures summary.json names.
Json metric_definitions_json() {
  Json out = Json::object();
  const auto define = [&out](std::initializer_list<Metric> metrics) {
    for (const Metric metric : metrics) {
      const MetricInfo& info = metric_info(metric);
      out[std::string(info.name)] = info.definition;
    }
  };
  define({Metric::kTtft, Metric::kTtfat});
  out["reasoning_time"] = "first answer chunk minus first reasoning chunk, streams that reasoned";
  out["items_throughput"] = "embeddings inputs (rerank documents) of successful requests / window";
  define({Metric::kTtfb, Metric::kLatency, Metric::kTpot, Metric::kItl});
  out["window"] = "earliest send to latest end among measured (non-warm-up) requests";
  define({Metric::kQps, Metric::kOutputThroughput, Metric::kTotalThroughput});
  out["percentiles"] = "linear interpolation between closest ranks (numpy default)";
  return out;
}

}  // namespace


double round_to(double value, int decimals) {
  double factor = std::pow(10.0, decimals);
  return std::round(value * factor) / factor;
}

std::string percentile_label(double p) { return fmt::format("{}", p); }

std::optional<size_t> percentile_index(const std::vector<double>& percentiles, double p) {
  for (size_t i = 0; i < percentiles.size(); ++i) {
    if (percentiles[i] == p) return i;
  }
  return std::nullopt;
}

std::optional<double> percentile_in(const Distribution& d, size_t i, double unit) {
  if (d.empty() || i >= d.percentiles.size()) return std::nullopt;
  return d.percentiles[i] / unit;
}

std::optional<double> mean_in(const Distribution& d, double unit) {
  if (d.empty()) return std::nullopt;
  return d.mean / unit;
}

std::optional<SummaryDistribution> summary_distribution(const Distribution& d,
                                                        const std::vector<double>& percentiles,
                                                        double unit) {
  if (d.empty()) return std::nullopt;
  const auto finite = [](double value) {
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  };
  SummaryDistribution out;
  out.count = static_cast<int64_t>(d.count);
  out.mean = finite(d.mean / unit);
  out.stddev = finite(d.std / unit);
  out.min = finite(d.min / unit);
  out.max = finite(d.max / unit);
  for (size_t i = 0; i < percentiles.size(); ++i) {
    const std::optional<double> value = percentile_in(d, i, unit);
    out.percentiles.emplace_back("p" + percentile_label(percentiles[i]),
                                 value ? finite(*value) : std::nullopt);
  }
  // Present only when the percentiles came from PooledSamples' histogram (very long runs).
  if (d.percentiles_approximate) out.percentiles_relative_error = PooledSamples::kRelativeError;
  return out;
}

Json distribution_json(const Distribution& d, const std::vector<double>& percentiles, double unit) {
  return distribution_file_json(summary_distribution(d, percentiles, unit));
}

std::string approximation_note(const RunSummary& s) {
  if (!s.itl_ns.percentiles_approximate) return "";
  return fmt::format(
      "ITL percentiles come from a histogram of all {} gaps (more than the {} kept exactly): each "
      "is within {:.4f} % of the exact value; count, mean, std, min and max are exact.\n",
      s.itl_ns.count, PooledSamples::kDefaultExactLimit, PooledSamples::kRelativeError * 100);
}

// The `goodput` object: the bounds (ms, null when not given) and the results; null when disabled.
Json goodput_json(const RunSummary& summary) {
  if (!summary.goodput_enabled) return nullptr;
  auto bound_ms = [](const std::optional<int64_t>& ns) -> Json {
    if (!ns) return nullptr;
    return static_cast<double>(*ns) / kNsPerMs;
  };
  Json out = Json::object();
  for (const GoodputBound& bound : goodput_bounds()) {
    out[fmt::format("{}_ms", goodput_name(bound.metric))] =
        bound_ms(summary.goodput_spec.*bound.bound_ns);
  }
  out["good_requests"] = summary.good_requests;
  out[metric_key_in(Metric::kGoodput, "", "req/s")] = number_or_null(summary.goodput_rps);
  out[metric_key(Metric::kGoodFraction)] = number_or_null(summary.good_fraction);
  return out;
}

// The "open_loop" object (null for closed-loop runs): requested vs achieved arrival rate.
Json open_loop_json(const ReportOptions& options, const RunInfo& info, const RunSummary& summary) {
  if (info.rate <= 0) return nullptr;
  Json ramp = nullptr;
  if (info.ramp.on()) {
    Json segments = Json::array();
    for (const RateSegment& seg : summary.rate_segments) {
      const auto ms = [](const std::optional<double>& ns) {
        return ns ? number_or_null(*ns / kNsPerMs) : Json(nullptr);
      };
      segments.push_back(
          Json{{"start_s", number_or_null(seg.start_s)},
               {"end_s", number_or_null(seg.end_s)},
               {"requests", seg.requests},
               {"failed", seg.failed},
               {"planned_rate", number_or_null(seg.planned_rate)},
               {"sent_rate", number_or_null(seg.sent_rate)},
               {metric_key(Metric::kTtft, "p50"), ms(seg.ttft_p50_ns)},
               {metric_key(Metric::kTtft, "mean"), ms(seg.ttft_mean_ns)},
               {metric_key_in(Metric::kLatency, "p50", "ms"), ms(seg.latency_p50_ns)},
               {metric_key_in(Metric::kLatency, "mean", "ms"), ms(seg.latency_mean_ns)}});
    }
    ramp = Json{{"strategy", info.ramp.strategy},
                {"start_rps", number_or_null(info.ramp.start_rps)},
                {"end_rps", number_or_null(info.ramp.end_rps)},
                {"segments", segments}};
  }
  const OpenLoopSummary& o = summary.open_loop;
  const std::string cap_note = cap_reached_text(info, summary);
  return Json{
      {"requested_rate", number_or_null(info.rate)},
      {"ramp_up", ramp},
      {"achieved_rate", number_or_null(summary.achieved_rate)},
      {"scheduled_rate", number_or_null(summary.scheduled_rate)},
      {"sustained_rate", number_or_null(summary.sustained_rate)},
      {"arrival", info.workload.trace.on ? "trace" : options.arrival},
      {"burstiness", number_or_null(options.burstiness)},
      {"in_flight_cap", info.parallel},
      {"sends", o.sends},
      {"cap_reached_sends", o.slot_waits},
      {"cap_reached_share", o.sends > 0 ? number_or_null(o.cap_reached_share()) : Json(nullptr)},
      {"slot_wait_unrecorded", o.slot_unknown},
      {"slot_wait_ms", distribution_json(o.slot_wait_ns, summary.percentiles, kNsPerMs)},
      {"client_lag_ms", distribution_json(o.client_lag_ns, summary.percentiles, kNsPerMs)},
      {"cap_note", cap_note.empty() ? Json(nullptr) : Json(cap_note)}};
}

// The ramp of an "open_loop" object (off when it has none).
RampUp ramp_from_json(const Json& open_loop) {
  RampUp ramp;
  const Json ramp_up = open_loop.is_object() ? open_loop.value("ramp_up", Json()) : Json();
  if (!ramp_up.is_object()) return ramp;
  read_json_field(ramp_up, "strategy", ramp.strategy);
  read_json_field(ramp_up, "start_rps", ramp.start_rps);
  read_json_field(ramp_up, "end_rps", ramp.end_rps);
  return ramp;
}

// The "slo" object: every --slo outcome and the run's verdict (null without --slo).
Json slo_json(const RunInfo& info) {
  if (info.slo.empty()) return nullptr;
  Json results = Json::array();
  bool passed = true;
  for (const RunInfo::SloOutcome& outcome : info.slo) {
    results.push_back({{"expression", outcome.expression},
                       {"passed", outcome.passed},
                       {"detail", outcome.detail}});
    passed = passed && outcome.passed;
  }
  return Json{{"passed", passed}, {"results", results}};
}

// The "client" object: whether llmperf itself limited the measurement (null when not assessed).
Json client_json(const RunSummary& summary) {
  const ClientHealth& c = summary.client;
  if (!c.measured) return nullptr;
  const auto limit_ms = [](const LatenessJudgement& j) {
    return j.p99_ns > 0 ? Json(j.limit_ns / kNsPerMs) : Json(nullptr);
  };
  const MachineLoad& m = c.machine;
  Json machine = nullptr;
  if (m.measured) {
    machine = Json{{"cores", m.cores},
                   {"others_cpu_s", number_or_null(m.others_cpu_s)},
                   {"steal_s", number_or_null(m.steal_s)},
                   {"involuntary_switches", m.involuntary_switches},
                   {"run_queue_wait_s",
                    m.run_queue_wait_s >= 0 ? number_or_null(m.run_queue_wait_s) : Json(nullptr)}};
  }
  return Json{
      {"client_bound", c.client_bound},
      {"warnings", c.warnings},
      {"machine_busy", c.machine_busy},
      {"machine_warnings", c.machine_warnings},
      {"cpu_s", number_or_null(c.cpu_s)},
      {"cpu_utilization", number_or_null(c.cpu_utilization)},
      {"busy_share", number_or_null(c.busy_share)},
      {"threads", c.threads},
      {"threads_reason", c.threads_reason},
      {"stamp_delay_ms", distribution_json(c.stamp_delay_ns, summary.percentiles, kNsPerMs)},
      {"stamp_delay_limit_ms", limit_ms(c.stamp_delay)},
      {"client_lag_limit_ms", limit_ms(c.client_lag)},
      {"machine", machine}};
}

// Reasoning models: the two phases of the streams that reasoned (null when none did).
Json reasoning_json(const RunSummary& s) {
  const ReasoningSummary& r = s.reasoning;
  if (!r.any()) return nullptr;
  const auto& p = s.percentiles;
  return Json{
      {"requests", r.requests},
      {"reasoning_tokens_total", r.reasoning_tokens},
      {"answer_tokens_total", r.answer_tokens},
      {"token_source", r.source()},
      {"tokens_from_usage", r.tokens_from_usage},
      {"tokens_estimated", r.tokens_estimated},
      {"reasoning_time_ms", distribution_json(r.duration_ns, p, kNsPerMs)},
      {"reasoning_tokens", distribution_json(r.reasoning_tokens_per_request, p, 1)},
      {"answer_tokens", distribution_json(r.answer_tokens_per_request, p, 1)},
      {metric_key(Metric::kItl, "reasoning"), distribution_json(r.itl_reasoning_ns, p, kNsPerMs)},
      {metric_key(Metric::kItl, "answer"), distribution_json(r.itl_answer_ns, p, kNsPerMs)},
  };
}

// Embeddings and rerank: what the requests carried (null for the APIs that generate text).
Json items_json(const ReportOptions& options, const RunSummary& s) {
  if (!s.pooling) return nullptr;
  return Json{{"kind", options.api_kind == ApiKind::kRerank ? "documents" : "inputs"},
              {"total", s.total_items},
              {"per_s", number_or_null(s.items_throughput)},
              {"input_throughput_tok_s", number_or_null(s.total_throughput)}};
}

SummaryFile summary_file(const ReportOptions& options, const RunInfo& info,
                         const RunSummary& summary) {
  const auto finite = [](double value) {
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  };
  SummaryFile f;
  f.llmperf_version = kLlmperfVersion;
  f.run.parallel = info.parallel;
  f.run.number = info.number;
  if (info.rate >= 0) f.run.rate = finite(info.rate);
  f.run.started_at = info.started_at;
  f.run.duration_s = finite(info.duration_s);
  f.run.interrupted = info.interrupted;
  if (info.input_tokens >= 0) f.run.input_tokens = info.input_tokens;
  if (info.output_tokens >= 0) f.run.output_tokens = info.output_tokens;
  f.run.output_dir = info.output_dir;
  f.run.monotonic_anchor_ns = info.anchor_steady_ns;
  f.run.anchor_unix_ns = info.anchor_unix_ns;
  f.config = options.config_json.empty() ? Json(nullptr) : Json::parse(options.config_json);
  f.dataset = dataset_json(info.dataset);
  f.workload = workload_json(info);
  f.requests = {summary.total,  summary.succeeded, summary.failed,
                summary.warmup, summary.resent,    summary.cancelled};
  f.failures_by_kind = summary.failures_by_kind;
  f.failure_examples = summary.failure_examples;
  f.window_s = finite(static_cast<double>(summary.window_ns) / kNsPerS);
  f.qps = finite(summary.qps);
  f.output_throughput_tok_s = finite(summary.output_throughput);
  f.total_throughput_tok_s = finite(summary.total_throughput);
  f.input_throughput_chars_s = finite(summary.input_chars_throughput);
  f.output_throughput_chars_s = finite(summary.output_chars_throughput);
  f.peak_output_throughput_tok_s = finite(summary.peak_output_throughput);
  f.peak_concurrency = summary.peak_concurrency;
  f.exactness = exactness_json(info, summary);
  f.shared_prefix = shared_prefix_json(summary);
  f.conversations = conversations_json(summary);
  f.reasoning = reasoning_json(summary);
  f.shard = info.shard;
  f.items = items_json(options, summary);
  f.trace = trace_json(info, summary);
  f.goodput = goodput_json(summary);
  f.open_loop = open_loop_json(options, info, summary);
  f.client_bound = summary.client.client_bound;
  f.client = client_json(summary);
  f.slo = slo_json(info);
  f.server = server_json(info, summary);
  f.http = http_json(summary);
  f.tokens = {summary.total_input_tokens,
              summary.total_output_tokens,
              summary.input_provenance.label(),
              summary.output_provenance.label(),
              summary.output_provenance.from_usage,
              summary.output_provenance.estimated,
              summary.input_provenance.from_usage,
              summary.input_provenance.estimated,
              summary.total_input_chars,
              summary.total_output_chars};
  const auto& p = summary.percentiles;
  SummaryMetrics& m = f.metrics;
  for (const SummaryMetricKey& key : summary_metric_keys()) {
    m.*key.field = summary_distribution(summary.*key.dist, p, key.unit);
  }
  f.metric_definitions = metric_definitions_json();
  if (info.stopped_early) {
    f.stopped_early = Json{{"reason", info.stopped_early->reason},
                           {"after_requests", info.stopped_early->after_requests},
                           {"detail", info.stopped_early->detail}};
  }
  f.by_url = by_url_json(options, info, summary);
  if (info.push_gateway) {
    f.push_gateway = Json{{"url", info.push_gateway->url},
                          {"interval_s", info.push_gateway->interval_s},
                          {"pushes", info.push_gateway->pushes},
                          {"failed", info.push_gateway->failed}};
  }
  return f;
}

}  // namespace report_detail

RunInfo run_info_from_summary(const SummaryFile& file, const std::string& dir) {
  RunInfo info;
  const SummaryRun& run = file.run;
  info.parallel = run.parallel;
  info.number = run.number;
  info.rate = run.rate.value_or(-1);
  info.started_at = run.started_at;
  info.duration_s = run.duration_s.value_or(0);
  info.interrupted = run.interrupted;
  info.input_tokens = run.input_tokens.value_or(-1);
  info.output_tokens = run.output_tokens.value_or(-1);
  info.output_dir = dir;
  // Kept for summary.json only: the records read back count from 0, and so does the rebuild.
  info.anchor_steady_ns = run.monotonic_anchor_ns;
  info.anchor_unix_ns = run.anchor_unix_ns;
  info.dataset = report_detail::dataset_from_json(file.dataset);
  info.workload = report_detail::workload_from_json(nlohmann::json(file.workload));
  info.workload.trace = report_detail::trace_from_json(nlohmann::json(file.trace));
  info.ramp = report_detail::ramp_from_json(file.open_loop);
  info.shard = file.shard;
  if (file.stopped_early.is_object()) {
    EarlyStopDecision stop;
    read_json_field(file.stopped_early, "reason", stop.reason);
    read_json_field(file.stopped_early, "after_requests", stop.after_requests);
    read_json_field(file.stopped_early, "detail", stop.detail);
    info.stopped_early = stop;
  }
  if (file.push_gateway.is_object()) {
    RunInfo::PushGateway push;
    read_json_field(file.push_gateway, "url", push.url);
    read_json_field(file.push_gateway, "interval_s", push.interval_s);
    read_json_field(file.push_gateway, "pushes", push.pushes);
    read_json_field(file.push_gateway, "failed", push.failed);
    info.push_gateway = push;
  }
  return info;
}

SummaryFile written_summary_file(const ReportOptions& options, const RunInfo& info,
                                 const RunSummary& summary) {
  return parse_summary_file(report_detail::redact(
      summary_file_text(report_detail::summary_file(options, info, summary)), options.secrets));
}

}  // namespace llmperf

// summary.json ("llmperf.summary/1"), the masked config, and requests.jsonl (one lossless record
// per line, readable back with record_from_json). Times leave here in explicit units: metrics in
// ms or s, record timestamps as integer nanoseconds relative to the run's anchor.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "report_internal.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr const char* kSchema = "llmperf.summary/1";
constexpr const char* kVersion = "0.1.0";
constexpr const char* kMasked = "***";

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

template <typename T>
Json optional_json(const std::optional<T>& value) {
  if (!value) return nullptr;
  if constexpr (std::is_floating_point_v<T>) return number_or_null(*value);
  return *value;
}

Json extra_args_json(const std::string& extra_args) {
  if (extra_args.empty()) return nullptr;
  Json parsed = Json::parse(extra_args, nullptr, false);
  if (parsed.is_discarded()) return extra_args;
  return parsed;
}

Json dataset_json(const DatasetStats& stats) {
  return Json{{"records_read", stats.records_read},
              {"accepted", stats.accepted},
              {"skipped_length", stats.skipped_length},
              {"skipped_empty", stats.skipped_empty},
              {"malformed", stats.malformed},
              {"malformed_lines", stats.malformed_lines},
              {"first_malformed_reason", stats.first_malformed_reason}};
}

Json metric_definitions_json() {
  return Json{
      {"ttft", "first output-carrying chunk minus the actual send time (stream only)"},
      {"ttfb", "first response byte minus the actual send time"},
      {"latency", "last response byte minus the actual send time (end-to-end)"},
      {"tpot", "(latency - ttft) / (output_tokens - 1) per request with output_tokens > 1"},
      {"itl", "gaps between consecutive output-carrying chunks, pooled across requests"},
      {"window", "earliest send to latest end among measured (non-warm-up) requests"},
      {"qps", "successful requests / window"},
      {"output_throughput", "sum of output tokens of successful requests / window"},
      {"total_throughput", "sum of input and output tokens of successful requests / window"},
      {"percentiles", "linear interpolation between closest ranks (numpy default)"},
  };
}

int64_t time_from_json(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return -1;
  const std::optional<int64_t> t = json_integer<int64_t>(*it);
  if (!t) throw std::runtime_error(fmt::format("\"{}\" is not a time in nanoseconds", key));
  return *t;
}

ErrorKind error_kind_from_name(const std::string& name) {
  if (name.empty() || name == "none") return ErrorKind::kNone;
  if (name.rfind("http_", 0) == 0) return ErrorKind::kHttp;
  for (int k = 0; k <= static_cast<int>(ErrorKind::kCancelled); ++k) {
    auto kind = static_cast<ErrorKind>(k);
    if (failure_kind_name(kind, 0) == name) return kind;
  }
  return ErrorKind::kTransport;
}

TokenSource token_source_from_name(const std::string& name) {
  for (int s = 0; s <= static_cast<int>(TokenSource::kCharCount); ++s) {
    auto source = static_cast<TokenSource>(s);
    if (token_source_name(source) == name) return source;
  }
  return TokenSource::kNone;
}

}  // namespace

Json number_or_null(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

Json number_or_null(std::optional<double> value) {
  if (!value) return nullptr;
  return number_or_null(*value);
}

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

Json distribution_json(const Distribution& d, const std::vector<double>& percentiles, double unit) {
  if (d.empty()) return nullptr;
  Json points = Json::object();
  for (size_t i = 0; i < percentiles.size(); ++i) {
    points["p" + percentile_label(percentiles[i])] = number_or_null(percentile_in(d, i, unit));
  }
  Json out{{"count", d.count},
           {"mean", number_or_null(d.mean / unit)},
           {"std", number_or_null(d.std / unit)},
           {"min", number_or_null(d.min / unit)},
           {"max", number_or_null(d.max / unit)},
           {"percentiles", points}};
  // Present only when the percentiles came from PooledSamples' histogram (very long runs).
  if (d.percentiles_approximate) out["percentiles_relative_error"] = PooledSamples::kRelativeError;
  return out;
}

std::string approximation_note(const RunSummary& s) {
  if (!s.itl_ns.percentiles_approximate) return "";
  return fmt::format(
      "ITL percentiles come from a histogram of all {} gaps (more than the {} kept exactly): each "
      "is within {:.4f} % of the exact value; count, mean, std, min and max are exact.\n",
      s.itl_ns.count, PooledSamples::kDefaultExactLimit, PooledSamples::kRelativeError * 100);
}

bool is_secret_header(const std::string& name) {
  static const char* const kExact[] = {"authorization", "proxy-authorization", "x-api-key",
                                       "api-key", "cookie"};
  std::string lower = lowercase(name);
  for (const char* exact : kExact) {
    if (lower == exact) return true;
  }
  return lower.find("token") != std::string::npos || lower.find("secret") != std::string::npos ||
         lower.find("key") != std::string::npos;
}

Json config_json(const Config& config) {
  Json headers = Json::object();
  for (const auto& [name, value] : config.headers) {
    headers[name] = is_secret_header(name) ? Json(kMasked) : Json(value);
  }
  Json max_prompt_length = nullptr;
  if (config.max_prompt_length != std::numeric_limits<int64_t>::max()) {
    max_prompt_length = config.max_prompt_length;
  }
  return Json{
      {"api", config.api},
      {"api_kind", config.api_kind == ApiKind::kChat ? "chat" : "completions"},
      {"url", config.url},
      {"model", config.model},
      {"api_key", config.api_key.empty() ? Json(nullptr) : Json(kMasked)},
      {"headers", headers},
      {"insecure", config.insecure},
      {"dataset", config.dataset},
      {"dataset_path", config.dataset_path},
      {"prompt", config.prompt},
      {"min_prompt_length", config.min_prompt_length},
      {"max_prompt_length", max_prompt_length},
      {"parallel", config.parallel},
      {"number", config.number},
      {"threads", config.threads},
      {"sleep_interval", number_or_null(config.sleep_interval_s)},
      {"seed", config.seed},
      {"stream", config.stream},
      {"max_tokens", optional_json(config.max_tokens)},
      {"min_tokens", optional_json(config.min_tokens)},
      {"temperature", optional_json(config.temperature)},
      {"top_p", optional_json(config.top_p)},
      {"stop", config.stop},
      {"stop_token_ids", config.stop_token_ids},
      {"extra_args", extra_args_json(config.extra_args)},
      {"connect_timeout", number_or_null(config.connect_timeout_s)},
      {"read_timeout", number_or_null(config.read_timeout_s)},
      {"total_timeout", number_or_null(config.total_timeout_s)},
      {"outputs_dir", config.outputs_dir},
      {"name", config.name},
      {"log_every_n_query", config.log_every_n_query},
      {"debug", config.debug},
      {"percentiles", config.percentiles},
      {"probe", config.probe},
      {"rate", config.rate},
      {"arrival", config.arrival},
      {"burstiness", config.burstiness},
      {"duration", config.duration_s},
      {"warmup_num", config.warmup_num},
      {"goodput", config.goodput},
      {"slo", config.slo},
      {"junit", config.junit_path},
      {"baseline", config.baseline_path},
      {"tolerance", config.tolerance},
      {"search", config.search},
      {"search_range", config.search_range},
  };
}

// The "goodput" object: the bounds (ms, null when not given) and the results; null when disabled.
Json goodput_json(const RunSummary& summary) {
  if (!summary.goodput_enabled) return nullptr;
  auto bound_ms = [](const std::optional<int64_t>& ns) -> Json {
    if (!ns) return nullptr;
    return static_cast<double>(*ns) / kNsPerMs;
  };
  const GoodputSpec& spec = summary.goodput_spec;
  return Json{{"ttft_ms", bound_ms(spec.ttft_ns)},
              {"tpot_ms", bound_ms(spec.tpot_ns)},
              {"e2el_ms", bound_ms(spec.e2el_ns)},
              {"good_requests", summary.good_requests},
              {"goodput_req_s", number_or_null(summary.goodput_rps)},
              {"good_fraction", number_or_null(summary.good_fraction)}};
}

// The "open_loop" object (null for closed-loop runs): requested vs achieved arrival rate.
Json open_loop_json(const Config& config, const RunInfo& info, const RunSummary& summary) {
  if (info.rate <= 0) return nullptr;
  return Json{{"requested_rate", number_or_null(info.rate)},
              {"achieved_rate", number_or_null(summary.achieved_rate)},
              {"arrival", config.arrival},
              {"burstiness", number_or_null(config.burstiness)}};
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
  return Json{
      {"client_bound", c.client_bound},
      {"warnings", c.warnings},
      {"cpu_s", number_or_null(c.cpu_s)},
      {"cpu_utilization", number_or_null(c.cpu_utilization)},
      {"threads", c.threads},
      {"stamp_delay_ms", distribution_json(c.stamp_delay_ns, summary.percentiles, kNsPerMs)}};
}

Json summary_json(const Config& config, const RunInfo& info, const RunSummary& summary) {
  const auto& p = summary.percentiles;
  Json metrics{
      {"latency_s", distribution_json(summary.latency_ns, p, kNsPerS)},
      {"ttft_ms", distribution_json(summary.ttft_ns, p, kNsPerMs)},
      {"ttfb_ms", distribution_json(summary.ttfb_ns, p, kNsPerMs)},
      {"tpot_ms", distribution_json(summary.tpot_ns, p, kNsPerMs)},
      {"itl_ms", distribution_json(summary.itl_ns, p, kNsPerMs)},
      {"input_tokens", distribution_json(summary.input_tokens, p, 1)},
      {"output_tokens", distribution_json(summary.output_tokens, p, 1)},
      {"chunks_per_request", distribution_json(summary.chunks_per_request, p, 1)},
      {"output_tok_s_per_request", distribution_json(summary.output_tps_per_request, p, 1)},
      {"total_tok_s_per_request", distribution_json(summary.total_tps_per_request, p, 1)},
      {"latency_from_planned_s", distribution_json(summary.latency_from_planned_ns, p, kNsPerS)},
      {"ttft_from_planned_ms", distribution_json(summary.ttft_from_planned_ns, p, kNsPerMs)},
      {"schedule_lag_ms", distribution_json(summary.schedule_lag_ns, p, kNsPerMs)},
  };
  Json tokens{
      {"input_total", summary.total_input_tokens},
      {"output_total", summary.total_output_tokens},
      {"input_source", summary.input_provenance.label()},
      {"output_source", summary.output_provenance.label()},
      {"output_from_usage", summary.output_provenance.from_usage},
      {"output_estimated", summary.output_provenance.estimated},
      {"input_from_usage", summary.input_provenance.from_usage},
      {"input_estimated", summary.input_provenance.estimated},
  };
  Json run{
      {"parallel", info.parallel},
      {"number", info.number},
      {"rate", info.rate < 0 ? Json(nullptr) : number_or_null(info.rate)},
      {"started_at", info.started_at},
      {"duration_s", number_or_null(info.duration_s)},
      {"interrupted", info.interrupted},
      {"output_dir", info.output_dir},
      // CLOCK_MONOTONIC reading the times of requests.jsonl count from: correlates them with other
      // monotonic-clock logs on the same machine (a server's, a tracer's).
      {"monotonic_anchor_ns", info.anchor_steady_ns},
  };
  return Json{
      {"schema", kSchema},
      {"llmperf_version", kVersion},
      {"run", run},
      {"config", config_json(config)},
      {"dataset", dataset_json(info.dataset)},
      {"requests",
       {{"total", summary.total},
        {"succeeded", summary.succeeded},
        {"failed", summary.failed},
        {"warmup", summary.warmup}}},
      {"failures_by_kind", Json(summary.failures_by_kind)},
      {"failure_examples", Json(summary.failure_examples)},
      {"window_s", number_or_null(static_cast<double>(summary.window_ns) / kNsPerS)},
      {"qps", number_or_null(summary.qps)},
      {"output_throughput_tok_s", number_or_null(summary.output_throughput)},
      {"total_throughput_tok_s", number_or_null(summary.total_throughput)},
      {"goodput", goodput_json(summary)},
      {"open_loop", open_loop_json(config, info, summary)},
      {"client_bound", summary.client.client_bound},
      {"client", client_json(summary)},
      {"slo", slo_json(info)},
      {"tokens", tokens},
      {"metrics", metrics},
      {"metric_definitions", metric_definitions_json()},
  };
}

}  // namespace report_detail

using report_detail::Json;

std::string config_to_json(const Config& config) {
  return report_detail::config_json(config).dump(2);
}

namespace {

// One requests.jsonl line, written field by field: the collector writes one per finished request
// while the run goes on, and building an nlohmann::json object for it cost about 10 us per record
// (mostly allocation), 5 to 10 times this. Strings that need escaping go through nlohmann's dump,
// so the output is what nlohmann would write.
class RecordLine {
 public:
  explicit RecordLine(size_t chunks) { out_.reserve(640 + 12 * chunks); }

  RecordLine& key(std::string_view name) {
    out_ += out_.empty() ? '{' : ',';
    out_ += '"';
    out_ += name;
    out_ += "\":";
    return *this;
  }
  void null() { out_ += "null"; }
  void boolean(bool value) { out_ += value ? "true" : "false"; }
  void integer(int64_t value) { fmt::format_to(std::back_inserter(out_), "{}", value); }
  void time(int64_t t, int64_t anchor) { t < 0 ? null() : integer(t - anchor); }
  // A finite double, always with a fraction or exponent (as nlohmann writes it, so it reads back
  // as a floating-point number).
  void number(double value) {
    const size_t start = out_.size();
    fmt::format_to(std::back_inserter(out_), "{}", value);
    if (out_.find_first_of(".e", start) == std::string::npos) out_ += ".0";
  }
  void string(std::string_view text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
      return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    });
    if (!plain) {
      out_ += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
    }
    out_ += '"';
    out_ += text;
    out_ += '"';
  }
  // [t - base for each t in times]
  void offsets(const std::vector<int64_t>& times, int64_t base) {
    out_ += '[';
    for (size_t i = 0; i < times.size(); ++i) {
      if (i > 0) out_ += ',';
      integer(times[i] - base);
    }
    out_ += ']';
  }
  std::string finish() && {
    out_ += '}';
    return std::move(out_);
  }

 private:
  std::string out_;
};

}  // namespace

std::string record_to_json(const RequestRecord& record, const RunInfo& info) {
  using report_detail::kNsPerMs;
  using report_detail::kNsPerS;
  const int64_t anchor = info.anchor_steady_ns;
  const bool sent = record.sent_ns >= 0;
  RecordLine line(record.chunk_ns.size());
  auto interval = [&](std::string_view name, int64_t later, double unit) {
    line.key(name);
    if (!record.ok() || !sent || later < 0) return line.null();
    line.number(static_cast<double>(later - record.sent_ns) / unit);
  };

  line.key("id").integer(static_cast<int64_t>(record.id));
  line.key("worker").integer(record.worker);
  line.key("prompt_index").integer(record.prompt_index);
  line.key("stream").boolean(record.stream);
  line.key("warmup").boolean(record.warmup);
  line.key("ok").boolean(record.ok());
  line.key("error_kind");
  record.ok() ? line.null() : line.string(failure_kind_name(record.error, record.http_status));
  line.key("error_message").string(record.error_message);
  line.key("http_status").integer(record.http_status);
  line.key("finish_reason").string(record.finish_reason);
  line.key("response_id").string(record.response_id);
  line.key("input_tokens").integer(record.input_tokens);
  line.key("output_tokens").integer(record.output_tokens);
  line.key("input_token_source").string(token_source_name(record.input_source));
  line.key("output_token_source").string(token_source_name(record.output_source));
  line.key("output_chars").integer(record.output_chars);
  line.key("malformed_events").integer(record.malformed_events);
  line.key("planned_ns").time(record.planned_ns, anchor);
  line.key("sent_ns").time(record.sent_ns, anchor);
  line.key("first_byte_ns").time(record.first_byte_ns, anchor);
  line.key("first_content_ns").time(record.first_content_ns, anchor);
  line.key("last_event_ns").time(record.last_event_ns, anchor);
  line.key("end_ns").time(record.end_ns, anchor);
  line.key("sent_unix_ns");
  sent ? line.integer(info.anchor_unix_ns + record.sent_ns - anchor) : line.null();
  if (record.stream) {
    interval("ttft_ms", record.first_content_ns, kNsPerMs);
  } else {
    line.key("ttft_ms").null();
  }
  interval("ttfb_ms", record.first_byte_ns, kNsPerMs);
  interval("latency_s", record.end_ns, kNsPerS);
  line.key("chunk_ns").offsets(record.chunk_ns, sent ? record.sent_ns : anchor);
  return std::move(line).finish();
}

RequestRecord record_from_json(const std::string& line) {
  using report_detail::json_integer;
  using report_detail::time_from_json;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("id")) {
    throw std::runtime_error("not a requests.jsonl record: " + line.substr(0, 80));
  }
  // An integer field: its default when absent or null, else a value that fits `field`.
  auto integer = [&j](const char* key, auto& field) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    const auto value = json_integer<std::remove_reference_t<decltype(field)>>(*it);
    if (!value) throw std::runtime_error(fmt::format("\"{}\" is not an integer in range", key));
    field = *value;
  };
  try {
    RequestRecord r;
    integer("id", r.id);
    integer("worker", r.worker);
    integer("prompt_index", r.prompt_index);
    r.stream = j.value("stream", true);
    r.warmup = j.value("warmup", false);
    r.planned_ns = time_from_json(j, "planned_ns");
    r.sent_ns = time_from_json(j, "sent_ns");
    r.first_byte_ns = time_from_json(j, "first_byte_ns");
    r.first_content_ns = time_from_json(j, "first_content_ns");
    r.last_event_ns = time_from_json(j, "last_event_ns");
    r.end_ns = time_from_json(j, "end_ns");
    const int64_t chunk_base = r.sent_ns >= 0 ? r.sent_ns : 0;
    for (const auto& t : j.value("chunk_ns", nlohmann::json::array())) {
      const std::optional<int64_t> offset = json_integer<int64_t>(t);
      int64_t chunk = 0;
      if (!offset || __builtin_add_overflow(chunk_base, *offset, &chunk)) {
        throw std::runtime_error("\"chunk_ns\" holds a value that is not a time in nanoseconds");
      }
      r.chunk_ns.push_back(chunk);
    }
    integer("input_tokens", r.input_tokens);
    integer("output_tokens", r.output_tokens);
    r.input_source = report_detail::token_source_from_name(j.value("input_token_source", ""));
    r.output_source = report_detail::token_source_from_name(j.value("output_token_source", ""));
    integer("output_chars", r.output_chars);
    integer("malformed_events", r.malformed_events);
    integer("http_status", r.http_status);
    const auto& kind = j.value("error_kind", nlohmann::json());
    r.error = kind.is_string() ? report_detail::error_kind_from_name(kind.get<std::string>())
                               : ErrorKind::kNone;
    r.error_message = j.value("error_message", "");
    r.finish_reason = j.value("finish_reason", "");
    r.response_id = j.value("response_id", "");
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(
        fmt::format("bad requests.jsonl record ({}): {}", e.what(), line.substr(0, 80)));
  }
}

}  // namespace llmperf

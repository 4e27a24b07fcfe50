// summary.json ("llmperf.summary/1") as data: the one description of the file, its one reader
// (parse_summary_file) and its one writer (summary_file_text). A run fills a SummaryFile from its
// summary (summary_file() in files/summary_json.cpp); `llmperf report`, `llmperf merge`, `llmperf
// compare` and --baseline read it back. The parts those read are typed, in the file's units (ms,
// s, tokens); every other block is kept as the JSON it was written as, so that write -> read ->
// write gives the same bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/catalogue.h"
#include "report/report.h"

namespace llmperf {

// The schema summary.json declares; the reader refuses any other.
inline constexpr const char* kSummarySchema = "llmperf.summary/1";

// One per-request metric as summary.json gives it, in the unit its key names.
struct SummaryDistribution {
  int64_t count = 0;                             // values it summarises
  std::optional<double> mean, stddev, min, max;  // "mean", "std", "min", "max" (null: none)
  std::vector<std::pair<std::string, std::optional<double>>> percentiles;  // "p50" -> value
  std::optional<double> percentiles_relative_error;  // present when they come from a histogram

  std::optional<double> percentile(std::string_view key) const;  // by key, e.g. "p99"
};

// "metrics": the per-request distributions (null when no request had the value).
struct SummaryMetrics {
  std::optional<SummaryDistribution> latency_s, ttft_ms, ttfat_ms, ttfb_ms, tpot_ms, itl_ms,
      input_tokens, output_tokens, chunks_per_request, output_tok_s_per_request,
      total_tok_s_per_request, latency_from_planned_s, ttft_from_planned_ms, ttfat_from_planned_ms,
      ttfb_from_planned_ms, schedule_lag_ms;
};

// "metrics", in the order it is written: each distribution's key (the catalogue's metric_key for
// the catalogue's metrics: "ttft_ms"), its field above, where a RunSummary holds it and how many of
// the RunSummary's units make one of the file's (1e6 ns per ms).
struct SummaryMetricKey {
  std::optional<Metric> metric;  // the catalogue's metric (none for the others: chunks_per_request)
  std::string key;
  std::optional<SummaryDistribution> SummaryMetrics::*field;
  Distribution RunSummary::*dist;
  double unit;
};
const std::vector<SummaryMetricKey>& summary_metric_keys();

// "run": which run of the benchmark this is, and when.
struct SummaryRun {
  int parallel = 1;                     // concurrency, or the in-flight cap of an open loop
  int64_t number = 0;                   // requests asked for
  std::optional<double> rate;           // requests/s of an open loop (null: closed loop)
  std::string started_at;               // ISO-8601 UTC
  std::optional<double> duration_s;     // dispatch to last completion
  bool interrupted = false;             // cut short by a signal
  std::optional<int64_t> input_tokens;  // the grid cell of this run (null outside a grid)
  std::optional<int64_t> output_tokens;
  std::string output_dir;           // where the run's files are
  int64_t monotonic_anchor_ns = 0;  // CLOCK_MONOTONIC reading requests.jsonl's times count from
  int64_t anchor_unix_ns = 0;       // the wall clock read together with it
};

// "requests": how many requests of each kind.
struct SummaryRequests {
  int64_t total = 0;  // measured (warm-up excluded)
  int64_t succeeded = 0;
  int64_t failed = 0;
  int64_t warmup = 0;
  int64_t resent = 0;  // sent again after a connection the server had closed
  int64_t cancelled = 0;  // closed on purpose (--cancel-rate); written only when > 0
};

// "tokens": totals and where the counts came from.
struct SummaryTokens {
  int64_t input_total = 0;
  int64_t output_total = 0;
  std::string input_source;  // "usage", "estimated", "mixed", "none"
  std::string output_source;
  int64_t output_from_usage = 0;
  int64_t output_estimated = 0;
  int64_t input_from_usage = 0;
  int64_t input_estimated = 0;
  int64_t input_chars_total = 0;
  int64_t output_chars_total = 0;
};

// The whole file, its top-level keys in the order they are written. Blocks typed as nlohmann
// JSON are written by their own functions in the report stage (and read back, where `llmperf
// report` needs them, by the functions beside those); they are null when absent.
struct SummaryFile {
  using Json = nlohmann::ordered_json;

  std::string llmperf_version;  // the version that wrote it ("schema" is kSummarySchema)
  SummaryRun run;
  Json config;  // the resolved config, secrets masked (config_json); null when unknown
  Json dataset;
  Json workload;
  SummaryRequests requests;
  Json failures_by_kind;
  Json failure_examples;
  std::optional<double> window_s;  // earliest send to latest end of the measured requests
  std::optional<double> qps;       // successful requests / window
  std::optional<double> output_throughput_tok_s;
  std::optional<double> total_throughput_tok_s;
  std::optional<double> input_throughput_chars_s;
  std::optional<double> output_throughput_chars_s;
  std::optional<double> peak_output_throughput_tok_s;
  int64_t peak_concurrency = 0;
  Json exactness;
  Json shared_prefix;
  Json conversations;
  Json reasoning;
  RunInfo::Shard shard;  // "shard": null when count <= 1
  Json items;
  Json trace;
  Json goodput;
  Json open_loop;
  bool client_bound = false;
  Json client;
  Json slo;
  Json server;
  Json http;  // libcurl's HTTP phases, connections and protocols (null: no request had them)
  SummaryTokens tokens;
  SummaryMetrics metrics;
  Json metric_definitions;
  // Written only when not null, so that runs without these flags keep their bytes:
  Json stopped_early;  // "stopped_early", after "run": {"reason", "after_requests", "detail"}
  // "repeats", after "metrics" (the summary.json of a run made with --num-runs): key metric ->
  // {"n", "mean", "ci95_low", "ci95_high", "cv", "noisy", "values"} (verdict/repeats.h)
  Json repeats;
  // Several --url: one object per URL (by_url_json); null, and absent from the file, otherwise.
  Json by_url;
  // --push-gateway: {"url", "interval_s", "pushes", "failed"}, after "server"; null, and absent
  // from the file, without it.
  Json push_gateway;
};

// Parses summary.json's text. Throws std::invalid_argument saying what is wrong: "not valid JSON
// (...)", "not an llmperf summary.json (no "schema"; ...)" or "unsupported schema ...". A value of
// an unexpected type reads as absent (its default); keys it does not know are dropped.
SummaryFile parse_summary_file(std::string_view text);

// A run directory's summary.json; throws std::runtime_error naming the file when it cannot be
// read or is not an llmperf summary.
SummaryFile read_summary_file(const std::string& path);

// The run's identity read back from its summary.json (for `llmperf report`: what requests.jsonl
// does not hold); `dir` is where the run's directory is now.
RunInfo run_info_from_summary(const SummaryFile& file, const std::string& dir);

// The summary.json that write_run_outputs writes for a run, as data (credentials scrubbed as in
// the file): what a run just measured stores in the history (app/results_db.h).
SummaryFile written_summary_file(const ReportOptions& options, const RunInfo& info,
                                 const RunSummary& summary);

// The file's text: two-space indented JSON, invalid UTF-8 replaced by U+FFFD, and a newline.
std::string summary_file_text(const SummaryFile& file);

// The "metrics" object of summary.json (also each "by_url" entry's).
nlohmann::ordered_json summary_metrics_json(const SummaryMetrics& metrics);

// A distribution's JSON, or null (the form of every distribution in summary.json).
nlohmann::ordered_json distribution_file_json(const std::optional<SummaryDistribution>& d);

// A finite number, or JSON null (JSON has no NaN or infinity): every number summary.json holds,
// its config block's too (plan/config_block.cpp writes that).
nlohmann::ordered_json number_or_null(double value);
nlohmann::ordered_json number_or_null(std::optional<double> value);

// The integer `value` holds when it is a JSON integer, or a float with an integral value, that
// fits T; nullopt otherwise. nlohmann's get<T>() converts a float without a range check (undefined
// behaviour for 1e30), so numbers from files that users keep and edit go through this.
template <typename T, typename BasicJson>
std::optional<T> json_integer(const BasicJson& value) {
  static_assert(std::is_integral_v<T>);
  if (value.is_number_unsigned()) {
    const auto v = value.template get<uint64_t>();
    if (!std::in_range<T>(v)) return std::nullopt;
    return static_cast<T>(v);
  }
  if (value.is_number_integer()) {
    const auto v = value.template get<int64_t>();
    if (!std::in_range<T>(v)) return std::nullopt;
    return static_cast<T>(v);
  }
  if (value.is_number_float()) {
    const auto d = value.template get<double>();
    // [min, 2^digits): both ends exact in a double, so no value out of T's range slips through.
    const double upper = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (!(d >= static_cast<double>(std::numeric_limits<T>::min()) && d < upper) ||
        std::trunc(d) != d) {
      return std::nullopt;
    }
    return static_cast<T>(d);
  }
  return std::nullopt;
}

// object[key] as a T (integers through json_integer), or nullopt when it is missing, null or of
// another type: the lenient reading of every field of summary.json.
template <typename T, typename BasicJson>
std::optional<T> json_field(const BasicJson& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return json_integer<T>(*it);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!it->is_number()) return std::nullopt;
    return it->template get<T>();
  } else {
    try {
      return it->template get<T>();
    } catch (const nlohmann::json::exception&) {
      return std::nullopt;
    }
  }
}

// Sets `field` from object[key] when that holds a value of its type (json_field); keeps it
// otherwise.
template <typename T, typename BasicJson>
void read_json_field(const BasicJson& object, const char* key, T& field) {
  if (const std::optional<T> value = json_field<T>(object, key)) field = *value;
}

}  // namespace llmperf

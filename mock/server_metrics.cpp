// Recording and Prometheus rendering of llmperf-mock's server-side metrics. Names, help texts,
// label order (sorted, as the Python client writes them) and bucket bounds follow vLLM's
// vllm/v1/metrics/loggers.py, so a scraper written for vLLM reads the mock unchanged.
#include "server_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace llmperf::mock {
namespace {

// vLLM's bucket upper bounds, in seconds.
constexpr double kTtftBoundsS[] = {0.001, 0.005, 0.01, 0.02,  0.04,  0.06,  0.08, 0.1,
                                   0.25,  0.5,   0.75, 1.0,   2.5,   5.0,   7.5,  10.0,
                                   20.0,  40.0,  80.0, 160.0, 640.0, 2560.0};
constexpr double kItlBoundsS[] = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                  0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
// Shared by vllm:e2e_request_latency_seconds and vllm:request_queue_time_seconds.
constexpr double kRequestBoundsS[] = {0.3,  0.5,   0.8,   1.0,   1.5,   2.0,    2.5,
                                      5.0,  10.0,  15.0,  20.0,  30.0,  40.0,   50.0,
                                      60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

// finished_reason label values, indexed by FinishReason.
constexpr std::string_view kFinishReasonLabels[] = {"stop", "length", "abort"};

constexpr std::int64_t kNsPerSecond = 1'000'000'000;

// A label value with \, " and newline escaped as the exposition format requires.
std::string metrics_label_escape(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void metrics_append_family(std::string& out, std::string_view name, std::string_view type,
                           std::string_view help) {
  fmt::format_to(std::back_inserter(out), "# HELP {0} {1}\n# TYPE {0} {2}\n", name, help, type);
}

// One sample line; `extra_label` (e.g. le="0.1") sorts between engine and model_name.
void metrics_append_sample(std::string& out, std::string_view name, std::string_view extra_label,
                           std::string_view model_escaped, double value) {
  fmt::format_to(std::back_inserter(out), R"({}{{engine="0",{}{}model_name="{}"}} {})", name,
                 extra_label, extra_label.empty() ? "" : ",", model_escaped,
                 prometheus_number(value));
  out += '\n';
}

// A counter or gauge as the value its sample shows (read relaxed: a scrape is a snapshot).
double sample_value(const std::atomic<std::int64_t>& value) {
  return static_cast<double>(value.load(std::memory_order_relaxed));
}

}  // namespace

std::string prometheus_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // fmt's shortest round-trip form switches to an exponent where repr does (exp < -4, >= 16);
  // repr marks an integral float with ".0".
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

LatencyHistogram::LatencyHistogram(std::span<const double> bounds_s)
    : bounds_s_(bounds_s), counts_(bounds_s.size() + 1) {
  bounds_ns_.reserve(bounds_s.size());
  for (const double bound : bounds_s) {
    bounds_ns_.push_back(std::llround(bound * static_cast<double>(kNsPerSecond)));
  }
}

void LatencyHistogram::observe(std::int64_t ns) {
  ns = std::max<std::int64_t>(ns, 0);
  // Prometheus buckets are "less than or equal": the first bound >= ns.
  const auto bucket =
      std::lower_bound(bounds_ns_.begin(), bounds_ns_.end(), ns) - bounds_ns_.begin();
  counts_[static_cast<std::size_t>(bucket)].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(ns, std::memory_order_relaxed);
}

void LatencyHistogram::render(std::string& out, std::string_view name,
                              std::string_view model_escaped) const {
  const std::string bucket_name = fmt::format("{}_bucket", name);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= bounds_s_.size(); ++i) {
    cumulative += counts_[i].load(std::memory_order_relaxed);
    const double bound = i < bounds_s_.size() ? bounds_s_[i] : HUGE_VAL;
    metrics_append_sample(out, bucket_name, fmt::format(R"(le="{}")", prometheus_number(bound)),
                          model_escaped, static_cast<double>(cumulative));
  }
  // _count is the +Inf bucket, so the two agree even while another thread observes.
  metrics_append_sample(out, fmt::format("{}_count", name), {}, model_escaped,
                        static_cast<double>(cumulative));
  metrics_append_sample(out, fmt::format("{}_sum", name), {}, model_escaped,
                        static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) /
                            static_cast<double>(kNsPerSecond));
}

MockMetrics::MockMetrics(std::int64_t kv_cache_tokens)
    : kv_cache_tokens_(std::max<std::int64_t>(kv_cache_tokens, 1)),
      ttft_(kTtftBoundsS),
      itl_(kItlBoundsS),
      e2e_(kRequestBoundsS),
      queue_(kRequestBoundsS) {}

void MockMetrics::on_arrival(MeteredRequest& request, std::int64_t received_ns,
                             std::int64_t prompt_tokens) {
  request = MeteredRequest{};
  request.phase = RequestPhase::kWaiting;
  request.received_ns = received_ns;
  request.prompt_tokens = prompt_tokens;
  waiting_.fetch_add(1, std::memory_order_relaxed);
}

void MockMetrics::on_start(MeteredRequest& request, std::int64_t ns) {
  if (request.phase != RequestPhase::kWaiting) return;
  request.phase = RequestPhase::kRunning;
  waiting_.fetch_sub(1, std::memory_order_relaxed);
  running_.fetch_add(1, std::memory_order_relaxed);
  prompt_tokens_.fetch_add(request.prompt_tokens, std::memory_order_relaxed);
  kv_tokens_.fetch_add(request.prompt_tokens, std::memory_order_relaxed);
  queue_.observe(ns - request.received_ns);
}

void MockMetrics::on_emit(MeteredRequest& request, std::int64_t chunks, std::int64_t tokens,
                          std::int64_t ns) {
  if (request.phase != RequestPhase::kRunning || chunks <= 0) return;
  generation_tokens_.fetch_add(tokens, std::memory_order_relaxed);
  kv_tokens_.fetch_add(tokens, std::memory_order_relaxed);
  request.generated_tokens += tokens;
  if (request.chunks_emitted == 0) {
    ttft_.observe(ns - request.received_ns);
  } else {
    itl_.observe(ns - request.last_emit_ns);
  }
  for (std::int64_t i = 1; i < chunks; ++i) itl_.observe(0);
  request.chunks_emitted += chunks;
  request.last_emit_ns = ns;
}

void MockMetrics::on_finish(MeteredRequest& request, FinishReason reason, std::int64_t ns) {
  if (request.phase == RequestPhase::kNone) return;
  if (request.phase == RequestPhase::kWaiting) {
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    reason = FinishReason::kAbort;
  } else {
    running_.fetch_sub(1, std::memory_order_relaxed);
    kv_tokens_.fetch_sub(request.prompt_tokens + request.generated_tokens,
                         std::memory_order_relaxed);
    e2e_.observe(ns - request.received_ns);
  }
  finished_[static_cast<std::size_t>(reason)].fetch_add(1, std::memory_order_relaxed);
  request.phase = RequestPhase::kNone;
}

void MockMetrics::on_prefix_cache_lookup(std::int64_t queried_tokens, std::int64_t hit_tokens) {
  prefix_queries_.fetch_add(queried_tokens, std::memory_order_relaxed);
  prefix_hits_.fetch_add(hit_tokens, std::memory_order_relaxed);
}

std::string MockMetrics::render(std::string_view model) const {
  const std::string m = metrics_label_escape(model.empty() ? std::string_view("mock") : model);
  std::string out;
  out.reserve(24 * 1024);
  // A family with its one sample.
  const auto append_metric = [&](std::string_view name, std::string_view type,
                                 std::string_view help, double value) {
    metrics_append_family(out, name, type, help);
    metrics_append_sample(out, name, {}, m, value);
  };
  const auto append_histogram = [&](std::string_view name, std::string_view help,
                                    const LatencyHistogram& histogram) {
    metrics_append_family(out, name, "histogram", help);
    histogram.render(out, name, m);
  };

  append_metric("vllm:num_requests_running", "gauge",
                "Number of requests in model execution batches.", sample_value(running_));
  append_metric("vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.",
                sample_value(waiting_));
  // A fraction in [0, 1] despite the name, as in vLLM.
  const double kv_usage = sample_value(kv_tokens_) / static_cast<double>(kv_cache_tokens_);
  append_metric("vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.",
                std::clamp(kv_usage, 0.0, 1.0));

  append_metric("vllm:prefix_cache_queries_total", "counter",
                "Prefix cache queries, in terms of number of queried tokens.",
                sample_value(prefix_queries_));
  append_metric("vllm:prefix_cache_hits_total", "counter",
                "Prefix cache hits, in terms of number of cached tokens.",
                sample_value(prefix_hits_));
  append_metric("vllm:num_preemptions_total", "counter",
                "Cumulative number of preemption from the engine.", 0.0);
  append_metric("vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
                sample_value(prompt_tokens_));
  append_metric("vllm:generation_tokens_total", "counter", "Number of generation tokens processed.",
                sample_value(generation_tokens_));
  metrics_append_family(out, "vllm:request_success_total", "counter",
                        "Count of successfully processed requests.");
  for (std::size_t i = 0; i < finished_.size(); ++i) {
    metrics_append_sample(out, "vllm:request_success_total",
                          fmt::format(R"(finished_reason="{}")", kFinishReasonLabels[i]), m,
                          sample_value(finished_[i]));
  }

  append_histogram("vllm:time_to_first_token_seconds",
                   "Histogram of time to first token in seconds.", ttft_);
  append_histogram("vllm:inter_token_latency_seconds",
                   "Histogram of inter-token latency in seconds.", itl_);
  append_histogram("vllm:e2e_request_latency_seconds",
                   "Histogram of e2e request latency in seconds.", e2e_);
  append_histogram("vllm:request_queue_time_seconds",
                   "Histogram of time spent in WAITING phase for request.", queue_);
  return out;
}

}  // namespace llmperf::mock

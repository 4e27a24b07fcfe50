// The server's metrics reduced to common series and set beside the client's (see
// server_metrics.h). The names each engine uses are in kVocabularies, one table.
#include "metrics/server_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

namespace llmperf {
namespace {

// An engine's names for the common series; the first name present wins (later ones are older
// spellings). Gauges counted in requests are summed over label sets (engines, ranks); ratios are
// averaged.
struct Vocabulary {
  const char* engine;
  const char* prefix;  // how its names start
  std::vector<const char*> running, waiting, kv_usage;
  std::vector<const char*> prompt_tokens, generation_tokens, requests, preemptions;
  std::vector<const char*> prefix_hits, prefix_queries;
  std::vector<const char*> ttft, itl, e2e, queue;  // histogram names (without _bucket)
  // The prompt counter leaves out tokens reused from the cache (llama.cpp counts only the tokens
  // it evaluated), so it can only be at most the client's total.
  bool prompt_excludes_cache = false;
};

const std::vector<Vocabulary>& vocabularies() {
  static const std::vector<Vocabulary> kVocabularies = {
      {"vLLM",
       "vllm:",
       {"vllm:num_requests_running"},
       {"vllm:num_requests_waiting"},
       {"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
       {"vllm:prompt_tokens_total"},
       {"vllm:generation_tokens_total"},
       {"vllm:request_success_total"},
       {"vllm:num_preemptions_total"},
       {"vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"},
       {"vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"},
       {"vllm:time_to_first_token_seconds"},
       {"vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds"},
       {"vllm:e2e_request_latency_seconds"},
       {"vllm:request_queue_time_seconds"}},
      {"SGLang",
       "sglang:",
       {"sglang:num_running_reqs"},
       {"sglang:num_queue_reqs"},
       {"sglang:token_usage"},
       {"sglang:prompt_tokens_total"},
       {"sglang:generation_tokens_total"},
       {"sglang:num_requests_total"},
       {"sglang:num_retracted_requests_total"},
       {"sglang:cached_tokens_total"},
       {"sglang:prompt_tokens_total"},
       {"sglang:time_to_first_token_seconds"},
       {"sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"},
       {"sglang:e2e_request_latency_seconds"},
       {"sglang:queue_time_seconds"}},
      {"TGI",
       "tgi_",
       {"tgi_batch_current_size"},
       {"tgi_queue_size"},
       {},
       {"tgi_request_input_length_sum"},
       {"tgi_request_generated_tokens_sum"},
       {"tgi_request_success"},
       {},
       {},
       {},
       {},
       {},
       {"tgi_request_duration"},
       {"tgi_request_queue_duration"}},
      {"llama.cpp",
       "llamacpp:",
       {"llamacpp:requests_processing"},
       {"llamacpp:requests_deferred"},
       {"llamacpp:kv_cache_usage_ratio"},
       {"llamacpp:prompt_tokens_total"},
       {"llamacpp:tokens_predicted_total"},
       {},
       {},
       {},
       {},
       {},
       {},
       {},
       {},
       true},
  };
  return kVocabularies;
}

const Vocabulary* vocabulary_of(const std::string& engine) {
  for (const Vocabulary& v : vocabularies()) {
    if (engine == v.engine) return &v;
  }
  return nullptr;
}

// The total (or the mean, for ratios) of every sample named by the first name present.
std::optional<double> value_of(const std::vector<MetricSample>& samples,
                               const std::vector<const char*>& names, bool mean = false) {
  for (const char* name : names) {
    double total = 0;
    int64_t found = 0;
    for (const MetricSample& s : samples) {
      if (s.name == name && std::isfinite(s.value)) {
        total += s.value;
        ++found;
      }
    }
    if (found > 0) return mean ? total / static_cast<double>(found) : total;
  }
  return std::nullopt;
}

std::optional<double> bound_of(const std::string& le) {
  if (le == "+Inf" || le == "Inf" || le == "inf" || le == "+inf") {
    return std::numeric_limits<double>::infinity();
  }
  double value = 0;
  const char* begin = le.data() + (le.size() > 0 && le.front() == '+' ? 1 : 0);
  const auto [end, error] = std::from_chars(begin, le.data() + le.size(), value);
  if (error != std::errc() || end != le.data() + le.size()) return std::nullopt;
  if (std::isnan(value) || value == -std::numeric_limits<double>::infinity()) return std::nullopt;
  return value;
}

// A histogram's cumulative bucket counts by bound, _sum and _count, summed over label sets.
struct Buckets {
  std::map<double, double> cumulative;
  double sum = 0;
  double count = 0;
  bool found = false;
};

Buckets buckets_of(const std::vector<MetricSample>& samples, const std::string& name) {
  Buckets b;
  const std::string bucket = name + "_bucket";
  const std::string sum = name + "_sum";
  const std::string count = name + "_count";
  for (const MetricSample& s : samples) {
    if (!std::isfinite(s.value)) continue;
    if (s.name == bucket) {
      if (const auto le = bound_of(s.label("le"))) {
        b.cumulative[*le] += s.value;
        b.found = true;
      }
    } else if (s.name == sum) {
      b.sum += s.value;
    } else if (s.name == count) {
      b.count += s.value;
    }
  }
  return b;
}

std::optional<HistogramWindow> histogram_window(const std::vector<MetricSample>& before,
                                                const std::vector<MetricSample>& after,
                                                const std::vector<const char*>& names,
                                                std::vector<std::string>& warnings) {
  for (const char* name : names) {
    const Buckets post = buckets_of(after, name);
    if (!post.found) continue;
    const Buckets pre = buckets_of(before, name);
    HistogramWindow w;
    w.metric = name;
    for (const auto& [bound, count] : post.cumulative) {
      const auto it = pre.cumulative.find(bound);
      w.bounds.push_back(bound);
      w.counts.push_back(count - (it == pre.cumulative.end() ? 0 : it->second));
    }
    w.sum = post.sum - pre.sum;
    w.count = post.count - pre.count;
    const bool went_down =
        w.count < 0 || std::any_of(w.counts.begin(), w.counts.end(), [](double c) { return c < 0; });
    if (went_down) {
      warnings.push_back(fmt::format(
          "the server's {} histogram went down during the run (a restart?): not used", name));
      return std::nullopt;
    }
    return w;
  }
  return std::nullopt;
}

GaugeStats gauge_stats(const std::vector<ServerPoint>& points,
                       const std::vector<ServerPoint>& all_scrapes,
                       std::optional<double> ServerPoint::*field) {
  GaugeStats g;
  g.reported = std::any_of(all_scrapes.begin(), all_scrapes.end(),
                           [field](const ServerPoint& p) { return (p.*field).has_value(); });
  double total = 0;
  for (const ServerPoint& p : points) {
    if (!(p.*field)) continue;
    const double v = *(p.*field);
    total += v;
    g.max = g.samples == 0 ? v : std::max(g.max, v);
    ++g.samples;
  }
  if (g.samples > 0) g.mean = total / static_cast<double>(g.samples);
  return g;
}

Reconciled reconcile(double client, std::optional<double> server, bool client_known,
                     double tolerance) {
  Reconciled r;
  if (!server || !client_known) return r;
  r.available = true;
  r.client = client;
  r.server = *server;
  r.difference = *server - client;
  r.relative = client > 0 ? std::fabs(r.difference) / client : (r.difference == 0 ? 0.0 : 1.0);
  r.matches = r.relative <= tolerance;
  return r;
}

}  // namespace

std::string detect_engine(const std::vector<MetricSample>& samples) {
  for (const Vocabulary& v : vocabularies()) {
    const std::string_view prefix = v.prefix;
    for (const MetricSample& s : samples) {
      if (s.name.starts_with(prefix)) return v.engine;
    }
  }
  return "";
}

ServerPoint reduce_scrape(const std::string& engine, const std::vector<MetricSample>& samples,
                          int64_t t_ns) {
  ServerPoint p;
  p.t_ns = t_ns;
  const Vocabulary* v = vocabulary_of(engine);
  if (v == nullptr) return p;
  p.running = value_of(samples, v->running);
  p.waiting = value_of(samples, v->waiting);
  p.kv_usage = value_of(samples, v->kv_usage, true);
  p.prompt_tokens = value_of(samples, v->prompt_tokens);
  p.generation_tokens = value_of(samples, v->generation_tokens);
  p.requests = value_of(samples, v->requests);
  p.preemptions = value_of(samples, v->preemptions);
  p.prefix_hits = value_of(samples, v->prefix_hits);
  p.prefix_queries = value_of(samples, v->prefix_queries);
  return p;
}

std::optional<HistogramWindow::Quantile> HistogramWindow::quantile(double q) const {
  if (bounds.empty() || counts.empty()) return std::nullopt;
  const double total = counts.back();
  if (!(total > 0)) return std::nullopt;
  const double rank = q * total;
  double previous_bound = 0;
  double previous_count = 0;
  for (size_t i = 0; i < bounds.size() && i < counts.size(); ++i) {
    if (counts[i] >= rank) {
      if (std::isinf(bounds[i])) {
        // Above the highest finite bound: that bound is all one can say (as Prometheus does).
        return Quantile{previous_bound, previous_bound, bounds[i]};
      }
      const double in_bucket = counts[i] - previous_count;
      const double fraction = in_bucket > 0 ? (rank - previous_count) / in_bucket : 1.0;
      return Quantile{previous_bound + (bounds[i] - previous_bound) * fraction, previous_bound,
                      bounds[i]};
    }
    previous_bound = bounds[i];
    previous_count = counts[i];
  }
  return Quantile{previous_bound, previous_bound, previous_bound};
}

void ClientTotals::add(std::span<const RequestRecord> records) {
  for (const RequestRecord& record : records) add(record);
}

void ClientTotals::add(const RequestRecord& record) {
  if (record.http_status != 200) return;
  ++requests;
  // Embeddings and rerank (items > 0) generate nothing: their usage is the prompt's alone.
  const bool output_known = record.output_source == TokenSource::kUsage || record.items > 0;
  if (record.input_source == TokenSource::kUsage && output_known) {
    prompt_tokens += record.input_tokens;
    completion_tokens += record.output_tokens;
  } else {
    ++without_usage;
  }
}

std::optional<double> ServerSummary::token_mismatch() const {
  std::optional<double> worst;
  for (const Reconciled* r : {&prompt_check, &generation_check}) {
    if (!r->available) continue;
    const bool below_by_design = r->lower_bound && r->difference <= 0;
    worst = std::max(worst.value_or(0.0), below_by_design ? 0.0 : r->relative);
  }
  return worst;
}

std::optional<double> ServerSummary::request_mismatch() const {
  if (!requests_check.available) return std::nullopt;
  return requests_check.relative;
}

ServerSummary summarize_server(const std::string& engine, const std::vector<MetricSample>& before,
                               const std::vector<MetricSample>& after,
                               std::vector<ServerPoint> timeline, const ClientTotals& client,
                               double tolerance) {
  ServerSummary s;
  s.engine = engine;
  s.tolerance = tolerance;
  s.available = !before.empty() && !after.empty();
  const Vocabulary* v = vocabulary_of(engine);
  if (s.available && v != nullptr) {
    const auto delta = [&](const std::vector<const char*>& names,
                           const char* what) -> std::optional<double> {
      const auto pre = value_of(before, names);
      const auto post = value_of(after, names);
      if (!pre || !post) return std::nullopt;
      if (*post < *pre) {
        s.warnings.push_back(fmt::format(
            "the server's {} counter went down during the run (a restart?): not used", what));
        return std::nullopt;
      }
      return *post - *pre;
    };
    s.requests = delta(v->requests, "finished requests");
    s.prompt_tokens = delta(v->prompt_tokens, "prompt tokens");
    s.generation_tokens = delta(v->generation_tokens, "generated tokens");
    s.preemptions = delta(v->preemptions, "preemptions");
    s.prefix_hits = delta(v->prefix_hits, "prefix-cache hits");
    s.prefix_queries = delta(v->prefix_queries, "prefix-cache queries");
    s.ttft = histogram_window(before, after, v->ttft, s.warnings);
    s.itl = histogram_window(before, after, v->itl, s.warnings);
    s.e2e = histogram_window(before, after, v->e2e, s.warnings);
    s.queue = histogram_window(before, after, v->queue, s.warnings);
  }
  // Gauges over the scrapes during the run only: the first and last are taken outside it, when
  // the server is idle, so a run shorter than one interval has none (not a maximum of 0).
  std::vector<ServerPoint> during;
  if (timeline.size() > 2) during.assign(timeline.begin() + 1, timeline.end() - 1);
  s.running = gauge_stats(during, timeline, &ServerPoint::running);
  s.waiting = gauge_stats(during, timeline, &ServerPoint::waiting);
  s.kv_usage = gauge_stats(during, timeline, &ServerPoint::kv_usage);
  s.timeline = std::move(timeline);

  const bool usage_known = client.without_usage == 0 && !client.shard_of_benchmark;
  s.requests_check = reconcile(static_cast<double>(client.requests), s.requests,
                               !client.shard_of_benchmark, tolerance);
  s.prompt_check =
      reconcile(static_cast<double>(client.prompt_tokens), s.prompt_tokens, usage_known, tolerance);
  if (v != nullptr && v->prompt_excludes_cache && s.prompt_check.available) {
    s.prompt_check.lower_bound = true;
    s.prompt_check.matches = s.prompt_check.difference <= tolerance * s.prompt_check.client;
  }
  s.generation_check = reconcile(static_cast<double>(client.completion_tokens),
                                 s.generation_tokens, usage_known, tolerance);
  if (client.shard_of_benchmark) {
    s.warnings.push_back(
        "a shard of a sharded benchmark: the server's totals include the other shards' requests, "
        "so they are not compared with this shard's");
  } else if (!usage_known && (s.prompt_tokens || s.generation_tokens)) {
    s.warnings.push_back(fmt::format(
        "{} answered requests carried no usage: tokens cannot be reconciled", client.without_usage));
  }
  const auto explain = [&](const char* what, const Reconciled& r) {
    if (!r.available || r.matches) return;
    const std::string cause =
        r.difference > 0
            ? "the server counted more: other clients on the server, requests retried by a proxy "
              "in between, or llmperf's probe/earlier traffic inside the window"
            : "the server counted less: usage reported differently from what the server counts, "
              "a proxy that answers some requests itself, or metrics of another replica";
    s.warnings.push_back(fmt::format("{}: server {} vs llmperf {} ({:+.1f}%): {}", what, r.server,
                                     r.client, 100.0 * r.difference / std::max(1.0, r.client),
                                     cause));
  };
  if (s.prompt_check.lower_bound && s.prompt_check.difference < 0) {
    s.notes.push_back(fmt::format(
        "the {} server counts only the prompt tokens it evaluated, not those reused from its cache "
        "({} of llmperf's {} were reused): the prompt check only flags a server count above "
        "llmperf's",
        engine, -s.prompt_check.difference, s.prompt_check.client));
  }
  explain("requests", s.requests_check);
  explain("prompt tokens", s.prompt_check);
  explain("generated tokens", s.generation_check);
  return s;
}

void ScrapeTally::add(double duration_ms, const std::optional<ServerPoint>& point,
                      std::string_view error) {
  ++scrapes_;
  slowest_ms_ = std::max(slowest_ms_, duration_ms);
  if (duration_ms > interval_s_ * 1000) ++slow_;
  if (point) {
    timeline_.push_back(*point);
  } else {
    ++failed_;
    last_error_ = error;
  }
}

ServerSummary ScrapeTally::summarize(const std::string& engine,
                                     const std::vector<MetricSample>& before,
                                     const std::vector<MetricSample>& after,
                                     const ClientTotals& client) const {
  ServerSummary s = summarize_server(engine, before, after, timeline_, client);
  s.interval_s = interval_s_;
  s.scrapes = scrapes_;
  s.failed_scrapes = failed_;
  s.slow_scrapes = slow_;
  s.scrape_ms_max = slowest_ms_;
  return s;
}

}  // namespace llmperf

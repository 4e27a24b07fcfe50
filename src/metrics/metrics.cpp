// SummaryBuilder and summarize(): request records -> RunSummary, following the metric definitions
// of DESIGN §3. add() folds one record into counters, a compact Row and the pooled ITL samples;
// finish() turns the rows into each per-request Distribution in turn. Pure: no I/O, logging or
// threads.
#include "metrics/metrics.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace llmperf {
namespace {

constexpr double kNsPerSecond = 1e9;

void count_source(TokenSource source, TokenProvenance& provenance) {
  switch (source) {
    case TokenSource::kUsage:
      ++provenance.from_usage;
      break;
    case TokenSource::kChunkCount:
    case TokenSource::kCharCount:
      ++provenance.estimated;
      break;
    case TokenSource::kNone:
      ++provenance.unknown;
      break;
  }
}

// The Distribution of the values `pick` gives for the rows it accepts (std::optional), and, when
// `cdf` is given, the values at RunTrace::cdf_points() for charts.
template <typename Rows, typename Pick>
Distribution describe_rows(const Rows& rows, const std::vector<double>& percentiles, Pick pick,
                           std::vector<double>* cdf = nullptr) {
  std::vector<double> values;
  for (const auto& row : rows) {
    if (const std::optional<double> v = pick(row)) values.push_back(*v);
  }
  if (cdf != nullptr && !values.empty()) {
    std::sort(values.begin(), values.end());
    for (double p : RunTrace::cdf_points()) cdf->push_back(percentile_sorted(values, p));
  }
  return describe(std::move(values), percentiles);
}

// (events - 1) / (last - first), in events per second, over the times `time` gives (negative:
// no event); 0 with fewer than two events or a zero span.
template <typename Rows, typename Time>
double span_rate(const Rows& rows, Time time) {
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  int64_t events = 0;
  for (const auto& row : rows) {
    const int64_t t = time(row);
    if (t < 0) continue;
    ++events;
    first = std::min(first, t);
    last = std::max(last, t);
  }
  if (events < 2 || last <= first) return 0;
  return static_cast<double>(events - 1) / (static_cast<double>(last - first) / kNsPerSecond);
}

}  // namespace

std::string TokenProvenance::label() const {
  if (from_usage == 0 && estimated == 0) return "none";
  if (estimated == 0 && unknown == 0) return "usage";
  if (from_usage == 0 && unknown == 0) return "estimated";
  return "mixed";
}

const std::vector<double>& RunTrace::cdf_points() {
  static const std::vector<double> points = [] {
    std::vector<double> p;
    for (int i = 0; i <= 400; ++i) p.push_back(i * 0.25);
    return p;
  }();
  return points;
}

SummaryBuilder::SummaryBuilder(MetricsOptions options)
    : options_(std::move(options)),
      itl_(options_.itl_exact_limit),
      output_tokens_(options_.origin_ns) {
  summary_.percentiles = options_.percentiles;
  if (options_.url_count > 1) {
    MetricsOptions each = options_;
    each.url_count = 0;
    for (size_t i = 0; i < options_.url_count; ++i) {
      by_url_.push_back(std::make_unique<SummaryBuilder>(each));
    }
  }
}

void SummaryBuilder::add(std::span<const RequestRecord> records) {
  for (const RequestRecord& record : records) add(record);
}

void SummaryBuilder::add(const RequestRecord& r) {
  if (r.url_index >= 0 && static_cast<size_t>(r.url_index) < by_url_.size()) {
    by_url_[static_cast<size_t>(r.url_index)]->add(r);
  }
  if (r.warmup) {
    ++summary_.warmup;
    return;
  }
  RunSummary& s = summary_;
  ++s.total;
  s.streamed = s.streamed || r.stream;
  s.pooling = s.pooling || r.items > 0;
  if (r.resends > 0) ++s.resent;
  const bool cancelled = r.error == ErrorKind::kCancelled;
  const bool counted = r.ok() || (cancelled && options_.include_cancelled);
  rows_.push_back(Row{r.planned_ns, r.slot_wait_ns, r.sent_ns, r.first_byte_ns, r.first_content_ns,
                      r.first_answer_ns, r.end_ns, r.input_tokens, r.output_tokens,
                      static_cast<int32_t>(r.chunk_ns.size()), counted, r.stream});
  if (r.prefix_group >= 0) {
    const auto group = static_cast<size_t>(r.prefix_group);
    if (group >= prefix_groups_seen_.size()) prefix_groups_seen_.resize(group + 1, 0);
    prefix_groups_seen_[group] = 1;
    if (counted && r.stream && r.sent_ns >= 0 && r.first_content_ns >= r.sent_ns) {
      (r.prefix_first_use ? ttft_prefix_first_ : ttft_prefix_repeated_)
          .push_back(static_cast<double>(r.first_content_ns - r.sent_ns));
    }
  }
  if (r.session_id >= 0) sessions_.add(r);
  http_.add(r);
  if (r.output_tokens > 0) {  // output tokens over the run, failed requests' partial output too
    if (!r.chunk_ns.empty()) {
      const double per_chunk =
          static_cast<double>(r.output_tokens) / static_cast<double>(r.chunk_ns.size());
      for (int64_t t : r.chunk_ns) output_tokens_.add(t, per_chunk);
    } else if (r.end_ns >= 0) {
      output_tokens_.add(r.end_ns, static_cast<double>(r.output_tokens));
    }
  }
  if (cancelled) ++s.cancelled;
  if (!counted) {
    if (!cancelled) add_failure(r);
    return;
  }
  if (!cancelled) ++s.succeeded;
  if (r.cached_tokens >= 0) {
    ++s.cached_reported;
    s.cached_tokens += r.cached_tokens;
    s.cached_of_input += r.input_tokens;
  }
  add_to_seconds(r);
  reasoning_.add(r);
  s.total_items += r.items;
  s.total_input_tokens += r.input_tokens;
  s.total_output_tokens += r.output_tokens;
  count_source(r.input_source, s.input_provenance);
  count_source(r.output_source, s.output_provenance);
  s.total_input_chars += r.input_chars;
  s.total_output_chars += r.output_chars;
  if (r.target_input_tokens >= 0) {
    s.input_exactness.add(r.target_input_tokens, r.input_tokens,
                          r.input_source == TokenSource::kUsage);
  }
  if (r.target_output_tokens >= 0) {
    s.output_exactness.add(r.target_output_tokens, r.output_tokens,
                           r.output_source == TokenSource::kUsage);
  }
  const bool input_checked = r.target_input_tokens >= 0 && r.input_source == TokenSource::kUsage;
  const bool output_checked = options_.output_forced && r.target_output_tokens >= 0 &&
                              r.output_source == TokenSource::kUsage;
  s.length_misses.add(input_checked || output_checked,
                      input_checked && r.input_tokens != r.target_input_tokens,
                      output_checked && r.output_tokens != r.target_output_tokens);
  if (options_.goodput.enabled() && is_good_request(r, options_.goodput)) ++s.good_requests;
  // vLLM's per-chunk ITL: every gap between consecutive output chunks, pooled.
  if (r.stream && r.first_content_ns >= 0) {
    for (size_t i = 1; i < r.chunk_ns.size(); ++i) itl_.add(r.chunk_ns[i] - r.chunk_ns[i - 1]);
  }
}

void SummaryBuilder::add_to_seconds(const RequestRecord& r) {
  const auto add = [&](int64_t t, double tokens) {
    const int64_t second = std::max<int64_t>(0, (t - options_.origin_ns) / 1'000'000'000);
    if (static_cast<size_t>(second) >= tokens_per_second_.size()) {
      tokens_per_second_.resize(static_cast<size_t>(second) + 1, 0.0);
    }
    tokens_per_second_[static_cast<size_t>(second)] += tokens;
  };
  if (r.output_tokens <= 0) return;
  if (r.chunk_ns.empty()) {
    if (r.end_ns >= 0) add(r.end_ns, static_cast<double>(r.output_tokens));
    return;
  }
  const double per_chunk =
      static_cast<double>(r.output_tokens) / static_cast<double>(r.chunk_ns.size());
  for (const int64_t t : r.chunk_ns) add(t, per_chunk);
}

void SummaryBuilder::add_failure(const RequestRecord& r) {
  ++summary_.failed;
  const std::string kind = failure_kind_name(r.error, r.http_status);
  ++summary_.failures_by_kind[kind];
  auto [it, inserted] = summary_.failure_examples.try_emplace(kind, r.error_message);
  if (!inserted && it->second.empty()) it->second = r.error_message;
}

OpenLoopSummary SummaryBuilder::open_loop_summary(const std::deque<Row>& rows,
                                                  const std::vector<double>& percentiles) {
  OpenLoopSummary o;
  const auto sent = [](const Row& r) { return r.planned_ns >= 0 && r.sent_ns >= 0; };
  const auto waited = [](const Row& r) { return std::max<int64_t>(0, r.slot_wait_ns); };
  for (const Row& r : rows) {
    if (!sent(r)) continue;
    ++o.sends;
    if (r.slot_wait_ns > 0) ++o.slot_waits;
    if (r.slot_wait_ns < 0) ++o.slot_unknown;
  }
  o.slot_wait_ns = describe_rows(rows, percentiles, [&](const Row& r) -> std::optional<double> {
    if (!sent(r) || r.slot_wait_ns <= 0) return std::nullopt;
    return static_cast<double>(r.slot_wait_ns);
  });
  // The wait cannot exceed the lag (a slot freed after the send is impossible); clamp for safety.
  o.client_lag_ns = describe_rows(rows, percentiles, [&](const Row& r) -> std::optional<double> {
    if (!sent(r)) return std::nullopt;
    const int64_t lag = r.sent_ns - r.planned_ns;
    return static_cast<double>(lag - std::min(lag, waited(r)));
  });
  return o;
}

std::vector<RateSegment> SummaryBuilder::rate_segments(const std::deque<Row>& rows, int count) {
  std::vector<RateSegment> segments;
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (const Row& r : rows) {
    if (r.planned_ns < 0) continue;
    first = std::min(first, r.planned_ns);
    last = std::max(last, r.planned_ns);
  }
  if (first > last) return segments;
  // The last span is closed, so the last planned send falls in it.
  const double span_ns =
      std::max(1.0, static_cast<double>(last - first) / static_cast<double>(count));
  std::vector<std::vector<double>> ttfts(static_cast<size_t>(count));
  std::vector<std::vector<double>> latencies(static_cast<size_t>(count));
  segments.resize(static_cast<size_t>(count));
  std::vector<int64_t> sent(static_cast<size_t>(count), 0);
  const auto index_of = [&](int64_t t) {
    const auto i = static_cast<int64_t>(static_cast<double>(t - first) / span_ns);
    return static_cast<size_t>(std::clamp<int64_t>(i, 0, count - 1));
  };
  for (const Row& r : rows) {
    if (r.planned_ns < 0) continue;
    RateSegment& seg = segments[index_of(r.planned_ns)];
    ++seg.requests;
    if (!r.ok) ++seg.failed;
    if (r.sent_ns >= first) ++sent[index_of(r.sent_ns)];
    if (r.ok && r.sent_ns >= 0 && r.end_ns >= r.sent_ns) {
      latencies[index_of(r.planned_ns)].push_back(static_cast<double>(r.end_ns - r.sent_ns));
    }
    if (r.ok && r.stream && r.sent_ns >= 0 && r.first_content_ns >= r.sent_ns) {
      ttfts[index_of(r.planned_ns)].push_back(static_cast<double>(r.first_content_ns - r.sent_ns));
    }
  }
  const double span_s = span_ns / kNsPerSecond;
  for (size_t i = 0; i < segments.size(); ++i) {
    RateSegment& seg = segments[i];
    seg.start_s = static_cast<double>(i) * span_s;
    seg.end_s = static_cast<double>(i + 1) * span_s;
    seg.planned_rate = static_cast<double>(seg.requests) / span_s;
    seg.sent_rate = static_cast<double>(sent[i]) / span_s;
    const Distribution ttft = describe(std::move(ttfts[i]), {50});
    const Distribution latency = describe(std::move(latencies[i]), {50});
    if (!ttft.empty()) {
      seg.ttft_p50_ns = ttft.percentiles.front();
      seg.ttft_mean_ns = ttft.mean;
    }
    if (!latency.empty()) {
      seg.latency_p50_ns = latency.percentiles.front();
      seg.latency_mean_ns = latency.mean;
    }
  }
  return segments;
}

RunSummary SummaryBuilder::finish(RunTrace* trace) {
  RunSummary s = std::move(summary_);
  for (const auto& builder : by_url_) s.by_url.push_back(builder->finish());
  const std::vector<double>& p = options_.percentiles;

  // DESIGN §3 run window: earliest t_send to latest end among measured requests.
  int64_t window_start = std::numeric_limits<int64_t>::max();
  int64_t window_end = std::numeric_limits<int64_t>::min();
  for (const Row& r : rows_) {
    if (r.sent_ns >= 0) window_start = std::min(window_start, r.sent_ns);
    if (r.end_ns >= 0) window_end = std::max(window_end, r.end_ns);
  }
  if (window_start != std::numeric_limits<int64_t>::max() &&
      window_end != std::numeric_limits<int64_t>::min() && window_end > window_start) {
    s.window_ns = window_end - window_start;
    const double window_s = static_cast<double>(s.window_ns) / kNsPerSecond;
    s.qps = static_cast<double>(s.succeeded) / window_s;
    s.output_throughput = static_cast<double>(s.total_output_tokens) / window_s;
    s.total_throughput =
        static_cast<double>(s.total_input_tokens + s.total_output_tokens) / window_s;
    s.input_chars_throughput = static_cast<double>(s.total_input_chars) / window_s;
    s.items_throughput = static_cast<double>(s.total_items) / window_s;
    s.output_chars_throughput = static_cast<double>(s.total_output_chars) / window_s;
  }
  for (const double tokens : tokens_per_second_) {
    s.peak_output_throughput = std::max(s.peak_output_throughput, tokens);
  }
  // Sweep line over successful requests: an end at the same time as a start comes first.
  std::vector<std::pair<int64_t, int>> edges;
  for (const Row& r : rows_) {
    if (!r.ok || r.sent_ns < 0 || r.end_ns < r.sent_ns) continue;
    edges.emplace_back(r.sent_ns, +1);
    edges.emplace_back(r.end_ns, -1);
  }
  std::sort(edges.begin(), edges.end());
  int64_t in_flight = 0;
  for (const auto& [t, step] : edges) {
    in_flight += step;
    s.peak_concurrency = std::max(s.peak_concurrency, in_flight);
  }
  if (options_.goodput.enabled()) {
    s.goodput_enabled = true;
    s.goodput_spec = options_.goodput;
    const auto good = static_cast<double>(s.good_requests);
    if (s.window_ns > 0) s.goodput_rps = good / (static_cast<double>(s.window_ns) / kNsPerSecond);
    if (s.total > 0) s.good_fraction = good / static_cast<double>(s.total);
  }

  using Value = std::optional<double>;
  auto latency = [](const Row& r) -> Value {
    if (!r.ok || r.sent_ns < 0 || r.end_ns < r.sent_ns) return std::nullopt;
    return static_cast<double>(r.end_ns - r.sent_ns);
  };
  auto has_content = [](const Row& r) { return r.ok && r.stream && r.first_content_ns >= 0; };
  auto ttft = [&](const Row& r) -> Value {
    if (!has_content(r) || r.sent_ns < 0) return std::nullopt;
    return static_cast<double>(r.first_content_ns - r.sent_ns);
  };
  // tok/s per request over its E2E latency (zero-length requests have none).
  auto per_second = [](const Row& r, int64_t tokens) -> Value {
    if (!r.ok || r.sent_ns < 0 || r.end_ns <= r.sent_ns) return std::nullopt;
    return static_cast<double>(tokens) / (static_cast<double>(r.end_ns - r.sent_ns) / kNsPerSecond);
  };
  std::vector<double>* no_cdf = nullptr;
  s.latency_ns = describe_rows(rows_, p, latency, trace ? &trace->latency_cdf_ns : no_cdf);
  s.ttft_ns = describe_rows(rows_, p, ttft, trace ? &trace->ttft_cdf_ns : no_cdf);
  s.ttfat_ns = describe_rows(rows_, p, [&](const Row& r) -> Value {
    if (!has_content(r) || r.sent_ns < 0 || r.first_answer_ns < r.sent_ns) return std::nullopt;
    return static_cast<double>(r.first_answer_ns - r.sent_ns);
  });
  s.ttfb_ns = describe_rows(rows_, p, [](const Row& r) -> Value {
    if (!r.ok || r.sent_ns < 0 || r.first_byte_ns < r.sent_ns) return std::nullopt;
    return static_cast<double>(r.first_byte_ns - r.sent_ns);
  });
  // vLLM's TPOT definition: (E2E - TTFT) / (output_tokens - 1), only when output_tokens > 1.
  s.tpot_ns = describe_rows(rows_, p, [&](const Row& r) -> Value {
    if (!has_content(r) || r.output_tokens <= 1 || r.end_ns < r.first_content_ns)
      return std::nullopt;
    return static_cast<double>(r.end_ns - r.first_content_ns) /
           static_cast<double>(r.output_tokens - 1);
  });
  s.itl_ns = itl_.describe(p, RunTrace::cdf_points(), trace ? &trace->itl_cdf_ns : no_cdf);
  s.input_tokens = describe_rows(rows_, p, [](const Row& r) -> Value {
    return r.ok ? Value(static_cast<double>(r.input_tokens)) : std::nullopt;
  });
  s.output_tokens = describe_rows(rows_, p, [](const Row& r) -> Value {
    return r.ok ? Value(static_cast<double>(r.output_tokens)) : std::nullopt;
  });
  s.chunks_per_request = describe_rows(rows_, p, [&](const Row& r) -> Value {
    return has_content(r) ? Value(static_cast<double>(r.chunks)) : std::nullopt;
  });
  s.output_tps_per_request =
      describe_rows(rows_, p, [&](const Row& r) { return per_second(r, r.output_tokens); });
  s.total_tps_per_request = describe_rows(
      rows_, p, [&](const Row& r) { return per_second(r, r.input_tokens + r.output_tokens); });

  if (options_.open_loop) {
    // wrk2's correction for coordinated omission: latencies from the planned send.
    s.latency_from_planned_ns = describe_rows(rows_, p, [](const Row& r) -> Value {
      if (!r.ok || r.planned_ns < 0 || r.end_ns < 0) return std::nullopt;
      return static_cast<double>(r.end_ns - r.planned_ns);
    });
    s.ttft_from_planned_ns = describe_rows(rows_, p, [&](const Row& r) -> Value {
      if (!has_content(r) || r.planned_ns < 0) return std::nullopt;
      return static_cast<double>(r.first_content_ns - r.planned_ns);
    });
    s.ttfat_from_planned_ns = describe_rows(rows_, p, [&](const Row& r) -> Value {
      if (!has_content(r) || r.planned_ns < 0 || r.first_answer_ns < r.planned_ns)
        return std::nullopt;
      return static_cast<double>(r.first_answer_ns - r.planned_ns);
    });
    s.ttfb_from_planned_ns = describe_rows(rows_, p, [](const Row& r) -> Value {
      if (!r.ok || r.planned_ns < 0 || r.first_byte_ns < r.planned_ns) return std::nullopt;
      return static_cast<double>(r.first_byte_ns - r.planned_ns);
    });
    s.scheduled_rate = span_rate(rows_, [](const Row& r) { return r.planned_ns; });
    s.sustained_rate = span_rate(rows_, [](const Row& r) { return r.ok ? r.end_ns : -1; });
    s.achieved_rate =
        span_rate(rows_, [](const Row& r) { return r.planned_ns >= 0 ? r.sent_ns : -1; });
    s.schedule_lag_ns = describe_rows(rows_, p, [](const Row& r) -> Value {
      if (r.planned_ns < 0 || r.sent_ns < 0) return std::nullopt;
      return static_cast<double>(r.sent_ns - r.planned_ns);
    });
    s.open_loop = open_loop_summary(rows_, p);
  } else {
    for (Distribution* d : {&s.latency_from_planned_ns, &s.ttft_from_planned_ns,
                            &s.ttfat_from_planned_ns, &s.ttfb_from_planned_ns,
                            &s.schedule_lag_ns}) {
      *d = describe({}, p);
    }
  }

  if (trace != nullptr) {
    trace->requests.clear();
    trace->requests.reserve(rows_.size());
    for (const Row& r : rows_) {
      if (r.sent_ns >= 0 && r.end_ns >= r.sent_ns)
        trace->requests.push_back({r.sent_ns, r.end_ns, r.ok});
    }
    trace->output_tokens = std::move(output_tokens_);
  }
  if (options_.rate_segments > 0) s.rate_segments = rate_segments(rows_, options_.rate_segments);
  s.sessions = sessions_.finish(p);
  s.reasoning = reasoning_.finish(p);
  s.http = http_.finish(p);
  if (!prefix_groups_seen_.empty()) {
    s.prefix_groups_used =
        std::count(prefix_groups_seen_.begin(), prefix_groups_seen_.end(), char{1});
    s.ttft_prefix_first_ns = describe(std::move(ttft_prefix_first_), p);
    s.ttft_prefix_repeated_ns = describe(std::move(ttft_prefix_repeated_), p);
  }
  rows_ = {};
  return s;
}

RunSummary summarize(const std::vector<RequestRecord>& records, const MetricsOptions& options,
                     RunTrace* trace) {
  SummaryBuilder builder(options);
  for (const RequestRecord& r : records) builder.add(r);
  return builder.finish(trace);
}

}  // namespace llmperf

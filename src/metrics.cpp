// summarize(): request records -> RunSummary, following the metric definitions of DESIGN §3.
// One pass over the records collects raw samples (ns, tokens, tok/s); describe() then turns each
// sample set into a Distribution. Pure: no I/O, logging or threads.
#include "llmperf/metrics.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace llmperf {
namespace {

constexpr double kNsPerSecond = 1e9;

// Raw samples gathered from successful measured requests, one vector per Distribution.
struct Samples {
  std::vector<double> latency;
  std::vector<double> ttft;
  std::vector<double> ttfb;
  std::vector<double> tpot;
  std::vector<double> itl;
  std::vector<double> input_tokens;
  std::vector<double> output_tokens;
  std::vector<double> chunks;
  std::vector<double> output_tps;
  std::vector<double> total_tps;
  std::vector<double> latency_from_planned;
  std::vector<double> ttft_from_planned;

  // Reserves for `requests` successful requests and `gaps` pooled inter-chunk gaps.
  void reserve(size_t requests, size_t gaps, bool open_loop) {
    for (auto* v : {&latency, &ttft, &ttfb, &tpot, &input_tokens, &output_tokens, &chunks,
                    &output_tps, &total_tps}) {
      v->reserve(requests);
    }
    itl.reserve(gaps);
    if (open_loop) {
      latency_from_planned.reserve(requests);
      ttft_from_planned.reserve(requests);
    }
  }
};

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

void record_failure(const RequestRecord& r, RunSummary& s) {
  const std::string kind = failure_kind_name(r.error, r.http_status);
  ++s.failures_by_kind[kind];
  auto [it, inserted] = s.failure_examples.try_emplace(kind, r.error_message);
  if (!inserted && it->second.empty()) it->second = r.error_message;
}

// Adds the per-request samples of one successful measured request.
void collect(const RequestRecord& r, const MetricsOptions& options, Samples& out) {
  const auto in = static_cast<double>(r.input_tokens);
  const auto outp = static_cast<double>(r.output_tokens);
  out.input_tokens.push_back(in);
  out.output_tokens.push_back(outp);

  const bool has_end = r.sent_ns >= 0 && r.end_ns >= r.sent_ns;
  if (has_end) {
    const int64_t latency_ns = r.end_ns - r.sent_ns;
    out.latency.push_back(static_cast<double>(latency_ns));
    if (latency_ns > 0) {
      const double latency_s = static_cast<double>(latency_ns) / kNsPerSecond;
      out.output_tps.push_back(outp / latency_s);
      out.total_tps.push_back((in + outp) / latency_s);
    }
  }
  if (r.sent_ns >= 0 && r.first_byte_ns >= r.sent_ns) {
    out.ttfb.push_back(static_cast<double>(r.first_byte_ns - r.sent_ns));
  }

  const bool has_content = r.stream && r.first_content_ns >= 0;
  if (has_content) {
    if (r.sent_ns >= 0) out.ttft.push_back(static_cast<double>(r.first_content_ns - r.sent_ns));
    // vLLM's TPOT definition: (E2E - TTFT) / (output_tokens - 1), only when output_tokens > 1.
    if (r.output_tokens > 1 && r.end_ns >= r.first_content_ns) {
      out.tpot.push_back(static_cast<double>(r.end_ns - r.first_content_ns) / (outp - 1));
    }
    // vLLM's per-chunk ITL: every gap between consecutive output chunks, pooled.
    for (size_t i = 1; i < r.chunk_ns.size(); ++i) {
      out.itl.push_back(static_cast<double>(r.chunk_ns[i] - r.chunk_ns[i - 1]));
    }
    out.chunks.push_back(static_cast<double>(r.chunk_ns.size()));
  }

  if (options.open_loop && r.planned_ns >= 0) {
    if (r.end_ns >= 0)
      out.latency_from_planned.push_back(static_cast<double>(r.end_ns - r.planned_ns));
    if (has_content) {
      out.ttft_from_planned.push_back(static_cast<double>(r.first_content_ns - r.planned_ns));
    }
  }
}

}  // namespace

std::string TokenProvenance::label() const {
  if (from_usage == 0 && estimated == 0) return "none";
  if (estimated == 0 && unknown == 0) return "usage";
  if (from_usage == 0 && unknown == 0) return "estimated";
  return "mixed";
}

RunSummary summarize(const std::vector<RequestRecord>& records, const MetricsOptions& options) {
  RunSummary s;
  s.percentiles = options.percentiles;

  // Sizes only, so the collecting pass never reallocates (1e8 ITL samples are 800 MB).
  size_t successes = 0;
  size_t gaps = 0;
  for (const RequestRecord& r : records) {
    if (r.warmup || !r.ok()) continue;
    ++successes;
    if (r.stream && r.chunk_ns.size() > 1) gaps += r.chunk_ns.size() - 1;
  }
  Samples samples;
  samples.reserve(successes, gaps, options.open_loop);

  int64_t window_start = std::numeric_limits<int64_t>::max();
  int64_t window_end = std::numeric_limits<int64_t>::min();
  std::vector<double> schedule_lag;
  int64_t first_send = std::numeric_limits<int64_t>::max();
  int64_t last_send = std::numeric_limits<int64_t>::min();
  for (const RequestRecord& r : records) {
    if (r.warmup) {
      ++s.warmup;
      continue;
    }
    ++s.total;
    if (options.open_loop && r.planned_ns >= 0 && r.sent_ns >= 0) {
      schedule_lag.push_back(static_cast<double>(r.sent_ns - r.planned_ns));
      first_send = std::min(first_send, r.sent_ns);
      last_send = std::max(last_send, r.sent_ns);
    }
    s.streamed = s.streamed || r.stream;
    if (r.sent_ns >= 0) window_start = std::min(window_start, r.sent_ns);
    if (r.end_ns >= 0) window_end = std::max(window_end, r.end_ns);
    if (!r.ok()) {
      ++s.failed;
      record_failure(r, s);
      continue;
    }
    ++s.succeeded;
    s.total_input_tokens += r.input_tokens;
    s.total_output_tokens += r.output_tokens;
    count_source(r.input_source, s.input_provenance);
    count_source(r.output_source, s.output_provenance);
    collect(r, options, samples);
  }

  // DESIGN §3 run window: earliest t_send to latest end among measured requests.
  if (window_start != std::numeric_limits<int64_t>::max() &&
      window_end != std::numeric_limits<int64_t>::min() && window_end > window_start) {
    s.window_ns = window_end - window_start;
    const double window_s = static_cast<double>(s.window_ns) / kNsPerSecond;
    s.qps = static_cast<double>(s.succeeded) / window_s;
    s.output_throughput = static_cast<double>(s.total_output_tokens) / window_s;
    s.total_throughput =
        static_cast<double>(s.total_input_tokens + s.total_output_tokens) / window_s;
  }

  if (options.goodput.enabled()) {
    const GoodputResult goodput = compute_goodput(records, options.goodput, s.window_ns);
    s.goodput_enabled = true;
    s.goodput_spec = options.goodput;
    s.good_requests = goodput.good_requests;
    s.goodput_rps = goodput.goodput_rps;
    s.good_fraction = goodput.good_fraction;
  }

  const std::vector<double>& p = options.percentiles;
  s.latency_ns = describe(std::move(samples.latency), p);
  s.ttft_ns = describe(std::move(samples.ttft), p);
  s.ttfb_ns = describe(std::move(samples.ttfb), p);
  s.tpot_ns = describe(std::move(samples.tpot), p);
  s.itl_ns = describe(std::move(samples.itl), p);
  s.input_tokens = describe(std::move(samples.input_tokens), p);
  s.output_tokens = describe(std::move(samples.output_tokens), p);
  s.chunks_per_request = describe(std::move(samples.chunks), p);
  s.output_tps_per_request = describe(std::move(samples.output_tps), p);
  s.total_tps_per_request = describe(std::move(samples.total_tps), p);
  s.latency_from_planned_ns = describe(std::move(samples.latency_from_planned), p);
  s.ttft_from_planned_ns = describe(std::move(samples.ttft_from_planned), p);
  if (schedule_lag.size() > 1 && last_send > first_send) {
    s.achieved_rate = static_cast<double>(schedule_lag.size() - 1) /
                      (static_cast<double>(last_send - first_send) / kNsPerSecond);
  }
  s.schedule_lag_ns = describe(std::move(schedule_lag), p);
  return s;
}

}  // namespace llmperf

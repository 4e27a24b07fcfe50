// Tests for the server's metrics reduced and set beside the client's, from hand-made samples whose
// numbers make every expected value obvious: histogram quantiles by Prometheus' interpolation,
// window deltas summed over label sets (two vLLM engines), each engine's names (detect_engine,
// reduce_scrape and the preferred spellings), gauges over the scrapes during the run, and the
// reconciliation of the server's totals with the client's: exact, within and beyond tolerance,
// missing usage, llama.cpp's prompt counter as a lower bound, counters that went down; and the
// tally of a run's scrapes (failed, slow, the answered ones on the timeline).
#include "metrics/server_metrics.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace llmperf {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;
using Samples = std::vector<MetricSample>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

MetricSample sample(std::string name, double value, Labels labels = {}) {
  MetricSample s;
  s.name = std::move(name);
  s.value = value;
  s.labels = std::move(labels);
  return s;
}

// One label set of a histogram: cumulative counts by "le", then _sum and _count.
void add_histogram(Samples& samples, const std::string& name, const Labels& labels,
                   const std::vector<std::pair<std::string, double>>& buckets, double sum,
                   double count) {
  for (const auto& bucket : buckets) {
    Labels with_le = labels;
    with_le.emplace_back("le", bucket.first);
    samples.push_back(sample(name + "_bucket", bucket.second, with_le));
  }
  samples.push_back(sample(name + "_sum", sum, labels));
  samples.push_back(sample(name + "_count", count, labels));
}

HistogramWindow window(std::vector<double> bounds, std::vector<double> counts) {
  HistogramWindow w;
  w.metric = "m";
  w.bounds = std::move(bounds);
  w.counts = std::move(counts);
  w.count = w.counts.empty() ? 0 : w.counts.back();
  return w;
}

void expect_quantile(const HistogramWindow& w, double q, double value, double lower, double upper) {
  const auto got = w.quantile(q);
  ASSERT_TRUE(got.has_value()) << "q=" << q;
  EXPECT_DOUBLE_EQ(got->value, value) << "q=" << q;
  EXPECT_EQ(got->lower, lower) << "q=" << q;
  EXPECT_EQ(got->upper, upper) << "q=" << q;
}

ClientTotals client(int64_t requests, int64_t prompt_tokens, int64_t completion_tokens,
                    int64_t without_usage = 0) {
  ClientTotals c;
  c.requests = requests;
  c.prompt_tokens = prompt_tokens;
  c.completion_tokens = completion_tokens;
  c.without_usage = without_usage;
  return c;
}

// --- HistogramWindow::quantile ------------------------------------------------------------------

// 40 observations: 10 in (0, 0.1], 20 in (0.1, 0.2], 10 in (0.2, 0.5], none above.
TEST(HistogramQuantile, InterpolatesWithinTheBucket) {
  const HistogramWindow w = window({0.1, 0.2, 0.5, kInf}, {10, 30, 40, 40});
  expect_quantile(w, 0.5, 0.15, 0.1, 0.2);  // rank 20: 10 into the 20 of (0.1, 0.2]
  expect_quantile(w, 0.9, 0.38, 0.2, 0.5);  // rank 36: 6 of the 10 in (0.2, 0.5]
  expect_quantile(w, 0.75, 0.2, 0.1, 0.2);  // rank 30: the top of (0.1, 0.2]
  expect_quantile(w, 1.0, 0.5, 0.2, 0.5);
}

TEST(HistogramQuantile, TheFirstBucketStartsAtZero) {
  const HistogramWindow w = window({0.1, 0.2, 0.5, kInf}, {10, 30, 40, 40});
  expect_quantile(w, 0.1, 0.04, 0, 0.1);  // rank 4 of the 10 in (0, 0.1]
  expect_quantile(w, 0.25, 0.1, 0, 0.1);
}

TEST(HistogramQuantile, EmptyLeadingBucketsAreSkipped) {
  const HistogramWindow w = window({0.05, 0.1, 0.2, kInf}, {0, 0, 8, 8});
  expect_quantile(w, 0.5, 0.15, 0.1, 0.2);  // rank 4 of the 8 in (0.1, 0.2]
}

TEST(HistogramQuantile, InTheInfBucketGivesTheHighestFiniteBound) {
  const HistogramWindow w = window({0.1, 0.5, kInf}, {2, 6, 10});
  expect_quantile(w, 0.5, 0.4, 0.1, 0.5);  // rank 5: 3 of the 4 in (0.1, 0.5]
  expect_quantile(w, 0.9, 0.5, 0.5, kInf);
  expect_quantile(w, 0.99, 0.5, 0.5, kInf);
}

TEST(HistogramQuantile, WithoutObservationsThereIsNone) {
  EXPECT_EQ(window({}, {}).quantile(0.5), std::nullopt);
  EXPECT_EQ(window({0.1, kInf}, {0, 0}).quantile(0.5), std::nullopt);
  EXPECT_EQ(window({0.1, kInf}, {-3, -3}).quantile(0.5), std::nullopt);
}

// --- detect_engine, reduce_scrape ---------------------------------------------------------------

TEST(DetectEngine, FromEachEnginesPrefix) {
  EXPECT_EQ(detect_engine({sample("vllm:num_requests_running", 0)}), "vLLM");
  EXPECT_EQ(detect_engine({sample("sglang:num_running_reqs", 0)}), "SGLang");
  EXPECT_EQ(detect_engine({sample("tgi_queue_size", 0)}), "TGI");
  EXPECT_EQ(detect_engine({sample("llamacpp:prompt_tokens_total", 0)}), "llama.cpp");
}

TEST(DetectEngine, AfterTheProcessMetricsAndNoneWithout) {
  EXPECT_EQ(detect_engine({sample("python_gc_objects_collected_total", 1),
                           sample("process_cpu_seconds_total", 2),
                           sample("vllm:prompt_tokens_total", 3)}),
            "vLLM");
  EXPECT_EQ(detect_engine({sample("process_cpu_seconds_total", 2), sample("up", 1)}), "");
  EXPECT_EQ(detect_engine({}), "");
  EXPECT_EQ(detect_engine({sample("vllm_num_requests_running", 0)}), "");  // not "vllm:"
}

// Two vLLM engines (data parallel): requests summed over them, the KV-cache ratio averaged.
TEST(ReduceScrape, VllmSumsRequestsAndAveragesTheKvCache) {
  const Samples samples = {
      sample("vllm:num_requests_running", 3, {{"engine", "0"}}),
      sample("vllm:num_requests_running", 2, {{"engine", "1"}}),
      sample("vllm:num_requests_waiting", 1, {{"engine", "1"}}),
      sample("vllm:kv_cache_usage_perc", 0.25, {{"engine", "0"}}),
      sample("vllm:kv_cache_usage_perc", 0.75, {{"engine", "1"}}),
      sample("vllm:gpu_cache_usage_perc", 0.9, {{"engine", "0"}}),  // an older spelling
      sample("vllm:prompt_tokens_total", 1000, {{"engine", "0"}}),
      sample("vllm:prompt_tokens_total", 500, {{"engine", "1"}}),
      sample("vllm:generation_tokens_total", 4000),
      sample("vllm:request_success_total", 9, {{"finished_reason", "stop"}}),
      sample("vllm:request_success_total", 1, {{"finished_reason", "length"}}),
      sample("vllm:num_preemptions_total", 2),
      sample("vllm:prefix_cache_hits_total", 300),
      sample("vllm:prefix_cache_queries_total", 1200),
  };
  const ServerPoint p = reduce_scrape("vLLM", samples, 123);
  EXPECT_EQ(p.t_ns, 123);
  EXPECT_EQ(p.running, 5);
  EXPECT_EQ(p.waiting, 1);
  EXPECT_EQ(p.kv_usage, 0.5);
  EXPECT_EQ(p.prompt_tokens, 1500);
  EXPECT_EQ(p.generation_tokens, 4000);
  EXPECT_EQ(p.requests, 10);
  EXPECT_EQ(p.preemptions, 2);
  EXPECT_EQ(p.prefix_hits, 300);
  EXPECT_EQ(p.prefix_queries, 1200);
}

TEST(ReduceScrape, VllmOlderSpellingsWhenTheNewAreAbsent) {
  const Samples samples = {sample("vllm:gpu_cache_usage_perc", 0.9),
                           sample("vllm:gpu_prefix_cache_hits_total", 7),
                           sample("vllm:gpu_prefix_cache_queries_total", 70)};
  const ServerPoint p = reduce_scrape("vLLM", samples, 0);
  EXPECT_EQ(p.kv_usage, 0.9);
  EXPECT_EQ(p.prefix_hits, 7);
  EXPECT_EQ(p.prefix_queries, 70);
  EXPECT_EQ(p.running, std::nullopt);
  EXPECT_EQ(p.requests, std::nullopt);
}

TEST(ReduceScrape, NonFiniteValuesAreLeftOut) {
  const Samples samples = {sample("vllm:kv_cache_usage_perc", kNan, {{"engine", "0"}}),
                           sample("vllm:kv_cache_usage_perc", 0.4, {{"engine", "1"}}),
                           sample("vllm:num_requests_running", kInf),
                           sample("vllm:gpu_cache_usage_perc", 0.9)};
  const ServerPoint p = reduce_scrape("vLLM", samples, 0);
  EXPECT_EQ(p.kv_usage, 0.4);
  EXPECT_EQ(p.running, std::nullopt);
}

TEST(ReduceScrape, Sglang) {
  const Samples samples = {sample("sglang:num_running_reqs", 7),
                           sample("sglang:num_queue_reqs", 2),
                           sample("sglang:token_usage", 0.25),
                           sample("sglang:prompt_tokens_total", 1000),
                           sample("sglang:generation_tokens_total", 500),
                           sample("sglang:num_requests_total", 20),
                           sample("sglang:num_retracted_requests_total", 1),
                           sample("sglang:cached_tokens_total", 300)};
  const ServerPoint p = reduce_scrape("SGLang", samples, 0);
  EXPECT_EQ(p.running, 7);
  EXPECT_EQ(p.waiting, 2);
  EXPECT_EQ(p.kv_usage, 0.25);
  EXPECT_EQ(p.prompt_tokens, 1000);
  EXPECT_EQ(p.generation_tokens, 500);
  EXPECT_EQ(p.requests, 20);
  EXPECT_EQ(p.preemptions, 1);
  EXPECT_EQ(p.prefix_hits, 300);
  EXPECT_EQ(p.prefix_queries, 1000);  // every prompt token is looked up in the radix cache
}

TEST(ReduceScrape, Tgi) {
  Samples samples = {sample("tgi_batch_current_size", 4), sample("tgi_queue_size", 1),
                     sample("tgi_request_success", 12)};
  add_histogram(samples, "tgi_request_input_length", {}, {{"10", 2}, {"+Inf", 12}}, 300, 12);
  add_histogram(samples, "tgi_request_generated_tokens", {}, {{"10", 0}, {"+Inf", 12}}, 600, 12);
  const ServerPoint p = reduce_scrape("TGI", samples, 0);
  EXPECT_EQ(p.running, 4);
  EXPECT_EQ(p.waiting, 1);
  EXPECT_EQ(p.kv_usage, std::nullopt);
  EXPECT_EQ(p.prompt_tokens, 300);
  EXPECT_EQ(p.generation_tokens, 600);
  EXPECT_EQ(p.requests, 12);
  EXPECT_EQ(p.preemptions, std::nullopt);
}

// llama-server's names (see tests/protocol/prometheus_test.cpp); it counts no requests.
TEST(ReduceScrape, LlamaCpp) {
  const Samples samples = {
      sample("llamacpp:prompt_tokens_total", 30),   sample("llamacpp:tokens_predicted_total", 16),
      sample("llamacpp:kv_cache_usage_ratio", 0.5), sample("llamacpp:requests_processing", 2),
      sample("llamacpp:requests_deferred", 1),      sample("llamacpp:n_decode_total", 16)};
  const ServerPoint p = reduce_scrape("llama.cpp", samples, 0);
  EXPECT_EQ(p.running, 2);
  EXPECT_EQ(p.waiting, 1);
  EXPECT_EQ(p.kv_usage, 0.5);
  EXPECT_EQ(p.prompt_tokens, 30);
  EXPECT_EQ(p.generation_tokens, 16);
  EXPECT_EQ(p.requests, std::nullopt);
}

TEST(ReduceScrape, UnknownEngineGivesOnlyTheTime) {
  const Samples samples = {sample("vllm:num_requests_running", 3)};
  for (const char* engine : {"", "llmperf-mock", "vllm"}) {
    const ServerPoint p = reduce_scrape(engine, samples, 77);
    EXPECT_EQ(p.t_ns, 77) << engine;
    EXPECT_EQ(p.running, std::nullopt) << engine;
  }
}

// --- summarize_server: deltas over the window ---------------------------------------------------

// The scrape before and after a run on two vLLM engines. Over the run engine 0 finished 5
// requests (600 prompt, 400 generated tokens), engine 1 finished 5 (400 and 200); 5 TTFTs each:
// 2 in (0, 0.1], 2 in (0.1, 0.5], 1 above; sums 1.5 s and 1.5 s.
Samples vllm_before() {
  Samples s = {
      sample("vllm:num_requests_running", 0, {{"engine", "0"}}),
      sample("vllm:prompt_tokens_total", 1000, {{"engine", "0"}}),
      sample("vllm:prompt_tokens_total", 500, {{"engine", "1"}}),
      sample("vllm:generation_tokens_total", 5000, {{"engine", "0"}}),
      sample("vllm:generation_tokens_total", 1000, {{"engine", "1"}}),
      sample("vllm:request_success_total", 10, {{"engine", "0"}, {"finished_reason", "stop"}}),
      sample("vllm:request_success_total", 2, {{"engine", "0"}, {"finished_reason", "length"}}),
      sample("vllm:request_success_total", 4, {{"engine", "1"}, {"finished_reason", "stop"}}),
      sample("vllm:num_preemptions_total", 1, {{"engine", "0"}}),
      sample("vllm:prefix_cache_hits_total", 100),
      sample("vllm:prefix_cache_queries_total", 1500),
  };
  add_histogram(s, "vllm:time_to_first_token_seconds", {{"engine", "0"}},
                {{"0.1", 3}, {"0.5", 5}, {"+Inf", 6}}, 1.5, 6);
  add_histogram(s, "vllm:time_to_first_token_seconds", {{"engine", "1"}},
                {{"0.1", 0}, {"0.5", 1}, {"+Inf", 1}}, 0.25, 1);
  return s;
}

Samples vllm_after() {
  Samples s = {
      sample("vllm:num_requests_running", 0, {{"engine", "0"}}),
      sample("vllm:prompt_tokens_total", 1600, {{"engine", "0"}}),
      sample("vllm:prompt_tokens_total", 900, {{"engine", "1"}}),
      sample("vllm:generation_tokens_total", 5400, {{"engine", "0"}}),
      sample("vllm:generation_tokens_total", 1200, {{"engine", "1"}}),
      sample("vllm:request_success_total", 14, {{"engine", "0"}, {"finished_reason", "stop"}}),
      sample("vllm:request_success_total", 3, {{"engine", "0"}, {"finished_reason", "length"}}),
      sample("vllm:request_success_total", 9, {{"engine", "1"}, {"finished_reason", "stop"}}),
      sample("vllm:num_preemptions_total", 1, {{"engine", "0"}}),
      sample("vllm:prefix_cache_hits_total", 350),
      sample("vllm:prefix_cache_queries_total", 2500),
  };
  add_histogram(s, "vllm:time_to_first_token_seconds", {{"engine", "0"}},
                {{"0.1", 5}, {"0.5", 9}, {"+Inf", 11}}, 3.0, 11);
  add_histogram(s, "vllm:time_to_first_token_seconds", {{"engine", "1"}},
                {{"0.1", 2}, {"0.5", 5}, {"+Inf", 6}}, 1.75, 6);
  return s;
}

TEST(SummarizeServer, CounterDeltasSummedOverLabelSets) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 600));
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.engine, "vLLM");
  EXPECT_EQ(s.requests, 10);
  EXPECT_EQ(s.prompt_tokens, 1000);
  EXPECT_EQ(s.generation_tokens, 600);
  EXPECT_EQ(s.preemptions, 0);
  EXPECT_EQ(s.prefix_hits, 250);
  EXPECT_EQ(s.prefix_queries, 1000);
  EXPECT_EQ(s.itl, std::nullopt);
  EXPECT_EQ(s.e2e, std::nullopt);
  EXPECT_EQ(s.queue, std::nullopt);
}

TEST(SummarizeServer, HistogramBucketDeltasSummedOverLabelSets) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 600));
  ASSERT_TRUE(s.ttft.has_value());
  EXPECT_EQ(s.ttft->metric, "vllm:time_to_first_token_seconds");
  EXPECT_EQ(s.ttft->bounds, (std::vector<double>{0.1, 0.5, kInf}));
  EXPECT_EQ(s.ttft->counts, (std::vector<double>{4, 8, 10}));
  EXPECT_EQ(s.ttft->sum, 3.0);
  EXPECT_EQ(s.ttft->count, 10);
  expect_quantile(*s.ttft, 0.5, 0.2, 0.1, 0.5);  // rank 5: 1 of the 4 in (0.1, 0.5]
  expect_quantile(*s.ttft, 0.9, 0.5, 0.5, kInf);
}

TEST(SummarizeServer, BucketBoundsInEverySpelling) {
  const Samples before = {sample("vllm:num_requests_running", 0)};
  Samples after;
  add_histogram(after, "vllm:request_queue_time_seconds", {},
                {{"5e-3", 1}, {"+0.01", 2}, {"1.0", 3}, {"abc", 50}, {"", 60}, {"Inf", 4}}, 1, 4);
  const ServerSummary s = summarize_server("vLLM", before, after, {}, client(0, 0, 0));
  ASSERT_TRUE(s.queue.has_value());
  EXPECT_EQ(s.queue->bounds, (std::vector<double>{0.005, 0.01, 1, kInf}));
  EXPECT_EQ(s.queue->counts, (std::vector<double>{1, 2, 3, 4}));
}

// SRC BUG (reported to the lead): server_metrics.cpp bound_of() accepts le="NaN" (from_chars reads
// it), and a NaN key breaks the ordering of the std::map of bounds (undefined behaviour): here
// every bucket merges into one NaN bound and each quantile is NaN. Such a bucket should be skipped
// like any other le that is not a bound.
TEST(SummarizeServer, ABucketWithANanBoundIsSkipped) {
  const Samples before = {sample("vllm:num_requests_running", 0)};
  Samples after;
  add_histogram(after, "vllm:time_to_first_token_seconds", {},
                {{"NaN", 1}, {"0.1", 2}, {"+Inf", 4}}, 1, 4);
  const ServerSummary s = summarize_server("vLLM", before, after, {}, client(0, 0, 0));
  ASSERT_TRUE(s.ttft.has_value());
  EXPECT_EQ(s.ttft->bounds, (std::vector<double>{0.1, kInf}));
  EXPECT_EQ(s.ttft->counts, (std::vector<double>{2, 4}));
}

TEST(SummarizeServer, ItlPreferredOverTimePerOutputToken) {
  Samples before;
  Samples after;
  add_histogram(after, "vllm:inter_token_latency_seconds", {}, {{"0.01", 4}, {"+Inf", 4}}, 0.02, 4);
  add_histogram(after, "vllm:time_per_output_token_seconds", {}, {{"0.05", 9}, {"+Inf", 9}}, 0.1,
                9);
  before.push_back(sample("vllm:num_requests_running", 0));
  ServerSummary s = summarize_server("vLLM", before, after, {}, client(0, 0, 0));
  ASSERT_TRUE(s.itl.has_value());
  EXPECT_EQ(s.itl->metric, "vllm:inter_token_latency_seconds");
  EXPECT_EQ(s.itl->count, 4);

  Samples older;
  add_histogram(older, "vllm:time_per_output_token_seconds", {}, {{"0.05", 9}, {"+Inf", 9}}, 0.1,
                9);
  s = summarize_server("vLLM", before, older, {}, client(0, 0, 0));
  ASSERT_TRUE(s.itl.has_value());
  EXPECT_EQ(s.itl->metric, "vllm:time_per_output_token_seconds");
  EXPECT_EQ(s.itl->counts, (std::vector<double>{9, 9}));
}

TEST(SummarizeServer, TgiEndToEndAndQueueHistograms) {
  Samples before = {sample("tgi_request_success", 2)};
  add_histogram(before, "tgi_request_duration", {}, {{"0.5", 1}, {"1", 2}, {"+Inf", 2}}, 1.25, 2);
  Samples after = {sample("tgi_request_success", 6)};
  add_histogram(after, "tgi_request_duration", {}, {{"0.5", 1}, {"1", 4}, {"+Inf", 6}}, 6.25, 6);
  add_histogram(after, "tgi_request_queue_duration", {}, {{"0.001", 6}, {"+Inf", 6}}, 0.003, 6);
  const ServerSummary s = summarize_server("TGI", before, after, {}, client(4, 0, 0, 4));
  EXPECT_EQ(s.requests, 4);
  ASSERT_TRUE(s.e2e.has_value());
  EXPECT_EQ(s.e2e->counts, (std::vector<double>{0, 2, 4}));
  EXPECT_EQ(s.e2e->sum, 5);
  expect_quantile(*s.e2e, 0.25, 0.75, 0.5, 1);  // rank 1 of the 2 in (0.5, 1]
  ASSERT_TRUE(s.queue.has_value());
  EXPECT_EQ(s.queue->metric, "tgi_request_queue_duration");
  EXPECT_EQ(s.queue->count, 6);  // absent before: counted from zero
}

TEST(SummarizeServer, UnavailableWithoutBothScrapes) {
  const std::vector<std::pair<Samples, Samples>> scrapes = {
      {{}, vllm_after()}, {vllm_before(), {}}, {{}, {}}};
  for (const auto& [before, after] : scrapes) {
    const ServerSummary s = summarize_server("vLLM", before, after, {}, client(10, 1000, 600));
    EXPECT_FALSE(s.available);
    EXPECT_EQ(s.requests, std::nullopt);
    EXPECT_EQ(s.ttft, std::nullopt);
    EXPECT_FALSE(s.requests_check.available);
    EXPECT_EQ(s.token_mismatch(), std::nullopt);
    EXPECT_EQ(s.request_mismatch(), std::nullopt);
    EXPECT_TRUE(s.warnings.empty());
  }
}

TEST(SummarizeServer, UnknownEngineHasNoCountersToCheck) {
  const ServerSummary s = summarize_server("", vllm_before(), vllm_after(), {}, client(10, 1, 1));
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.requests, std::nullopt);
  EXPECT_EQ(s.ttft, std::nullopt);
  EXPECT_FALSE(s.requests_check.available);
  EXPECT_FALSE(s.prompt_check.available);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_TRUE(s.notes.empty());
}

// --- summarize_server: gauges -------------------------------------------------------------------

ServerPoint point(int64_t t_ns, std::optional<double> running, std::optional<double> kv_usage) {
  ServerPoint p;
  p.t_ns = t_ns;
  p.running = running;
  p.kv_usage = kv_usage;
  return p;
}

TEST(SummarizeServer, GaugesOverTheScrapesBetweenTheFirstAndLast) {
  const std::vector<ServerPoint> timeline = {
      point(0, 100, 0.9),         // before the run: left out
      point(1, 2, 0.25),          //
      point(2, 4, std::nullopt),  // no KV-cache gauge in this scrape
      point(3, 6, 0.75),          //
      point(4, 100, 0.9),         // after the run: left out
  };
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), timeline, client(10, 1000, 600));
  EXPECT_EQ(s.running.samples, 3);
  EXPECT_EQ(s.running.mean, 4);
  EXPECT_EQ(s.running.max, 6);
  EXPECT_TRUE(s.running.complete());
  EXPECT_EQ(s.kv_usage.samples, 2);
  EXPECT_EQ(s.kv_usage.mean, 0.5);
  EXPECT_EQ(s.kv_usage.max, 0.75);
  EXPECT_EQ(s.waiting.samples, 0);
  EXPECT_EQ(s.waiting.mean, 0);
  ASSERT_EQ(s.timeline.size(), 5U);  // every scrape kept
  EXPECT_EQ(s.timeline[4].t_ns, 4);
}

// A run shorter than one scraping interval has only the scrapes before and after it, taken while
// the server is idle: its gauges are unknown (not a maximum of 0), though the server has them.
TEST(SummarizeServer, GaugesOfARunShorterThanAScrapeAreIncomplete) {
  const ServerSummary two =
      summarize_server("vLLM", vllm_before(), vllm_after(),
                       {point(0, 0, 0.1), point(1, 0, std::nullopt)}, client(10, 1000, 600));
  EXPECT_EQ(two.running.samples, 0);
  EXPECT_TRUE(two.running.reported);
  EXPECT_FALSE(two.running.complete());
  EXPECT_TRUE(two.kv_usage.reported);
  EXPECT_FALSE(two.waiting.reported);  // no scrape had it
  const ServerSummary one =
      summarize_server("vLLM", vllm_before(), vllm_after(),
                       {point(0, 0, 0), point(1, 3, 0), point(2, 0, 0)}, client(10, 1000, 600));
  EXPECT_EQ(one.running.samples, 1);
  EXPECT_EQ(one.running.max, 3);
  EXPECT_FALSE(one.running.complete());
  const ServerSummary none =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 600));
  EXPECT_EQ(none.running.samples, 0);
  EXPECT_FALSE(none.running.reported);
  EXPECT_TRUE(none.timeline.empty());
}

TEST(SummarizeServer, GaugeMaxOfNegativeValues) {
  const ServerSummary s = summarize_server(
      "vLLM", vllm_before(), vllm_after(),
      {point(0, 0, 0), point(1, -3, 0), point(2, -1, 0), point(3, 0, 0)}, client(10, 1000, 600));
  EXPECT_EQ(s.running.max, -1);
  EXPECT_EQ(s.running.mean, -2);
}

// --- summarize_server: reconciliation -----------------------------------------------------------

TEST(Reconcile, ExactMatch) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 600));
  for (const Reconciled* r : {&s.requests_check, &s.prompt_check, &s.generation_check}) {
    EXPECT_TRUE(r->available);
    EXPECT_TRUE(r->matches);
    EXPECT_EQ(r->difference, 0);
    EXPECT_EQ(r->relative, 0);
    EXPECT_FALSE(r->lower_bound);
  }
  EXPECT_EQ(s.requests_check.client, 10);
  EXPECT_EQ(s.requests_check.server, 10);
  EXPECT_EQ(s.prompt_check.server, 1000);
  EXPECT_EQ(s.generation_check.client, 600);
  EXPECT_EQ(s.tolerance, 0.01);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_TRUE(s.notes.empty());
  EXPECT_EQ(s.token_mismatch(), 0);
  EXPECT_EQ(s.request_mismatch(), 0);
}

TEST(Reconcile, WithinTheToleranceMatches) {
  // Server 1000 prompt, 600 generated: the client about 0.5% away from each.
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 995, 603));
  EXPECT_TRUE(s.prompt_check.matches);
  EXPECT_EQ(s.prompt_check.difference, 5);
  EXPECT_TRUE(s.generation_check.matches);
  EXPECT_EQ(s.generation_check.difference, -3);
  EXPECT_DOUBLE_EQ(s.generation_check.relative, 3.0 / 603);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_DOUBLE_EQ(*s.token_mismatch(), 5.0 / 995);
}

TEST(Reconcile, AtExactlyTheToleranceMatches) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 600), 0.5);
  EXPECT_EQ(s.tolerance, 0.5);
  const ServerSummary at =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 400), 0.5);
  EXPECT_EQ(at.generation_check.relative, 0.5);
  EXPECT_TRUE(at.generation_check.matches);
  EXPECT_TRUE(at.warnings.empty());
}

TEST(Reconcile, MismatchBeyondTheToleranceWarnsWithLikelyCauses) {
  // The server counted 10 requests and 1000 prompt tokens; the client 9 and 1020.
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(9, 1020, 600));
  EXPECT_FALSE(s.requests_check.matches);
  EXPECT_EQ(s.requests_check.difference, 1);
  EXPECT_DOUBLE_EQ(s.requests_check.relative, 1.0 / 9);
  EXPECT_FALSE(s.prompt_check.matches);
  EXPECT_EQ(s.prompt_check.difference, -20);
  EXPECT_TRUE(s.generation_check.matches);
  ASSERT_EQ(s.warnings.size(), 2U);
  EXPECT_EQ(s.warnings[0],
            "requests: server 10 vs llmperf 9 (+11.1%): the server counted more: other clients on "
            "the server, requests retried by a proxy in between, or llmperf's probe/earlier "
            "traffic inside the window");
  EXPECT_EQ(s.warnings[1].rfind("prompt tokens: server 1000 vs llmperf 1020 (-2.0%): the server "
                                "counted less: ",
                                0),
            0U)
      << s.warnings[1];
  EXPECT_NE(s.warnings[1].find("a proxy that answers some requests itself"), std::string::npos);
  EXPECT_DOUBLE_EQ(*s.request_mismatch(), 1.0 / 9);
  EXPECT_DOUBLE_EQ(*s.token_mismatch(), 20.0 / 1020);
}

TEST(Reconcile, TokenMismatchIsTheLargerOfPromptAndGenerated) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 1000, 500));
  EXPECT_EQ(s.generation_check.relative, 0.2);
  EXPECT_EQ(s.token_mismatch(), 0.2);
  EXPECT_EQ(s.request_mismatch(), 0);
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0].rfind("generated tokens: server 600 vs llmperf 500 (+20.0%)", 0), 0U)
      << s.warnings[0];
}

TEST(Reconcile, ClientWithNothingAgainstAServerWithSomething) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(0, 0, 0));
  EXPECT_EQ(s.requests_check.relative, 1);
  EXPECT_FALSE(s.requests_check.matches);
  EXPECT_EQ(s.request_mismatch(), 1);
  EXPECT_EQ(s.warnings.size(), 3U);
  const ServerSummary idle =
      summarize_server("vLLM", vllm_after(), vllm_after(), {}, client(0, 0, 0));
  EXPECT_EQ(idle.requests_check.relative, 0);
  EXPECT_TRUE(idle.requests_check.matches);
  EXPECT_TRUE(idle.warnings.empty());
}

TEST(Reconcile, WithoutUsageTokensAreNotAvailable) {
  const ServerSummary s =
      summarize_server("vLLM", vllm_before(), vllm_after(), {}, client(10, 900, 500, 2));
  EXPECT_TRUE(s.requests_check.available);
  EXPECT_TRUE(s.requests_check.matches);
  EXPECT_FALSE(s.prompt_check.available);
  EXPECT_FALSE(s.generation_check.available);
  EXPECT_EQ(s.token_mismatch(), std::nullopt);
  EXPECT_EQ(s.request_mismatch(), 0);
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0], "2 answered requests carried no usage: tokens cannot be reconciled");
}

// llama.cpp's prompt counter skips the tokens it reused from its cache: below the client's total
// is expected (a note, not a mismatch); above it is a mismatch.
Samples llama(double prompt, double predicted) {
  return {sample("llamacpp:prompt_tokens_total", prompt),
          sample("llamacpp:tokens_predicted_total", predicted)};
}

TEST(Reconcile, LlamaCppPromptBelowTheClientIsALowerBound) {
  const ServerSummary s =
      summarize_server("llama.cpp", llama(100, 50), llama(900, 250), {}, client(4, 1000, 200));
  EXPECT_TRUE(s.prompt_check.available);
  EXPECT_TRUE(s.prompt_check.lower_bound);
  EXPECT_TRUE(s.prompt_check.matches);
  EXPECT_EQ(s.prompt_check.difference, -200);
  EXPECT_EQ(s.prompt_check.relative, 0.2);
  EXPECT_FALSE(s.generation_check.lower_bound);
  EXPECT_TRUE(s.generation_check.matches);
  EXPECT_FALSE(s.requests_check.available);  // llama.cpp counts no requests
  EXPECT_EQ(s.request_mismatch(), std::nullopt);
  EXPECT_EQ(s.token_mismatch(), 0);  // below by design counts as no mismatch
  EXPECT_TRUE(s.warnings.empty());
  ASSERT_EQ(s.notes.size(), 1U);
  EXPECT_EQ(s.notes[0],
            "the llama.cpp server counts only the prompt tokens it evaluated, not those reused "
            "from its cache (200 of llmperf's 1000 were reused): the prompt check only flags a "
            "server count above llmperf's");
}

TEST(Reconcile, LlamaCppPromptAboveTheClientIsAMismatch) {
  const ServerSummary s =
      summarize_server("llama.cpp", llama(0, 0), llama(1100, 200), {}, client(4, 1000, 200));
  EXPECT_TRUE(s.prompt_check.lower_bound);
  EXPECT_FALSE(s.prompt_check.matches);
  EXPECT_EQ(s.prompt_check.difference, 100);
  EXPECT_EQ(s.token_mismatch(), 0.1);
  EXPECT_TRUE(s.notes.empty());
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0].rfind("prompt tokens: server 1100 vs llmperf 1000 (+10.0%): the server "
                                "counted more",
                                0),
            0U)
      << s.warnings[0];
}

TEST(Reconcile, LlamaCppPromptSlightlyAboveWithinTolerance) {
  const ServerSummary s =
      summarize_server("llama.cpp", llama(0, 0), llama(1005, 200), {}, client(4, 1000, 200));
  EXPECT_TRUE(s.prompt_check.matches);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_TRUE(s.notes.empty());
  EXPECT_DOUBLE_EQ(*s.token_mismatch(), 0.005);
}

TEST(Reconcile, ACounterThatWentDownIsWarnedAndNotUsed) {
  Samples after = vllm_after();
  for (MetricSample& m : after) {
    if (m.name == "vllm:prompt_tokens_total") m.value = 10;  // the server restarted
  }
  const ServerSummary s = summarize_server("vLLM", vllm_before(), after, {}, client(10, 1000, 600));
  EXPECT_EQ(s.prompt_tokens, std::nullopt);
  EXPECT_FALSE(s.prompt_check.available);
  EXPECT_EQ(s.generation_tokens, 600);
  EXPECT_TRUE(s.generation_check.matches);
  EXPECT_EQ(s.token_mismatch(), 0);
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0],
            "the server's prompt tokens counter went down during the run (a restart?): not used");
}

TEST(Reconcile, ACounterAbsentFromOneScrapeHasNoDelta) {
  Samples before = vllm_before();
  std::erase_if(before,
                [](const MetricSample& m) { return m.name == "vllm:request_success_total"; });
  const ServerSummary s = summarize_server("vLLM", before, vllm_after(), {}, client(10, 1000, 600));
  EXPECT_EQ(s.requests, std::nullopt);
  EXPECT_FALSE(s.requests_check.available);
  EXPECT_EQ(s.request_mismatch(), std::nullopt);
  EXPECT_TRUE(s.warnings.empty());
}

// A restart between the scrapes resets the histograms too: their deltas would be negative.
// SRC BUG (reported to the lead): server_metrics.cpp histogram_window() keeps a window whose
// _count went down (count -4 here), which summary.json then reports as "count": -4; counters in the
// same situation are dropped with a warning.
TEST(Reconcile, AHistogramThatWentDownIsNotUsed) {
  Samples after;
  add_histogram(after, "vllm:time_to_first_token_seconds", {},
                {{"0.1", 1}, {"0.5", 2}, {"+Inf", 3}}, 0.5, 3);
  const ServerSummary s = summarize_server("vLLM", vllm_before(), after, {}, client(0, 0, 0));
  EXPECT_FALSE(s.ttft.has_value()) << "count " << (s.ttft ? s.ttft->count : 0);
}

// --- ClientTotals -------------------------------------------------------------------------------

RequestRecord answered(int32_t http_status, int64_t input, int64_t output,
                       TokenSource source = TokenSource::kUsage) {
  RequestRecord r;
  r.http_status = http_status;
  r.input_tokens = input;
  r.output_tokens = output;
  r.input_source = source;
  r.output_source = source;
  return r;
}

TEST(ClientTotals, CountsAnsweredRequestsAndTheirUsage) {
  ClientTotals c;
  c.add(answered(200, 100, 20));
  RequestRecord warm = answered(200, 50, 10);
  warm.warmup = true;  // the server saw warm-up requests too
  c.add(warm);
  EXPECT_EQ(c.requests, 2);
  EXPECT_EQ(c.prompt_tokens, 150);
  EXPECT_EQ(c.completion_tokens, 30);
  EXPECT_EQ(c.without_usage, 0);
}

TEST(ClientTotals, AnswerWithoutUsageIsCountedButNotItsTokens) {
  ClientTotals c;
  c.add(answered(200, 0, 17, TokenSource::kChunkCount));
  RequestRecord half = answered(200, 100, 9);
  half.output_source = TokenSource::kCharCount;  // prompt from usage, output estimated
  c.add(half);
  EXPECT_EQ(c.requests, 2);
  EXPECT_EQ(c.prompt_tokens, 0);
  EXPECT_EQ(c.completion_tokens, 0);
  EXPECT_EQ(c.without_usage, 2);
}

TEST(ClientTotals, OtherStatusesAreIgnored) {
  ClientTotals c;
  for (const int32_t status : {0, 400, 429, 500, 503}) c.add(answered(status, 100, 20));
  EXPECT_EQ(c.requests, 0);
  EXPECT_EQ(c.prompt_tokens, 0);
  EXPECT_EQ(c.without_usage, 0);
}

// --- ScrapeTally ---------------------------------------------------------------------------------

// Five scrapes at a 1 s interval: answered in 20, 1000 (not slow: slow is longer than the
// interval) and 30 ms, failed in 1500 (slow) and 5 ms.
TEST(ScrapeTally, CountsFailedAndSlowScrapesAndKeepsTheAnsweredOnes) {
  ScrapeTally tally(1.0);
  tally.add(20, point(0, 1, 0.1), "");
  tally.add(1500, std::nullopt, "timed out");
  tally.add(1000, point(2, 3, 0.3), "");
  tally.add(5, std::nullopt, "connection refused");
  tally.add(30, point(4, 5, 0.5), "");
  EXPECT_EQ(tally.last_error(), "connection refused");
  const ServerSummary s =
      tally.summarize("vLLM", vllm_before(), vllm_after(), client(10, 1000, 600));
  EXPECT_EQ(s.interval_s, 1.0);
  EXPECT_EQ(s.scrapes, 5);
  EXPECT_EQ(s.failed_scrapes, 2);
  EXPECT_EQ(s.slow_scrapes, 1);
  EXPECT_EQ(s.scrape_ms_max, 1500);
  ASSERT_EQ(s.timeline.size(), 3U);  // the answered scrapes only
  EXPECT_EQ(s.timeline[1].t_ns, 2);
  EXPECT_EQ(s.running.samples, 1);  // the one between the first and last answered
  EXPECT_EQ(s.running.mean, 3);
  // The rest is summarize_server's.
  EXPECT_EQ(s.requests, 10);
  EXPECT_TRUE(s.available);
}

TEST(ScrapeTally, NothingScraped) {
  const ServerSummary s = ScrapeTally(2.0).summarize("vLLM", {}, {}, client(10, 1000, 600));
  EXPECT_FALSE(s.available);
  EXPECT_EQ(s.interval_s, 2.0);
  EXPECT_EQ(s.scrapes, 0);
  EXPECT_EQ(s.failed_scrapes, 0);
  EXPECT_EQ(s.slow_scrapes, 0);
  EXPECT_EQ(s.scrape_ms_max, 0);
  EXPECT_TRUE(s.timeline.empty());
}

}  // namespace
}  // namespace llmperf

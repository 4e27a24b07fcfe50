// llmperf-mock's /metrics: MockMetrics fed hand-made request lifecycles with nanosecond stamps
// whose expected buckets are obvious, its Prometheus text parsed back line by line (families,
// exact le strings, cumulative buckets, +Inf == _count, counters, gauges, pre-created series).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server_metrics.h"

namespace llmperf::mock {
namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::string_view kLabels = R"(engine="0",model_name="m")";

// One sample line: series name, label text inside the braces, value text.
struct Sample {
  std::string name;
  std::string labels;
  std::string value;
};

// The rendered text split into samples and comment lines; fails the test on a malformed line.
struct Exposition {
  std::vector<Sample> samples;
  std::vector<std::string> comments;

  // The value of `name{labels}`, or NaN (with a test failure) when it is absent.
  double value(std::string_view name, std::string_view labels = kLabels) const {
    for (const Sample& s : samples) {
      if (s.name == name && s.labels == labels) return std::stod(s.value);
    }
    ADD_FAILURE() << "no sample " << name << "{" << labels << "}";
    return std::nan("");
  }

  // The bucket samples of histogram `name`, in order.
  std::vector<Sample> buckets(std::string_view name) const {
    std::vector<Sample> out;
    const std::string bucket = std::string(name) + "_bucket";
    for (const Sample& s : samples) {
      if (s.name == bucket) out.push_back(s);
    }
    return out;
  }
};

Exposition parse(const std::string& text) {
  Exposition e;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) {
      e.comments.push_back(line);
      continue;
    }
    const std::size_t open = line.find('{');
    const std::size_t close = line.find("} ");
    if (open == std::string::npos || close == std::string::npos || close < open) {
      ADD_FAILURE() << "malformed sample line: " << line;
      continue;
    }
    e.samples.push_back(
        {line.substr(0, open), line.substr(open + 1, close - open - 1), line.substr(close + 2)});
  }
  EXPECT_TRUE(text.ends_with("\n"));
  return e;
}

// The le label of a bucket sample, e.g. "0.001" from engine="0",le="0.001",model_name="m".
std::string le_of(const Sample& s) {
  const std::size_t start = s.labels.find("le=\"") + 4;
  return s.labels.substr(start, s.labels.find('"', start) - start);
}

std::string with_le(std::string_view le) {
  return std::string(R"(engine="0",le=")") + std::string(le) + R"(",model_name="m")";
}

// Checks the shape every histogram must have: cumulative buckets, +Inf last and equal to _count.
void expect_histogram_consistent(const Exposition& e, std::string_view name) {
  const std::vector<Sample> buckets = e.buckets(name);
  ASSERT_FALSE(buckets.empty()) << name;
  double previous = 0;
  for (const Sample& b : buckets) {
    const double count = std::stod(b.value);
    EXPECT_GE(count, previous) << name << " " << b.labels;
    previous = count;
  }
  EXPECT_EQ(le_of(buckets.back()), "+Inf") << name;
  EXPECT_EQ(previous, e.value(std::string(name) + "_count")) << name;
}

TEST(MockMetrics, PrometheusNumbersAreWrittenAsPythonReprDoes) {
  EXPECT_EQ(prometheus_number(0.001), "0.001");
  EXPECT_EQ(prometheus_number(0.025), "0.025");
  EXPECT_EQ(prometheus_number(1.0), "1.0");
  EXPECT_EQ(prometheus_number(2560.0), "2560.0");
  EXPECT_EQ(prometheus_number(0.0), "0.0");
  EXPECT_EQ(prometheus_number(123.0), "123.0");
  EXPECT_EQ(prometheus_number(0.103), "0.103");
  EXPECT_EQ(prometheus_number(1e-05), "1e-05");
  EXPECT_EQ(prometheus_number(1e16), "1e+16");
  EXPECT_EQ(prometheus_number(1e15), "1000000000000000.0");
  EXPECT_EQ(prometheus_number(HUGE_VAL), "+Inf");
}

TEST(MockMetrics, EmptyRenderHasEveryFamilyAndPreCreatedSeries) {
  const MockMetrics metrics(65536);
  const Exposition e = parse(metrics.render("m"));
  for (const auto& [name, type] : std::vector<std::pair<std::string, std::string>>{
           {"vllm:num_requests_running", "gauge"},
           {"vllm:num_requests_waiting", "gauge"},
           {"vllm:kv_cache_usage_perc", "gauge"},
           {"vllm:prefix_cache_queries_total", "counter"},
           {"vllm:prefix_cache_hits_total", "counter"},
           {"vllm:num_preemptions_total", "counter"},
           {"vllm:prompt_tokens_total", "counter"},
           {"vllm:generation_tokens_total", "counter"},
           {"vllm:request_success_total", "counter"},
           {"vllm:time_to_first_token_seconds", "histogram"},
           {"vllm:inter_token_latency_seconds", "histogram"},
           {"vllm:e2e_request_latency_seconds", "histogram"},
           {"vllm:request_queue_time_seconds", "histogram"},
       }) {
    EXPECT_EQ(std::count(e.comments.begin(), e.comments.end(), "# TYPE " + name + " " + type), 1)
        << name;
    const std::string help = "# HELP " + name + " ";
    EXPECT_EQ(std::count_if(e.comments.begin(), e.comments.end(),
                            [&help](const std::string& c) { return c.starts_with(help); }),
              1)
        << name;
  }
  for (const char* reason : {"stop", "length", "abort"}) {
    const std::string labels =
        std::string(R"(engine="0",finished_reason=")") + reason + R"(",model_name="m")";
    EXPECT_EQ(e.value("vllm:request_success_total", labels), 0.0) << reason;
  }
  EXPECT_EQ(e.value("vllm:num_preemptions_total"), 0.0);
  EXPECT_EQ(e.value("vllm:kv_cache_usage_perc"), 0.0);
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_count"), 0.0);
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_sum"), 0.0);
  for (const Sample& s : e.samples) {
    EXPECT_TRUE(s.labels.starts_with(R"(engine="0",)")) << s.name;
    EXPECT_TRUE(s.labels.ends_with(R"(model_name="m")")) << s.name;
    EXPECT_EQ(s.value, "0.0") << s.name;
  }
}

TEST(MockMetrics, BucketBoundsAreVllmsWrittenExactly) {
  const Exposition e = parse(MockMetrics(1).render("m"));
  const auto les = [&](std::string_view name) {
    std::vector<std::string> out;
    for (const Sample& s : e.buckets(name)) out.push_back(le_of(s));
    return out;
  };
  using Les = std::vector<std::string>;
  EXPECT_EQ(les("vllm:time_to_first_token_seconds"),
            (Les{"0.001", "0.005", "0.01", "0.02",  "0.04",  "0.06",   "0.08", "0.1",
                 "0.25",  "0.5",   "0.75", "1.0",   "2.5",   "5.0",    "7.5",  "10.0",
                 "20.0",  "40.0",  "80.0", "160.0", "640.0", "2560.0", "+Inf"}));
  EXPECT_EQ(les("vllm:inter_token_latency_seconds"),
            (Les{"0.01", "0.025", "0.05", "0.075", "0.1", "0.15", "0.2",  "0.3",  "0.4",  "0.5",
                 "0.75", "1.0",   "2.5",  "5.0",   "7.5", "10.0", "20.0", "40.0", "80.0", "+Inf"}));
  const Les request_les{"0.3",   "0.5",   "0.8",   "1.0",    "1.5",    "2.0",  "2.5",  "5.0",
                        "10.0",  "15.0",  "20.0",  "30.0",   "40.0",   "50.0", "60.0", "120.0",
                        "240.0", "480.0", "960.0", "1920.0", "7680.0", "+Inf"};
  EXPECT_EQ(les("vllm:e2e_request_latency_seconds"), request_les);
  EXPECT_EQ(les("vllm:request_queue_time_seconds"), request_les);
}

TEST(MockMetrics, OneRequestLifecycle) {
  MockMetrics metrics(1000);
  MeteredRequest r;
  metrics.on_arrival(r, 0, 100);
  Exposition e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:num_requests_waiting"), 1.0);
  EXPECT_EQ(e.value("vllm:num_requests_running"), 0.0);
  EXPECT_EQ(e.value("vllm:prompt_tokens_total"), 0.0);

  metrics.on_start(r, 2 * kMs);
  metrics.on_emit(r, 1, 1, 100 * kMs);  // TTFT exactly 0.1 s: the le="0.1" bucket
  metrics.on_emit(r, 2, 2, 130 * kMs);  // gaps of 30 ms and 0 (two chunks in one write)
  e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:num_requests_waiting"), 0.0);
  EXPECT_EQ(e.value("vllm:num_requests_running"), 1.0);
  EXPECT_EQ(e.value("vllm:prompt_tokens_total"), 100.0);
  EXPECT_EQ(e.value("vllm:generation_tokens_total"), 3.0);
  EXPECT_DOUBLE_EQ(e.value("vllm:kv_cache_usage_perc"), 0.103);  // (100 + 3) / 1000

  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_bucket", with_le("0.08")), 0.0);
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_bucket", with_le("0.1")), 1.0);
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_sum"), 0.1);
  EXPECT_EQ(e.value("vllm:inter_token_latency_seconds_bucket", with_le("0.01")), 1.0);
  EXPECT_EQ(e.value("vllm:inter_token_latency_seconds_bucket", with_le("0.025")), 1.0);
  EXPECT_EQ(e.value("vllm:inter_token_latency_seconds_bucket", with_le("0.05")), 2.0);
  EXPECT_EQ(e.value("vllm:inter_token_latency_seconds_count"), 2.0);
  EXPECT_DOUBLE_EQ(e.value("vllm:inter_token_latency_seconds_sum"), 0.03);
  EXPECT_EQ(e.value("vllm:request_queue_time_seconds_bucket", with_le("0.3")), 1.0);
  EXPECT_DOUBLE_EQ(e.value("vllm:request_queue_time_seconds_sum"), 0.002);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_count"), 0.0);

  metrics.on_finish(r, FinishReason::kStop, 1000 * kMs);  // e2e exactly 1 s: le="1.0"
  metrics.on_finish(r, FinishReason::kStop, 2000 * kMs);  // already finished: ignored
  e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:num_requests_running"), 0.0);
  EXPECT_EQ(e.value("vllm:kv_cache_usage_perc"), 0.0);
  EXPECT_EQ(
      e.value("vllm:request_success_total", R"(engine="0",finished_reason="stop",model_name="m")"),
      1.0);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_bucket", with_le("0.8")), 0.0);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_bucket", with_le("1.0")), 1.0);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_sum"), 1.0);
  for (const char* name : {"vllm:time_to_first_token_seconds", "vllm:inter_token_latency_seconds",
                           "vllm:e2e_request_latency_seconds", "vllm:request_queue_time_seconds"}) {
    expect_histogram_consistent(e, name);
  }
}

TEST(MockMetrics, CountersAddUpOverRequestsAndReasons) {
  MockMetrics metrics(65536);
  // Three requests: (prompt, tokens per chunk, chunks, reason); the last is aborted midway.
  struct Case {
    std::int64_t prompt;
    std::int64_t tokens;
    std::int64_t chunks;
    FinishReason reason;
  };
  const std::vector<Case> cases = {{15, 10, 10, FinishReason::kLength},
                                   {18, 20, 5, FinishReason::kStop},
                                   {3, 4, 2, FinishReason::kAbort}};
  std::int64_t t = 0;
  for (const Case& c : cases) {
    MeteredRequest r;
    metrics.on_arrival(r, t, c.prompt);
    metrics.on_start(r, t);
    for (std::int64_t i = 0; i < c.chunks; ++i) {
      metrics.on_emit(r, 1, c.tokens / c.chunks, t + (i + 1) * 10 * kMs);
    }
    metrics.on_finish(r, c.reason, t + c.chunks * 10 * kMs);
    t += 10'000 * kMs;
  }
  const Exposition e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:prompt_tokens_total"), 36.0);
  EXPECT_EQ(e.value("vllm:generation_tokens_total"), 34.0);
  for (const auto& [reason, count] :
       std::vector<std::pair<std::string, double>>{{"stop", 1}, {"length", 1}, {"abort", 1}}) {
    EXPECT_EQ(e.value("vllm:request_success_total",
                      R"(engine="0",finished_reason=")" + reason + R"(",model_name="m")"),
              count)
        << reason;
  }
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_count"), 3.0);
  EXPECT_EQ(e.value("vllm:inter_token_latency_seconds_count"), 9.0 + 4.0 + 1.0);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_count"), 3.0);
  EXPECT_EQ(e.value("vllm:time_to_first_token_seconds_bucket", with_le("0.01")), 3.0);
  expect_histogram_consistent(e, "vllm:inter_token_latency_seconds");
}

TEST(MockMetrics, ARequestAbortedWhileWaitingCountsOnlyAsAnAbort) {
  MockMetrics metrics(65536);
  MeteredRequest r;
  metrics.on_arrival(r, 0, 50);
  metrics.on_emit(r, 1, 1, kMs);  // not running: ignored
  metrics.on_finish(r, FinishReason::kLength, 5 * kMs);
  const Exposition e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:num_requests_waiting"), 0.0);
  EXPECT_EQ(e.value("vllm:prompt_tokens_total"), 0.0);
  EXPECT_EQ(e.value("vllm:generation_tokens_total"), 0.0);
  EXPECT_EQ(
      e.value("vllm:request_success_total", R"(engine="0",finished_reason="abort",model_name="m")"),
      1.0);
  EXPECT_EQ(e.value("vllm:request_success_total",
                    R"(engine="0",finished_reason="length",model_name="m")"),
            0.0);
  EXPECT_EQ(e.value("vllm:e2e_request_latency_seconds_count"), 0.0);
  EXPECT_EQ(e.value("vllm:request_queue_time_seconds_count"), 0.0);
}

TEST(MockMetrics, PrefixCacheCountersAddQueriedAndHitTokens) {
  MockMetrics metrics(65536);
  metrics.on_prefix_cache_lookup(1000, 0);
  metrics.on_prefix_cache_lookup(1000, 992);
  metrics.on_prefix_cache_lookup(30, 16);
  const Exposition e = parse(metrics.render("m"));
  EXPECT_EQ(e.value("vllm:prefix_cache_queries_total"), 2030.0);
  EXPECT_EQ(e.value("vllm:prefix_cache_hits_total"), 1008.0);
}

TEST(MockMetrics, KvCacheUsageIsClampedToOne) {
  MockMetrics metrics(10);
  MeteredRequest r;
  metrics.on_arrival(r, 0, 100);
  metrics.on_start(r, 0);
  EXPECT_EQ(parse(metrics.render("m")).value("vllm:kv_cache_usage_perc"), 1.0);
}

TEST(MockMetrics, ModelNameIsEscapedAndDefaulted) {
  const MockMetrics metrics(1);
  const std::string text = metrics.render("a\"b\\c\nd");
  EXPECT_NE(text.find(R"(vllm:num_requests_running{engine="0",model_name="a\"b\\c\nd"} 0.0)"),
            std::string::npos)
      << text;
  EXPECT_NE(metrics.render("").find(R"(model_name="mock")"), std::string::npos);
}

}  // namespace
}  // namespace llmperf::mock

// sum_expositions: replicas' series summed by name and labels (whatever their order), histogram
// buckets bucket-wise, fractions averaged, series present on some replicas only kept.
#include <gtest/gtest.h>

#include "protocol/prometheus_sum.h"

namespace llmperf {
namespace {

double sum_test_value(const Exposition& e, const std::string& name, const std::string& label = "",
                      const std::string& value = "") {
  for (const MetricSample& s : e.samples) {
    if (s.name == name && (label.empty() || s.label(label) == value)) return s.value;
  }
  ADD_FAILURE() << "no sample " << name;
  return -1;
}

TEST(SumExpositions, CountersGaugesAndBucketsAddUpFractionsAverage) {
  const Exposition a = parse_prometheus(
      "# TYPE vllm:request_success counter\n"
      "vllm:request_success_total{finished_reason=\"stop\",model_name=\"m\"} 10\n"
      "# TYPE vllm:num_requests_running gauge\n"
      "vllm:num_requests_running{model_name=\"m\"} 3\n"
      "# TYPE vllm:kv_cache_usage_perc gauge\n"
      "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.2\n"
      "# TYPE vllm:e2e_request_latency_seconds histogram\n"
      "vllm:e2e_request_latency_seconds_bucket{le=\"1\",model_name=\"m\"} 4\n"
      "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"m\"} 10\n"
      "vllm:e2e_request_latency_seconds_count{model_name=\"m\"} 10\n");
  const Exposition b = parse_prometheus(
      "vllm:request_success_total{model_name=\"m\",finished_reason=\"stop\"} 5\n"  // other order
      "vllm:num_requests_running{model_name=\"m\"} 1\n"
      "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.6\n"
      "vllm:e2e_request_latency_seconds_bucket{le=\"1\",model_name=\"m\"} 1\n"
      "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"m\"} 5\n"
      "vllm:e2e_request_latency_seconds_count{model_name=\"m\"} 5\n"
      "vllm:only_here_total 7\n");
  const Exposition sum = sum_expositions({a, b});
  EXPECT_EQ(sum_test_value(sum, "vllm:request_success_total"), 15);
  EXPECT_EQ(sum_test_value(sum, "vllm:num_requests_running"), 4);
  EXPECT_DOUBLE_EQ(sum_test_value(sum, "vllm:kv_cache_usage_perc"), 0.4);
  EXPECT_EQ(sum_test_value(sum, "vllm:e2e_request_latency_seconds_bucket", "le", "1"), 5);
  EXPECT_EQ(sum_test_value(sum, "vllm:e2e_request_latency_seconds_bucket", "le", "+Inf"), 15);
  EXPECT_EQ(sum_test_value(sum, "vllm:e2e_request_latency_seconds_count"), 15);
  EXPECT_EQ(sum_test_value(sum, "vllm:only_here_total"), 7);
  EXPECT_EQ(sum.samples.size(), 7u);  // one per series, in the order first met
  EXPECT_EQ(sum.samples.front().name, "vllm:request_success_total");
  EXPECT_EQ(sum.types.at("vllm:e2e_request_latency_seconds"), "histogram");
}

TEST(SumExpositions, OnlyGaugeFractionsAreAveraged) {
  EXPECT_TRUE(averaged_across_replicas("vllm:gpu_cache_usage_perc", "gauge"));
  EXPECT_TRUE(averaged_across_replicas("llamacpp:kv_cache_usage_ratio", ""));
  EXPECT_TRUE(averaged_across_replicas("sglang:token_usage", "gauge"));
  EXPECT_FALSE(averaged_across_replicas("vllm:num_requests_waiting", "gauge"));
  EXPECT_FALSE(averaged_across_replicas("vllm:prompt_tokens_total", "counter"));
  EXPECT_FALSE(averaged_across_replicas("x_usage_total", "counter"));
}

}  // namespace
}  // namespace llmperf

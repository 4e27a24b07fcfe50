// --push-gateway's texts: the exposition text of hand-made live figures compared whole (HELP and
// TYPE lines, units in seconds, NaN for an empty window), label value escaping, RFC 4648 URL-safe
// base64 against the RFC's test vectors, and grouping-key paths with the @base64 form where a
// value has a '/', a space or nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "report/formats/push_exposition.h"

namespace llmperf {
namespace {

LiveFigures push_test_figures() {
  LiveFigures f;
  f.succeeded = 7;
  f.failed = 2;
  f.cancelled = 1;
  f.in_flight = 3;
  f.input_tokens = 700;
  f.output_tokens = 1400;
  f.ttft.quantiles_ns = {250e6, 400e6, 490e6};
  f.ttft.sum_ns = 2.1e9;
  f.ttft.count = 7;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  f.itl.quantiles_ns = {nan, nan, nan};
  f.latency.quantiles_ns = {1.5e9, 2e9, 2.25e9};
  f.latency.sum_ns = 12e9;
  f.latency.count = 7;
  return f;
}

TEST(PushExposition, TextFormatWithHelpTypeAndSeconds) {
  const std::string expected =
      "# HELP llmperf_requests_total Measured requests finished, by outcome (warm-up requests "
      "left out).\n"
      "# TYPE llmperf_requests_total counter\n"
      "llmperf_requests_total{outcome=\"succeeded\"} 7\n"
      "llmperf_requests_total{outcome=\"failed\"} 2\n"
      "llmperf_requests_total{outcome=\"cancelled\"} 1\n"
      "# HELP llmperf_requests_in_flight Requests sent and not yet finished.\n"
      "# TYPE llmperf_requests_in_flight gauge\n"
      "llmperf_requests_in_flight 3\n"
      "# HELP llmperf_input_tokens_total Input tokens of the successful requests.\n"
      "# TYPE llmperf_input_tokens_total counter\n"
      "llmperf_input_tokens_total 700\n"
      "# HELP llmperf_output_tokens_total Output tokens of the successful requests.\n"
      "# TYPE llmperf_output_tokens_total counter\n"
      "llmperf_output_tokens_total 1400\n"
      "# HELP llmperf_ttft_seconds Time to first token; quantiles over the requests that ended "
      "in the last push interval.\n"
      "# TYPE llmperf_ttft_seconds summary\n"
      "llmperf_ttft_seconds{quantile=\"0.5\"} 0.25\n"
      "llmperf_ttft_seconds{quantile=\"0.9\"} 0.4\n"
      "llmperf_ttft_seconds{quantile=\"0.99\"} 0.49\n"
      "llmperf_ttft_seconds_sum 2.1\n"
      "llmperf_ttft_seconds_count 7\n"
      "# HELP llmperf_itl_seconds Inter-token latency (gaps between output chunks); quantiles "
      "over the requests that ended in the last push interval.\n"
      "# TYPE llmperf_itl_seconds summary\n"
      "llmperf_itl_seconds{quantile=\"0.5\"} NaN\n"
      "llmperf_itl_seconds{quantile=\"0.9\"} NaN\n"
      "llmperf_itl_seconds{quantile=\"0.99\"} NaN\n"
      "llmperf_itl_seconds_sum 0\n"
      "llmperf_itl_seconds_count 0\n"
      "# HELP llmperf_latency_seconds End-to-end latency; quantiles over the requests that "
      "ended in the last push interval.\n"
      "# TYPE llmperf_latency_seconds summary\n"
      "llmperf_latency_seconds{quantile=\"0.5\"} 1.5\n"
      "llmperf_latency_seconds{quantile=\"0.9\"} 2\n"
      "llmperf_latency_seconds{quantile=\"0.99\"} 2.25\n"
      "llmperf_latency_seconds_sum 12\n"
      "llmperf_latency_seconds_count 7\n"
      "# HELP llmperf_run_finished 1 once the run has ended and these are its final figures, "
      "else 0.\n"
      "# TYPE llmperf_run_finished gauge\n"
      "llmperf_run_finished 0\n";
  EXPECT_EQ(push_exposition_text(push_test_figures()), expected);
  LiveFigures last = push_test_figures();
  last.final = true;
  EXPECT_NE(push_exposition_text(last).find("\nllmperf_run_finished 1\n"), std::string::npos);
}

TEST(PushExposition, LabelValuesEscapeBackslashQuoteAndNewline) {
  EXPECT_EQ(exposition_label_value("plain"), "plain");
  EXPECT_EQ(exposition_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
}

TEST(PushExposition, Base64UrlFollowsRfc4648) {
  EXPECT_EQ(base64url(""), "");
  EXPECT_EQ(base64url("f"), "Zg==");
  EXPECT_EQ(base64url("fo"), "Zm8=");
  EXPECT_EQ(base64url("foo"), "Zm9v");
  EXPECT_EQ(base64url("foob"), "Zm9vYg==");
  EXPECT_EQ(base64url("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64url("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64url("\xfb\xff"), "-_8=");  // the URL-safe alphabet's two letters
}

TEST(PushExposition, GroupingPathUsesBase64WhereAValueNeedsIt) {
  EXPECT_EQ(push_grouping_path("llmperf", {}), "/metrics/job/llmperf");
  EXPECT_EQ(push_grouping_path("llmperf", {{"name", "qwen-7b_v1.5"}, {"run_id", "abc~1"}}),
            "/metrics/job/llmperf/name/qwen-7b_v1.5/run_id/abc~1");
  EXPECT_EQ(push_grouping_path("llmperf", {{"run_id", "20260101_100000/qwen/parallel_1"}}),
            "/metrics/job/llmperf/run_id@base64/" + base64url("20260101_100000/qwen/parallel_1"));
  EXPECT_EQ(push_grouping_path("llmperf", {{"name", "two words"}, {"tag", ""}}),
            "/metrics/job/llmperf/name@base64/dHdvIHdvcmRz/tag@base64/=");
  EXPECT_EQ(push_grouping_path("a/b", {}), "/metrics/job@base64/YS9i");
}

TEST(PushExposition, TextLineSaysPushesAndFailures) {
  EXPECT_EQ(render_push_gateway_text({"http://gw:9091", 5, 12, 0}),
            "Pushgateway: 12 pushes to http://gw:9091 (every 5 s), 0 failed\n");
  EXPECT_EQ(render_push_gateway_text({"http://gw:9091", 0.5, 3, 3}),
            "Pushgateway: 3 pushes to http://gw:9091 (every 0.5 s), 3 failed: the figures there "
            "are incomplete\n");
}

}  // namespace
}  // namespace llmperf

// Goodput: --goodput parsing and its errors, the per-request rule (vLLM's meaning) on hand-made
// records whose nanosecond times make every TTFT/TPOT/E2EL obvious, and summarize()'s fields.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "metrics/goodput.h"
#include "metrics/metrics.h"
#include "test_units.h"

namespace llmperf {
namespace {

// A successful stream request sent at `sent_ms` with the given TTFT, E2E and output tokens.
RequestRecord stream_record(int64_t sent_ms, int64_t ttft_ms, int64_t e2e_ms, int64_t tokens) {
  RequestRecord r;
  r.stream = true;
  r.planned_ns = r.sent_ns = sent_ms * kMs;
  r.first_byte_ns = r.sent_ns + ttft_ms * kMs;
  r.first_content_ns = r.sent_ns + ttft_ms * kMs;
  r.end_ns = r.last_event_ns = r.sent_ns + e2e_ms * kMs;
  r.chunk_ns = {r.first_content_ns, r.end_ns};
  r.output_tokens = tokens;
  r.output_source = TokenSource::kUsage;
  return r;
}

RequestRecord non_stream_record(int64_t sent_ms, int64_t e2e_ms, int64_t tokens) {
  RequestRecord r = stream_record(sent_ms, e2e_ms, e2e_ms, tokens);
  r.stream = false;
  r.first_content_ns = -1;
  r.chunk_ns.clear();
  return r;
}

RequestRecord failed_record(int64_t sent_ms, int64_t e2e_ms) {
  RequestRecord r;
  r.sent_ns = sent_ms * kMs;
  r.end_ns = r.sent_ns + e2e_ms * kMs;
  r.error = ErrorKind::kHttp;
  r.http_status = 503;
  return r;
}

void expect_error(const std::vector<std::string>& items, const std::string& fragment) {
  try {
    parse_goodput(items);
    FAIL() << "no error for " << items.front();
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("--goodput"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(GoodputParse, AnySubsetInMilliseconds) {
  GoodputSpec all = parse_goodput({"ttft:500", "tpot:50", "e2el:2000.5"});
  EXPECT_EQ(all.ttft_ns, 500 * kMs);
  EXPECT_EQ(all.tpot_ns, 50 * kMs);
  EXPECT_EQ(all.e2el_ns, 2000 * kMs + kMs / 2);
  EXPECT_TRUE(all.enabled());

  GoodputSpec one = parse_goodput({"tpot:0.25"});
  EXPECT_FALSE(one.ttft_ns);
  EXPECT_EQ(one.tpot_ns, 250'000);
  EXPECT_FALSE(one.e2el_ns);
  EXPECT_FALSE(parse_goodput({}).enabled());
}

TEST(GoodputParse, ErrorsNameTheFlagAndItem) {
  expect_error({"ttft500"}, "'ttft500'");
  expect_error({"ttft500"}, "KEY:MILLISECONDS");
  expect_error({"itl:5"}, "unknown metric 'itl'");
  expect_error({"ttft:abc"}, "'ttft:abc'");
  expect_error({"ttft:"}, "number of milliseconds");
  expect_error({"ttft:5ms"}, "number of milliseconds");
  expect_error({"e2el:-1"}, "negative");
  expect_error({"ttft:1", "ttft:2"}, "more than once");
}

TEST(GoodputRule, EveryBoundMustHoldInclusive) {
  const GoodputSpec spec = parse_goodput({"ttft:100", "tpot:10", "e2el:1000"});
  // TTFT 100 (= bound), TPOT (1000-100)/(91-1) = 10 (= bound), E2E 1000 (= bound): good.
  EXPECT_TRUE(is_good_request(stream_record(0, 100, 1000, 91), spec));
  EXPECT_FALSE(is_good_request(stream_record(0, 101, 1000, 91), spec));   // TTFT
  EXPECT_FALSE(is_good_request(stream_record(0, 100, 1000, 90), spec));   // TPOT 10.11
  EXPECT_FALSE(is_good_request(stream_record(0, 100, 1001, 200), spec));  // E2E
}

TEST(GoodputRule, SingleTokenHasNoTpotAndNonStreamHasNoTtft) {
  const GoodputSpec tpot = parse_goodput({"tpot:1"});
  EXPECT_TRUE(is_good_request(stream_record(0, 10, 900, 1), tpot));  // TPOT not defined: met
  EXPECT_TRUE(is_good_request(stream_record(0, 10, 900, 0), tpot));
  EXPECT_FALSE(is_good_request(stream_record(0, 10, 900, 2), tpot));  // TPOT 890 ms
  EXPECT_FALSE(is_good_request(non_stream_record(0, 5, 10), tpot));
  EXPECT_TRUE(is_good_request(non_stream_record(0, 5, 1), tpot));

  const GoodputSpec ttft = parse_goodput({"ttft:1000"});
  EXPECT_FALSE(is_good_request(non_stream_record(0, 5, 10), ttft));
  const GoodputSpec e2el = parse_goodput({"e2el:1000"});
  EXPECT_TRUE(is_good_request(non_stream_record(0, 5, 10), e2el));
  EXPECT_FALSE(is_good_request(failed_record(0, 5), e2el));
}

TEST(GoodputCompute, CountsRateAndFraction) {
  const GoodputSpec spec = parse_goodput({"ttft:200", "e2el:1000"});
  std::vector<RequestRecord> records = {
      stream_record(0, 100, 500, 50),     // good
      stream_record(100, 150, 1000, 50),  // good (E2E at the bound)
      stream_record(200, 300, 600, 50),   // TTFT too high
      stream_record(300, 100, 1700, 50),  // E2E too high; ends at 2000 ms: window 0..2000
      failed_record(400, 100),            // failed: not good, counted in the total
  };
  RequestRecord warm = stream_record(0, 100, 500, 50);
  warm.warmup = true;  // excluded entirely
  records.push_back(warm);

  MetricsOptions options;
  options.goodput = spec;
  const RunSummary s = summarize(records, options);
  EXPECT_TRUE(s.goodput_enabled);
  EXPECT_EQ(s.window_ns, 2000 * kMs);
  EXPECT_EQ(s.good_requests, 2);
  EXPECT_DOUBLE_EQ(s.goodput_rps, 1.0);    // 2 good / 2 s
  EXPECT_DOUBLE_EQ(s.good_fraction, 0.4);  // 2 of 5 measured
  EXPECT_EQ(s.goodput_spec.ttft_ns, 200 * kMs);

  const RunSummary plain = summarize(records, MetricsOptions{});
  EXPECT_FALSE(plain.goodput_enabled);
  EXPECT_EQ(plain.good_requests, 0);
}

TEST(GoodputCompute, EmptyRunIsZero) {
  MetricsOptions options;
  options.goodput = parse_goodput({"e2el:1"});
  const RunSummary s = summarize({}, options);
  EXPECT_TRUE(s.goodput_enabled);
  EXPECT_EQ(s.good_requests, 0);
  EXPECT_EQ(s.goodput_rps, 0);
  EXPECT_EQ(s.good_fraction, 0);
}

}  // namespace
}  // namespace llmperf

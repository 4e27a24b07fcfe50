// SLOs: every valid form of the --slo grammar, every parse error (each naming --slo and the
// expression), and evaluation against a hand-made RunSummary: pass, fail, equality at the limit,
// unit conversion (ms, s, us, %), unavailable metrics and missing percentiles, the server's totals
// against llmperf's (token_mismatch, request_mismatch); per-run verdicts.
// Their text is tested in tests/report/verdict_text_test.cpp.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "verdict/slo.h"

namespace llmperf {
namespace {

Distribution dist(double mean, double min, double max, std::vector<double> percentiles) {
  Distribution d;
  d.count = 4;
  d.mean = mean;
  d.std = 1e6;
  d.min = min;
  d.max = max;
  d.percentiles = std::move(percentiles);
  return d;
}

// A streamed run: 100 requests, 2 failed, window 10 s; percentiles 50/90/99 (ns for times).
RunSummary stream_summary() {
  RunSummary s;
  s.total = 100;
  s.succeeded = 98;
  s.failed = 2;
  s.window_ns = 10'000'000'000;
  s.qps = 9.8;
  s.output_throughput = 1000;
  s.total_throughput = 1500;
  s.streamed = true;
  s.percentiles = {50, 90, 99};
  s.ttft_ns = dist(500e6, 100e6, 900e6, {450e6, 700e6, 800e6});
  s.ttfb_ns = dist(50e6, 10e6, 90e6, {45e6, 70e6, 80e6});
  s.tpot_ns = dist(20e6, 10e6, 40e6, {19e6, 30e6, 39e6});
  s.itl_ns = dist(20e6, 1e6, 50e6, {18e6, 35e6, 45e6});
  s.latency_ns = dist(2.5e9, 1e9, 4e9, {2.4e9, 3.5e9, 3.9e9});
  s.input_tokens = dist(100, 50, 150, {100, 140, 149});
  s.output_tokens = dist(120, 100, 128, {120, 128, 128});
  return s;
}

RunSummary non_stream_summary() {
  RunSummary s = stream_summary();
  s.streamed = false;
  s.ttft_ns = Distribution{};
  s.tpot_ns = Distribution{};
  s.itl_ns = Distribution{};
  return s;
}

SloResult eval(const std::string& expression, const RunSummary& s = stream_summary()) {
  return evaluate_slo(parse_slo(expression), s);
}

void expect_parse_error(const std::string& expression, const std::string& fragment) {
  try {
    parse_slo(expression);
    FAIL() << "no error for " << expression;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("--slo '" + expression + "': ", 0), 0U) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(SloParse, DistributionWithStatAndTimeUnit) {
  Slo slo = parse_slo("  ttft.p99<=800ms ");
  EXPECT_EQ(slo.expression, "ttft.p99<=800ms");
  EXPECT_EQ(slo.metric, "ttft");
  EXPECT_EQ(slo.stat, "p99");
  EXPECT_EQ(slo.percentile, 99);
  EXPECT_EQ(slo.op, SloOp::kLe);
  EXPECT_EQ(slo.threshold, 800);
  EXPECT_EQ(slo.unit, "ms");
  EXPECT_EQ(slo.divisor, 1e6);
  EXPECT_EQ(slo.name(), "ttft.p99");

  slo = parse_slo("e2el.mean < 2.5 s");
  EXPECT_EQ(slo.metric, "latency");
  EXPECT_EQ(slo.stat, "mean");
  EXPECT_EQ(slo.op, SloOp::kLt);
  EXPECT_EQ(slo.threshold, 2.5);
  EXPECT_EQ(slo.divisor, 1e9);

  slo = parse_slo("itl.p99.9>=1500us");
  EXPECT_EQ(slo.stat, "p99.9");
  EXPECT_EQ(slo.percentile, 99.9);
  EXPECT_EQ(slo.op, SloOp::kGe);
  EXPECT_EQ(slo.unit, "us");

  EXPECT_EQ(parse_slo("tpot.max>1e2ms").threshold, 100);
  EXPECT_EQ(parse_slo("ttfb.min==0ms").op, SloOp::kEq);
  EXPECT_EQ(parse_slo("ttft.p50.0<=1s").stat, "p50");
  EXPECT_EQ(parse_slo("output_tokens.std<=5").unit, "tokens");
  EXPECT_EQ(parse_slo("input_tokens.p90 <= 100 tokens").threshold, 100);
}

TEST(SloParse, RunLevelValues) {
  Slo slo = parse_slo("error_rate<=1%");
  EXPECT_EQ(slo.stat, "");
  EXPECT_EQ(slo.unit, "%");
  EXPECT_EQ(slo.threshold, 1);
  slo = parse_slo("error_rate<=0.01");
  EXPECT_EQ(slo.unit, "");
  EXPECT_EQ(slo.threshold, 0.01);
  EXPECT_EQ(parse_slo("output_throughput>=1000").unit, "tok/s");
  EXPECT_EQ(parse_slo("total_throughput >= 1000 tok/s").unit, "tok/s");
  EXPECT_EQ(parse_slo("qps>=5req/s").unit, "req/s");
  EXPECT_EQ(parse_slo("goodput>5").unit, "req/s");
  EXPECT_EQ(parse_slo("success_rate>=99.5%").threshold, 99.5);
  EXPECT_EQ(parse_slo("good_fraction>=0.9").threshold, 0.9);
  EXPECT_EQ(parse_slo("failed==0").op, SloOp::kEq);
}

TEST(SloParse, ErrorsNameTheFlagAndExpression) {
  expect_parse_error("ttft.p99<=800", "missing unit (ms, s or us)");
  expect_parse_error("ttft.p99<=800kg", "unit 'kg' does not apply to ttft");
  expect_parse_error("ttft<=800ms", "ttft needs a statistic");
  expect_parse_error("ttft.p101<=800ms", "outside 0..100");
  expect_parse_error("ttft.median<=800ms", "unknown statistic 'median'");
  expect_parse_error("ttft.p<=800ms", "unknown statistic 'p'");
  expect_parse_error("ttft.p9x<=800ms", "unknown statistic 'p9x'");
  expect_parse_error("foo.p99<=1ms", "unknown metric 'foo'");
  expect_parse_error("TTFT.p99<=1ms", "expected a metric name");
  expect_parse_error("qps.mean>=1", "qps is a run-level value and takes no statistic");
  expect_parse_error("ttft.p99 800ms", "expected an operator");
  expect_parse_error("ttft.p99=800ms", "expected an operator");
  expect_parse_error("ttft.p99!=800ms", "expected an operator");
  expect_parse_error("ttft.p99<=ms", "expected a number after '<='");
  expect_parse_error("ttft.p99<=", "expected a number");
  expect_parse_error("error_rate<=5", "fraction between 0 and 1; write 5%");
  expect_parse_error("error_rate<=1ms", "unit 'ms' does not apply to error_rate");
  expect_parse_error("qps>=1tok/s", "unit 'tok/s' does not apply to qps");
  expect_parse_error("output_throughput>=1req/s", "use tok/s");
  expect_parse_error("failed<=1%", "failed is a count and takes no unit");
  expect_parse_error("output_tokens.mean>=1ms", "unit 'ms' does not apply to output_tokens");
  expect_parse_error("", "empty expression");
  expect_parse_error("   ", "empty expression");
}

TEST(SloEvaluate, PassFailAndTheText) {
  SloResult r = eval("ttft.p99<=900ms");
  EXPECT_TRUE(r.passed);
  EXPECT_TRUE(r.available);
  EXPECT_DOUBLE_EQ(r.actual, 800);
  EXPECT_EQ(r.text, "ttft.p99 = 800 ms, limit <= 900 ms");

  r = eval("ttft.p90<=650ms");
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text, "ttft.p90 = 700 ms, limit <= 650 ms");
  EXPECT_FALSE(eval("qps>=10").passed);
  EXPECT_EQ(eval("qps>=10").text, "qps = 9.8 req/s, limit >= 10 req/s");
  EXPECT_TRUE(eval("output_throughput>=1000").passed);
  EXPECT_TRUE(eval("total_throughput>1400tok/s").passed);
  EXPECT_TRUE(eval("output_tokens.mean==120").passed);
  EXPECT_TRUE(eval("input_tokens.max<=150").passed);
  EXPECT_TRUE(eval("tpot.std<=1ms").passed);
  EXPECT_TRUE(eval("ttfb.min>=10ms").passed);
}

TEST(SloEvaluate, BoundaryEquality) {
  EXPECT_TRUE(eval("ttft.p99<=800ms").passed);
  EXPECT_FALSE(eval("ttft.p99<800ms").passed);
  EXPECT_TRUE(eval("ttft.p99>=800ms").passed);
  EXPECT_FALSE(eval("ttft.p99>800ms").passed);
  EXPECT_TRUE(eval("ttft.p99==800ms").passed);
  EXPECT_TRUE(eval("ttft.p99==0.8s").passed);
  EXPECT_TRUE(eval("error_rate<=2%").passed);
  EXPECT_FALSE(eval("error_rate<2%").passed);
  EXPECT_TRUE(eval("success_rate>=98%").passed);
  EXPECT_TRUE(eval("failed<=2").passed);
  EXPECT_FALSE(eval("failed<2").passed);
}

TEST(SloEvaluate, UnitConversion) {
  EXPECT_DOUBLE_EQ(eval("latency.p99<=4s").actual, 3.9);
  EXPECT_DOUBLE_EQ(eval("latency.p99<=4000ms").actual, 3900);
  EXPECT_DOUBLE_EQ(eval("itl.p50<=20000us").actual, 18000);
  EXPECT_TRUE(eval("itl.p50<=18000us").passed);
  EXPECT_FALSE(eval("itl.p50<=17999us").passed);
  EXPECT_TRUE(eval("latency.mean<2.6s").passed);
  EXPECT_FALSE(eval("latency.mean<2.5s").passed);

  SloResult percent = eval("error_rate<=1%");
  EXPECT_FALSE(percent.passed);
  EXPECT_DOUBLE_EQ(percent.actual, 2);
  EXPECT_EQ(percent.text, "error_rate = 2%, limit <= 1%");
  SloResult fraction = eval("error_rate<=0.01");
  EXPECT_FALSE(fraction.passed);
  EXPECT_DOUBLE_EQ(fraction.actual, 0.02);
  EXPECT_EQ(fraction.text, "error_rate = 0.02, limit <= 0.01");
  EXPECT_TRUE(eval("error_rate<=0.02").passed);
}

TEST(SloEvaluate, UnavailableMetricsFail) {
  SloResult r = eval("ttft.p99<=800ms", non_stream_summary());
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.available);
  EXPECT_NE(r.text.find("ttft.p99 unavailable"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("did not stream"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("limit <= 800 ms"), std::string::npos) << r.text;
  EXPECT_TRUE(eval("latency.p99<=4s", non_stream_summary()).passed);

  RunSummary no_tpot = stream_summary();
  no_tpot.tpot_ns = Distribution{};
  r = eval("tpot.mean<=100ms", no_tpot);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("no successful request"), std::string::npos) << r.text;

  r = eval("ttft.p97<=800ms");
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("p97 not computed; add it to --percentiles"), std::string::npos) << r.text;

  r = eval("goodput>=1");
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("add --goodput"), std::string::npos) << r.text;

  RunSummary empty;
  r = eval("error_rate<=1%", empty);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("no requests"), std::string::npos) << r.text;

  RunSummary all_failed;
  all_failed.total = all_failed.failed = 3;
  EXPECT_FALSE(eval("qps>=0", all_failed).passed);  // empty window: unavailable
  EXPECT_DOUBLE_EQ(eval("error_rate<=100%", all_failed).actual, 100);
  EXPECT_FALSE(eval("latency.p99<=1s", all_failed).available);
}

TEST(SloEvaluate, GoodputMetrics) {
  RunSummary s = stream_summary();
  s.goodput_enabled = true;
  s.good_requests = 90;
  s.goodput_rps = 9;
  s.good_fraction = 0.9;
  EXPECT_TRUE(eval("goodput>=9", s).passed);
  EXPECT_TRUE(eval("good_fraction>=90%", s).passed);
  EXPECT_FALSE(eval("good_fraction>0.9", s).passed);
}

// The server's totals against llmperf's, from its /metrics: the relative differences as
// fractions (token_mismatch the larger of prompt and generated tokens).
RunSummary server_summary(double prompt_relative, double generation_relative,
                          double requests_relative) {
  RunSummary s = stream_summary();
  s.server.available = true;
  const auto check = [](double relative) {
    Reconciled r;
    r.available = true;
    r.client = 1000;
    r.server = 1000 * (1 + relative);
    r.difference = r.server - r.client;
    r.relative = relative;
    r.matches = relative <= 0.01;
    return r;
  };
  s.server.prompt_check = check(prompt_relative);
  s.server.generation_check = check(generation_relative);
  s.server.requests_check = check(requests_relative);
  return s;
}

TEST(SloParse, ServerMismatchesAreFractions) {
  Slo slo = parse_slo("token_mismatch<=1%");
  EXPECT_EQ(slo.metric, "token_mismatch");
  EXPECT_EQ(slo.stat, "");
  EXPECT_EQ(slo.op, SloOp::kLe);
  EXPECT_EQ(slo.threshold, 1);
  EXPECT_EQ(slo.unit, "%");
  EXPECT_EQ(slo.divisor, 0.01);
  EXPECT_EQ(slo.name(), "token_mismatch");
  slo = parse_slo("request_mismatch < 0.005");
  EXPECT_EQ(slo.metric, "request_mismatch");
  EXPECT_EQ(slo.op, SloOp::kLt);
  EXPECT_EQ(slo.unit, "");
  EXPECT_EQ(slo.threshold, 0.005);
  EXPECT_EQ(parse_slo("request_mismatch==0").op, SloOp::kEq);

  expect_parse_error("token_mismatch<=5", "fraction between 0 and 1; write 5%");
  expect_parse_error("token_mismatch<=1ms", "unit 'ms' does not apply to token_mismatch");
  expect_parse_error("request_mismatch.p99<=1%", "request_mismatch is a run-level value");
}

TEST(SloEvaluate, ServerMismatchPassAndFail) {
  const RunSummary s = server_summary(0.02, 0.005, 0);
  SloResult r = eval("token_mismatch<=1%", s);
  EXPECT_TRUE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_DOUBLE_EQ(r.actual, 2);
  EXPECT_EQ(r.text, "token_mismatch = 2%, limit <= 1%");
  EXPECT_TRUE(eval("token_mismatch<=2%", s).passed);
  EXPECT_TRUE(eval("token_mismatch<=0.02", s).passed);
  EXPECT_FALSE(eval("token_mismatch<0.02", s).passed);
  r = eval("request_mismatch==0", s);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.text, "request_mismatch = 0, limit == 0");
  EXPECT_FALSE(eval("request_mismatch<=1%", server_summary(0, 0, 0.1)).passed);
  EXPECT_DOUBLE_EQ(eval("token_mismatch<=1%", server_summary(0.001, 0.03, 0)).actual, 3);
}

TEST(SloEvaluate, LengthMissIsTheShareOfCheckedRequests) {
  RunSummary s = stream_summary();
  s.length_misses.checked = 8;
  s.length_misses.missed = 6;  // e.g. prompts cut by the server to fit its context
  SloResult r = eval("length_miss<=0", s);
  EXPECT_TRUE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_DOUBLE_EQ(r.actual, 0.75);
  EXPECT_EQ(r.text, "length_miss = 0.75, limit <= 0");
  EXPECT_EQ(eval("length_miss<=1%", s).text, "length_miss = 75%, limit <= 1%");
  s.length_misses.missed = 0;
  EXPECT_TRUE(eval("length_miss<=0", s).passed);
  EXPECT_TRUE(eval("length_miss==0", s).passed);

  s.length_misses = {};
  r = eval("length_miss<=0", s);
  EXPECT_FALSE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text,
            "length_miss unavailable: no successful request had a length target that usage could "
            "verify; limit <= 0");
  expect_parse_error("length_miss<=5", "fraction between 0 and 1; write 5%");
  expect_parse_error("length_miss.max<=0", "length_miss is a run-level value");
}

// Open loop: the share of sends that found the in-flight cap reached (the server fell behind).
TEST(SloEvaluate, CapReachedIsTheShareOfSendsThatWaitedForASlot) {
  RunSummary s = stream_summary();
  SloResult r = eval("cap_reached<=0", s);
  EXPECT_FALSE(r.available);
  EXPECT_EQ(r.text, "cap_reached unavailable: only an open-loop run (--rate) has it; limit <= 0");
  s.open_loop.sends = 200;
  s.open_loop.slot_waits = 50;
  r = eval("cap_reached<=10%", s);
  EXPECT_TRUE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text, "cap_reached = 25%, limit <= 10%");
  EXPECT_TRUE(eval("cap_reached<=0.25", s).passed);
  s.open_loop.slot_waits = 0;
  EXPECT_TRUE(eval("cap_reached<=0", s).passed);
}

// The llama.cpp probe of issue 37: at 100 req/s with one slot, TTFT from the send was 40 ms at
// p99 but 3,566 ms from the planned send. An open-loop run is judged on what a user waited.
RunSummary open_loop_summary() {
  RunSummary s = stream_summary();
  s.open_loop.sends = 100;
  s.open_loop.slot_waits = 90;
  s.ttft_ns = dist(30e6, 10e6, 45e6, {30e6, 38e6, 40.4e6});
  s.ttft_from_planned_ns = dist(2e9, 10e6, 3.6e9, {2e9, 3.2e9, 3566e6});
  s.ttfat_from_planned_ns = s.ttft_from_planned_ns;
  s.ttfat_ns = s.ttft_ns;
  s.ttfb_from_planned_ns = dist(2e9, 10e6, 3.6e9, {2e9, 3.2e9, 3500e6});
  s.latency_from_planned_ns = dist(5e9, 1e9, 8e9, {5e9, 7e9, 7.9e9});
  return s;
}

TEST(SloEvaluate, OpenLoopLatenciesAreJudgedFromThePlannedSend) {
  const RunSummary s = open_loop_summary();
  SloResult r = eval("ttft.p99<=1000ms", s);
  EXPECT_FALSE(r.passed);
  EXPECT_DOUBLE_EQ(r.actual, 3566);
  EXPECT_EQ(r.text, "ttft.p99 = 3566 ms (from the planned send), limit <= 1000 ms");
  EXPECT_FALSE(eval("ttfat.p99<=1000ms", s).passed);
  EXPECT_DOUBLE_EQ(eval("ttfb.p99<=1000ms", s).actual, 3500);
  EXPECT_DOUBLE_EQ(eval("latency.p99<=10s", s).actual, 7.9);
  EXPECT_DOUBLE_EQ(eval("e2el.p50<=10s", s).actual, 5);
  EXPECT_TRUE(judged_from_planned_send(parse_slo("ttft.p99<=1s"), s));
  // Times that do not start at a send are the same on either clock.
  EXPECT_EQ(eval("tpot.p99<=40ms", s).text, "tpot.p99 = 39 ms, limit <= 40 ms");
  EXPECT_FALSE(judged_from_planned_send(parse_slo("tpot.p99<=1s"), s));
}

TEST(SloEvaluate, TheSendClockCanBeNamed) {
  const RunSummary s = open_loop_summary();
  SloResult r = eval("ttft_from_send.p99<=1000ms", s);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.text, "ttft_from_send.p99 = 40.4 ms, limit <= 1000 ms");
  EXPECT_DOUBLE_EQ(eval("latency_from_send.p99<=10s", s).actual, 3.9);
  EXPECT_DOUBLE_EQ(eval("ttfb_from_send.p50<=1s", s).actual, 0.045);
  r = eval("ttft_from_planned.p99<=4s", s);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.text, "ttft_from_planned.p99 = 3.566 s, limit <= 4 s");
  EXPECT_FALSE(judged_from_planned_send(parse_slo("ttft_from_send.p99<=1s"), s));
  EXPECT_TRUE(judged_from_planned_send(parse_slo("ttft_from_planned.p99<=1s"), s));
}

TEST(SloEvaluate, ClosedLoopRunsKeepTheSendClock) {
  const RunSummary s = stream_summary();
  EXPECT_EQ(eval("ttft.p99<=1000ms", s).text, "ttft.p99 = 800 ms, limit <= 1000 ms");
  EXPECT_EQ(eval("ttft_from_send.p99<=1000ms", s).text,
            "ttft_from_send.p99 = 800 ms, limit <= 1000 ms");
  const SloResult r = eval("latency_from_planned.p99<=1s", s);
  EXPECT_FALSE(r.available);
  EXPECT_EQ(r.text,
            "latency_from_planned.p99 unavailable: only an open-loop run (--rate, a trace) has a "
            "planned send; limit <= 1 s");
  EXPECT_FALSE(judged_from_planned_send(parse_slo("ttft.p99<=1s"), s));
}

TEST(SloEvaluate, RateSustainedSaysWhatTheServerKeptUpWith) {
  RunSummary s = open_loop_summary();
  s.scheduled_rate = 100;
  s.sustained_rate = 9.6;
  SloResult r = eval("rate_sustained>=95%", s);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text,
            "rate_sustained = 9.6% (the server sustained 9.6 of the 100 req/s asked), "
            "limit >= 95%");
  s.sustained_rate = 96;
  EXPECT_TRUE(eval("rate_sustained>=95%", s).passed);
  EXPECT_FALSE(eval("rate_sustained>=0.97", s).passed);
  s.succeeded = 1;
  EXPECT_EQ(eval("rate_sustained>=95%", s).text,
            "rate_sustained unavailable: fewer than two requests succeeded; limit >= 95%");
  EXPECT_EQ(eval("rate_sustained>=95%").text,
            "rate_sustained unavailable: only an open-loop run (--rate, a trace) has it; "
            "limit >= 95%");
}

TEST(SloEvaluate, ServerMismatchUnavailableSaysWhy) {
  RunSummary s = server_summary(0, 0, 0);
  s.server.available = false;
  s.server.unavailable_reason = "connection refused";
  SloResult r = eval("token_mismatch<=1%", s);
  EXPECT_FALSE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text,
            "token_mismatch unavailable: the server's /metrics were not read: connection refused; "
            "limit <= 1%");
  s.server.unavailable_reason.clear();
  r = eval("request_mismatch<=1%", s);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.text,
            "request_mismatch unavailable: the server's /metrics were not read; limit <= 1%");
  EXPECT_FALSE(eval("token_mismatch<=1%", RunSummary{}).available);  // nothing measured either
}

TEST(SloEvaluate, ServerMismatchWithoutTheCounters) {
  RunSummary s = server_summary(0, 0, 0);
  s.server.prompt_check = Reconciled{};
  s.server.generation_check = Reconciled{};  // usage missing, or no token counters
  s.server.requests_check = Reconciled{};    // e.g. llama.cpp counts no requests
  SloResult r = eval("token_mismatch<=1%", s);
  EXPECT_FALSE(r.available);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("the server exports no token counters, or usage was missing"),
            std::string::npos)
      << r.text;
  r = eval("request_mismatch<=1%", s);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.text.find("the server exports no finished-request counter"), std::string::npos)
      << r.text;
}

TEST(SloEvaluate, LlamaCppPromptBelowTheClientIsNoTokenMismatch) {
  RunSummary s = server_summary(0, 0, 0);
  s.server.prompt_check.difference = -200;  // 200 prompt tokens reused from its cache
  s.server.prompt_check.relative = 0.2;
  s.server.prompt_check.lower_bound = true;
  EXPECT_TRUE(eval("token_mismatch==0", s).passed);
  s.server.prompt_check.difference = 200;  // above the client: a real mismatch
  EXPECT_DOUBLE_EQ(eval("token_mismatch<=1%", s).actual, 20);
}

TEST(SloVerdict, AllMustPass) {
  const std::vector<Slo> slos = {parse_slo("ttft.p99<=800ms"), parse_slo("error_rate<=1%")};
  RunSummary s = stream_summary();
  RunVerdict verdict = evaluate_slos("parallel_8_number_100", slos, s);
  ASSERT_EQ(verdict.results.size(), 2U);
  EXPECT_FALSE(verdict.passed());
  EXPECT_TRUE(verdict.results[0].second.passed);
  s.failed = 1;
  s.succeeded = 99;
  EXPECT_TRUE(evaluate_slos("run", slos, s).passed());
  EXPECT_TRUE(evaluate_slos("run", {}, s).passed());
}

TEST(SloHelp, MentionsTheGrammar) {
  EXPECT_NE(slo_grammar_help().find("METRIC[.STAT] OP NUMBER[UNIT]"), std::string::npos);
}

// SRC BUG (reported to the lead): slo.cpp slo_grammar_help() (and the grammar in slo.h's header
// comment) list every run-level metric but token_mismatch and request_mismatch.
TEST(SloHelp, MentionsTheServerMismatches) {
  EXPECT_NE(slo_grammar_help().find("token_mismatch"), std::string::npos);
  EXPECT_NE(slo_grammar_help().find("request_mismatch"), std::string::npos);
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

TEST(SloMetric, ParsesAMetricAloneInItsNaturalUnit) {
  const Slo ttft = parse_metric("ttft.p99", "--objective");
  EXPECT_EQ(ttft.name(), "ttft.p99");
  EXPECT_EQ(ttft.unit, "ms");
  EXPECT_DOUBLE_EQ(*metric_value(ttft, stream_summary()), 800.0);  // 800e6 ns
  EXPECT_FALSE(higher_is_better(ttft));

  const Slo out = parse_metric(" output_throughput ", "--objective");
  EXPECT_EQ(out.unit, "tok/s");
  EXPECT_DOUBLE_EQ(*metric_value(out, stream_summary()), 1000.0);
  EXPECT_TRUE(higher_is_better(out));
  EXPECT_TRUE(higher_is_better(parse_metric("success_rate", "--objective")));
  EXPECT_FALSE(higher_is_better(parse_metric("error_rate", "--objective")));
  EXPECT_DOUBLE_EQ(*metric_value(parse_metric("error_rate", "x"), stream_summary()), 0.02);
}

TEST(SloMetric, SaysWhyARunLacksTheMetric) {
  std::string why;
  EXPECT_FALSE(metric_value(parse_metric("ttft.mean", "x"), non_stream_summary(), &why));
  EXPECT_NE(why.find("did not stream"), std::string::npos) << why;
}

TEST(SloMetric, RejectsOperatorsAndUnknownNamesNamingTheFlag) {
  try {
    parse_metric("ttft.p99<=2s", "--objective");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--objective 'ttft.p99<=2s'"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(parse_metric("speed", "--objective"), std::invalid_argument);
  EXPECT_THROW(parse_metric("ttft", "--objective"), std::invalid_argument);  // needs a STAT
}


// --num-runs: the SLO on the 95 % interval of the repeats. Throughputs 990, 1000, 1010: mean 1000,
// half-width t(0.975, 2) x 10 / sqrt(3) = 4.303 x 5.774 = 24.84, interval [975.2, 1024.8].
std::vector<RunSummary> repeats_with_throughput(std::vector<double> values) {
  std::vector<RunSummary> out;
  for (double value : values) {
    RunSummary s = stream_summary();
    s.output_throughput = value;
    out.push_back(s);
  }
  return out;
}

SloResult eval_on_repeats(const std::string& expression, const std::vector<RunSummary>& repeats) {
  std::vector<const RunSummary*> pointers;
  for (const RunSummary& s : repeats) pointers.push_back(&s);
  return evaluate_slo_on_repeats(parse_slo(expression), pointers);
}

TEST(SloOnRepeats, OnlyAWholeIntervalBeyondTheLimitViolates) {
  const auto repeats = repeats_with_throughput({990, 1000, 1010});
  // Limit inside the interval: a single repeat (990) would fail, the repeats cannot tell.
  const SloResult inside = eval_on_repeats("output_throughput>=1005", repeats);
  EXPECT_TRUE(inside.passed) << inside.text;
  EXPECT_DOUBLE_EQ(inside.actual, 1000);
  EXPECT_NE(inside.text.find("mean of 3 repeats, 95 % interval [975.2, 1024.8]"), std::string::npos)
      << inside.text;
  EXPECT_NE(inside.text.find("cannot tell"), std::string::npos) << inside.text;
  // The whole interval below the limit: violated.
  const SloResult below = eval_on_repeats("output_throughput>=1030", repeats);
  EXPECT_FALSE(below.passed) << below.text;
  EXPECT_EQ(below.text.find("cannot tell"), std::string::npos);
  // The whole interval above: passes, without doubt.
  const SloResult clear = eval_on_repeats("output_throughput>=900", repeats);
  EXPECT_TRUE(clear.passed);
  EXPECT_EQ(clear.text.find("cannot tell"), std::string::npos);
  // Lower is better: the interval's low end decides.
  EXPECT_TRUE(eval_on_repeats("output_throughput<=980", repeats).passed);
  EXPECT_FALSE(eval_on_repeats("output_throughput<=970", repeats).passed);
  // Equality: the limit within the interval.
  EXPECT_TRUE(eval_on_repeats("output_throughput==1020", repeats).passed);
  EXPECT_FALSE(eval_on_repeats("output_throughput==1100", repeats).passed);
}

TEST(SloOnRepeats, AMetricNoRepeatHasFails) {
  std::vector<RunSummary> repeats = {non_stream_summary(), non_stream_summary()};
  const SloResult result = eval_on_repeats("ttft.p99<=800ms", repeats);
  EXPECT_FALSE(result.passed);
  EXPECT_FALSE(result.available);
  EXPECT_NE(result.text.find("unavailable in every repeat"), std::string::npos) << result.text;
}

}  // namespace
}  // namespace llmperf

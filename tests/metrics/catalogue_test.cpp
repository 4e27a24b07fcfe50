// The catalogue of metrics: every name once, latency's other name, and the key figures that
// --baseline, --num-runs and the history compare: their names, labels, keys and units, as the
// outputs have always written them, and their values read from a hand-made RunSummary (times
// from the actual send even in an open-loop run, fractions in percent).
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

Distribution dist(double mean, std::vector<double> percentiles) {
  Distribution d;
  d.count = 3;
  d.mean = mean;
  d.percentiles = std::move(percentiles);
  return d;
}

// 10 requests, 2 failed, streamed, percentiles 50 and 99, in ns for times.
RunSummary summary() {
  RunSummary s;
  s.total = 10;
  s.succeeded = 8;
  s.failed = 2;
  s.window_ns = 4'000'000'000;
  s.qps = 2;
  s.output_throughput = 300;
  s.streamed = true;
  s.percentiles = {50, 99};
  s.latency_ns = dist(1.5e9, {1.4e9, 2.5e9});
  s.ttft_ns = dist(20e6, {18e6, 40e6});
  s.tpot_ns = dist(5e6, {4e6, 9e6});
  s.itl_ns = dist(5.5e6, {5e6, 11e6});
  return s;
}

TEST(Catalogue, EveryNameOnceAndLatencyAnswersToE2el) {
  std::set<std::string> names;
  for (const MetricInfo& metric : metric_catalogue()) {
    EXPECT_TRUE(names.insert(std::string(metric.name)).second) << metric.name;
    EXPECT_FALSE(metric.label.empty()) << metric.name;
    EXPECT_EQ(find_metric_info(metric.name), &metric);
    // A per-request time has a time unit; a clock of its own only where it is a time.
    if (metric.kind == MetricKind::kTime) {
      EXPECT_TRUE(metric.unit == "ms" || metric.unit == "s") << metric.name;
    } else {
      EXPECT_EQ(metric.clock, MetricClock::kNone) << metric.name;
    }
    if (metric.clock == MetricClock::kUserSees) {
      EXPECT_NE(metric.planned, nullptr) << metric.name;
    }
  }
  EXPECT_EQ(find_metric_info("e2el"), find_metric_info("latency"));
  EXPECT_EQ(find_metric_info("ttft_p99"), nullptr);
  EXPECT_TRUE(find_metric_info("qps")->higher_is_better);
  EXPECT_FALSE(find_metric_info("ttft")->higher_is_better);
  EXPECT_TRUE(find_metric_info("rate_sustained")->higher_is_better);
}

// The names, labels and keys summary.json, the baseline's table and the history have always used.
TEST(Catalogue, KeyFiguresKeepTheirNamesLabelsAndKeys) {
  std::vector<std::string> names, labels, keys;
  for (const KeyFigure& figure : key_figures()) {
    names.push_back(figure_name(figure));
    labels.push_back(figure_label(figure));
    keys.push_back(figure_key(figure));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"qps", "output_throughput", "latency.mean",
                                             "latency.p99", "ttft.mean", "ttft.p99", "tpot.mean",
                                             "tpot.p99", "itl.mean", "itl.p99", "error_rate"}));
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "QPS (req/s)", "Output throughput (tok/s)", "Latency mean (s)",
                        "Latency p99 (s)", "TTFT mean (ms)", "TTFT p99 (ms)", "TPOT mean (ms)",
                        "TPOT p99 (ms)", "ITL mean (ms)", "ITL p99 (ms)", "Error rate (%)"}));
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "qps", "output_throughput_tok_s", "latency_mean_s", "latency_p99_s",
                      "ttft_mean_ms", "ttft_p99_ms", "tpot_mean_ms", "tpot_p99_ms", "itl_mean_ms",
                      "itl_p99_ms", "error_rate_percent"}));
  EXPECT_EQ(key_figures().size(), kKeyFigureCount);
}

std::optional<double> value_of(const std::string& name, const RunSummary& s) {
  for (const KeyFigure& figure : key_figures()) {
    if (figure_name(figure) == name) return key_figure_value(figure, s);
  }
  ADD_FAILURE() << "no key figure " << name;
  return std::nullopt;
}

TEST(Catalogue, KeyFiguresReadInTheirLabelsUnits) {
  const RunSummary s = summary();
  EXPECT_DOUBLE_EQ(*value_of("qps", s), 2);
  EXPECT_DOUBLE_EQ(*value_of("output_throughput", s), 300);
  EXPECT_DOUBLE_EQ(*value_of("latency.mean", s), 1.5);  // s
  EXPECT_DOUBLE_EQ(*value_of("latency.p99", s), 2.5);
  EXPECT_DOUBLE_EQ(*value_of("ttft.p99", s), 40);  // ms
  EXPECT_DOUBLE_EQ(*value_of("itl.mean", s), 5.5);
  EXPECT_DOUBLE_EQ(*value_of("error_rate", s), 20);  // %

  RunSummary no_p99 = s;
  no_p99.percentiles = {50, 90};
  EXPECT_FALSE(value_of("ttft.p99", no_p99));
  EXPECT_DOUBLE_EQ(*value_of("ttft.mean", no_p99), 20);
  RunSummary no_window = s;
  no_window.window_ns = 0;
  EXPECT_FALSE(value_of("qps", no_window));
  EXPECT_DOUBLE_EQ(*value_of("error_rate", no_window), 20);
  EXPECT_FALSE(value_of("error_rate", RunSummary{}));
}

// In an open-loop run `ttft` reads from the planned send, as a user sees it; the key figures read
// from the actual send, as summary.json's distributions hold them.
TEST(Catalogue, OpenLoopTtftReadsThePlannedSendButKeyFiguresTheSend) {
  RunSummary s = summary();
  s.open_loop.sends = 10;
  s.ttft_from_planned_ns = dist(900e6, {800e6, 3000e6});
  const MetricInfo& ttft = *find_metric_info("ttft");
  EXPECT_TRUE(reads_from_planned_send(ttft, s));
  const MetricReading planned = read_metric(ttft, {"p99", 99}, s);
  EXPECT_DOUBLE_EQ(*planned.value, 3000e6);
  EXPECT_EQ(planned.note, "from the planned send");
  EXPECT_DOUBLE_EQ(*read_metric(ttft, {"p99", 99}, s, /*from_send=*/true).value, 40e6);
  EXPECT_DOUBLE_EQ(*read_metric(*find_metric_info("ttft_from_send"), {"p99", 99}, s).value, 40e6);
  EXPECT_DOUBLE_EQ(*value_of("ttft.p99", s), 40);

  s.open_loop.sends = 0;
  EXPECT_FALSE(reads_from_planned_send(ttft, s));
  const MetricReading closed = read_metric(*find_metric_info("ttft_from_planned"), {"p99", 99}, s);
  EXPECT_FALSE(closed.value);
  EXPECT_EQ(closed.why, "only an open-loop run (--rate, a trace) has a planned send");
}

TEST(Catalogue, UnavailableValuesSayWhy) {
  RunSummary s = summary();
  s.streamed = false;
  EXPECT_EQ(read_metric(*find_metric_info("tpot"), {"mean", 0}, s).why,
            "the run did not stream (non-stream requests have no tpot)");
  EXPECT_EQ(read_metric(*find_metric_info("latency"), {"p90", 90}, s).why,
            "p90 not computed; add it to --percentiles");
  EXPECT_EQ(read_metric(*find_metric_info("goodput"), {}, s).why, "add --goodput to compute it");
  EXPECT_EQ(read_metric(*find_metric_info("qps"), {}, RunSummary{}).why,
            "the run measured no requests");
}

// Code names a metric by its Metric; the files' keys are made from the catalogue's name and unit,
// as summary.json, requests.jsonl, the sweep's table and the study's CSV have always written them.
TEST(Catalogue, MetricIdsNameTheirEntriesAndKeysKeepTheirSpelling) {
  for (const MetricInfo& metric : metric_catalogue()) {
    EXPECT_EQ(&metric_info(metric.id), &metric) << metric.name;
    EXPECT_EQ(metric.per_request(), metric.read == nullptr) << metric.name;
  }
  EXPECT_EQ(metric_key(Metric::kTtft), "ttft_ms");
  EXPECT_EQ(metric_key(Metric::kLatency), "latency_s");
  EXPECT_EQ(metric_key(Metric::kTtftFromPlanned), "ttft_from_planned_ms");
  EXPECT_EQ(metric_key(Metric::kInputTokens), "input_tokens");
  EXPECT_EQ(metric_key(Metric::kLatency, "avg"), "latency_avg_s");
  EXPECT_EQ(metric_key(Metric::kTpot, "p99"), "tpot_p99_ms");
  EXPECT_EQ(metric_key(Metric::kOutputThroughput), "output_throughput_tok_s");
  EXPECT_EQ(metric_key(Metric::kQps), "qps");
  EXPECT_EQ(metric_key(Metric::kGoodFraction), "good_fraction");
  EXPECT_EQ(metric_key_in(Metric::kLatency, "p50", "ms"), "latency_p50_ms");
  EXPECT_EQ(metric_key_in(Metric::kGoodput, "", "req/s"), "goodput_req_s");
  EXPECT_EQ(metric_key_in(Metric::kOutputThroughput, "", ""), "output_throughput");
  EXPECT_EQ(metric_info(Metric::kLatency).narrow_label(), "Lat");
  EXPECT_EQ(metric_info(Metric::kTtft).narrow_label(), "TTFT");
}

TEST(Catalogue, FigureNamesReadBack) {
  const auto p99 = figure_named("ttft.p99");
  ASSERT_TRUE(p99);
  EXPECT_EQ(figure_name(*p99), "ttft.p99");
  EXPECT_EQ(&figure_metric(*p99), &metric_info(Metric::kTtft));
  const auto e2el = figure_named("e2el.mean");
  ASSERT_TRUE(e2el);
  EXPECT_EQ(figure_name(*e2el), "latency.mean");
  EXPECT_EQ(figure_name(*figure_named("qps")), "qps");
  EXPECT_FALSE(figure_named("output_throughput_per_user"));
}

// Each run-level metric reads itself (MetricInfo::read): the rates over the window, the fractions
// of the measured requests, the open loop's and the server's only where the run has them.
TEST(Catalogue, RunLevelMetricsReadThemselves) {
  RunSummary s = summary();
  s.total_throughput = 500;
  const auto value = [&](Metric metric) { return read_metric(metric_info(metric), {}, s).value; };
  EXPECT_DOUBLE_EQ(*value(Metric::kTotalThroughput), 500);
  EXPECT_DOUBLE_EQ(*value(Metric::kSuccessRate), 0.8);
  EXPECT_DOUBLE_EQ(*value(Metric::kFailed), 2);
  EXPECT_FALSE(value(Metric::kGoodFraction));
  s.goodput_enabled = true;
  s.goodput_rps = 1.5;
  s.good_fraction = 0.75;
  EXPECT_DOUBLE_EQ(*value(Metric::kGoodput), 1.5);
  EXPECT_DOUBLE_EQ(*value(Metric::kGoodFraction), 0.75);
  s.window_ns = 0;
  EXPECT_EQ(read_metric(metric_info(Metric::kGoodput), {}, s).why, "the run window is empty");
  EXPECT_EQ(read_metric(metric_info(Metric::kCapReached), {}, s).why,
            "only an open-loop run (--rate) has it");
  EXPECT_EQ(read_metric(metric_info(Metric::kRateSustained), {}, s).why,
            "only an open-loop run (--rate, a trace) has it");
  EXPECT_EQ(read_metric(metric_info(Metric::kTokenMismatch), {}, s).why,
            "the server's /metrics were not read");
}

}  // namespace
}  // namespace llmperf

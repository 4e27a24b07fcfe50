// A summary.json as figures (report/files/summary_figures.h): names as --slo has them, the file's
// units, every percentile kept, absent distributions giving no rows.
#include "report/files/summary_figures.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

TEST(SummaryFigures, NamesUnitsAndValuesComeFromTheFile) {
  const SummaryFile file = parse_summary_file(R"({
    "schema": "llmperf.summary/1",
    "run": {"parallel": 8, "number": 10, "duration_s": 4.5},
    "requests": {"total": 10, "succeeded": 8, "failed": 2},
    "qps": 1.75, "output_throughput_tok_s": 512.5, "total_throughput_tok_s": 900,
    "tokens": {"input_total": 1000, "output_total": 2000},
    "metrics": {"ttft_ms": {"count": 8, "mean": 120.5, "std": 3, "min": 100, "max": 150,
                            "percentiles": {"p50": 118, "p99": 149.5, "p99.9": 149.9}},
                "latency_s": {"count": 8, "mean": 1.25, "std": null, "min": 1, "max": 2,
                              "percentiles": {"p99": 1.9}},
                "tpot_ms": null}
  })");
  const std::vector<SummaryFigure> figures = summary_figures(file);
  const SummaryFigure* ttft = find_figure(figures, "ttft.p99");
  ASSERT_NE(ttft, nullptr);
  EXPECT_EQ(ttft->value, 149.5);
  EXPECT_EQ(ttft->unit, "ms");
  ASSERT_NE(find_figure(figures, "ttft.p99.9"), nullptr);
  EXPECT_EQ(find_figure(figures, "ttft.p99.9")->value, 149.9);
  EXPECT_EQ(find_figure(figures, "latency.mean")->value, 1.25);
  EXPECT_EQ(find_figure(figures, "latency.mean")->unit, "s");
  ASSERT_NE(find_figure(figures, "latency.std"), nullptr);
  EXPECT_FALSE(find_figure(figures, "latency.std")->value);  // null in the file: kept as null
  EXPECT_EQ(find_figure(figures, "tpot.mean"), nullptr);     // no TPOT at all: no rows
  EXPECT_EQ(find_figure(figures, "qps")->value, 1.75);
  EXPECT_EQ(find_figure(figures, "output_throughput")->unit, "tok/s");
  EXPECT_DOUBLE_EQ(*find_figure(figures, "error_rate")->value, 0.2);
  EXPECT_DOUBLE_EQ(*find_figure(figures, "success_rate")->value, 0.8);
  EXPECT_EQ(find_figure(figures, "requests.failed")->value, 2);
  EXPECT_EQ(find_figure(figures, "tokens.output_total")->value, 2000);
  EXPECT_EQ(find_figure(figures, "duration")->value, 4.5);
  EXPECT_EQ(find_figure(figures, "goodput"), nullptr);  // no --goodput
  // Each name once: the history's primary key is (run, metric, statistic).
  for (size_t i = 0; i < figures.size(); ++i) {
    for (size_t j = i + 1; j < figures.size(); ++j) {
      EXPECT_NE(figures[i].name(), figures[j].name());
    }
  }
}

TEST(SummaryFigures, AnEmptyRunHasNoRatesButItsCounts) {
  const SummaryFile file = parse_summary_file(R"({"schema": "llmperf.summary/1"})");
  const std::vector<SummaryFigure> figures = summary_figures(file);
  EXPECT_FALSE(find_figure(figures, "error_rate")->value);
  EXPECT_FALSE(find_figure(figures, "qps")->value);
  EXPECT_EQ(find_figure(figures, "requests.total")->value, 0);
}

}  // namespace
}  // namespace llmperf

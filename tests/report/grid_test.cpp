// Tests for the input x output grid views (grid.cpp): is_grid, the per-load-point tables in text
// and Markdown (rows are input lengths, columns output lengths), grid_summary.csv and .json, the
// grid charts, and run_labels. Points are hand-made: every metric of the run at
// concurrency P, input I and output O is P*1000 + I's index*100 + O's index*10 + the metric's
// number (1 to 8), so that a value in the wrong cell or table shows.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/views.h"

namespace llmperf::report_detail {
namespace {

const std::vector<int64_t> kInputs = {128, 1024};
const std::vector<int64_t> kOutputs = {32, 256};

int64_t index_of(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) - list.begin() + 1;
}

double value(int parallel, int64_t in, int64_t out, int metric) {
  return parallel * 1000.0 + static_cast<double>(index_of(kInputs, in) * 100) +
         static_cast<double>(index_of(kOutputs, out) * 10) + metric;
}

MetricPoint point(int parallel, int64_t in, int64_t out) {
  MetricPoint p;
  p.parallel = parallel;
  p.number = 100;
  p.total = 100;
  p.succeeded = 99;
  p.failed = 1;
  p.input_tokens = in;
  p.output_tokens = out;
  p.output_tps = value(parallel, in, out, 1);
  p.input_tps = value(parallel, in, out, 2);
  p.output_tps_per_request = value(parallel, in, out, 3);
  p.ttft_p50_ms = value(parallel, in, out, 4);
  p.ttft_tail_ms = value(parallel, in, out, 5);
  p.tpot_mean_ms = value(parallel, in, out, 6);
  p.input_chars_s = value(parallel, in, out, 7);
  p.output_chars_s = value(parallel, in, out, 8);
  return p;
}

// The sweep's runs in run order: concurrency 1 then 4, inputs outer, outputs inner.
std::vector<MetricPoint> grid_points() {
  std::vector<MetricPoint> points;
  for (const int parallel : {1, 4}) {
    for (const int64_t in : kInputs) {
      for (const int64_t out : kOutputs) points.push_back(point(parallel, in, out));
    }
  }
  return points;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The cells of the text table titled `title` in the section of `group` ("concurrency 4"): the
// header's output lengths first, then each row's input length and values.
std::vector<std::vector<std::string>> text_table(const std::string& text, const std::string& group,
                                                 const std::string& title) {
  const std::vector<std::string> lines = lines_of(text);
  const std::string section = "Grid at " + group + " (rows: input tokens, columns: output tokens)";
  auto at = std::find(lines.begin(), lines.end(), section);
  if (at == lines.end()) return {};
  at = std::find(at, lines.end(), title);
  if (at == lines.end()) return {};
  std::vector<std::vector<std::string>> table;
  const std::string corner = "input \\ output";
  ++at;
  if (at == lines.end() || at->rfind(corner, 0) != 0) return {};
  table.push_back(words_of(at->substr(corner.size())));
  ++at;  // the rule under the header
  for (++at; at != lines.end() && !at->empty(); ++at) table.push_back(words_of(*at));
  return table;
}

TEST(IsGrid, NeedsTwoCells) {
  EXPECT_FALSE(is_grid({}));
  EXPECT_FALSE(is_grid({point(1, 128, 32)}));
  EXPECT_FALSE(is_grid({point(1, 128, 32), point(4, 128, 32)}));  // one cell, two loads
  EXPECT_TRUE(is_grid({point(1, 128, 32), point(1, 128, 256)}));
  EXPECT_TRUE(is_grid(grid_points()));
  MetricPoint plain_a;
  plain_a.parallel = 1;
  MetricPoint plain_b;
  plain_b.parallel = 8;
  EXPECT_FALSE(is_grid({plain_a, plain_b}));  // a concurrency sweep without lengths
  MetricPoint only_output = plain_a;
  only_output.output_tokens = 64;
  EXPECT_TRUE(is_grid({only_output, point(1, 128, 32)}));
}

TEST(GridText, RowsAreInputsColumnsAreOutputsPerConcurrency) {
  const std::string text = grid_text(grid_points());
  const size_t first = text.find("Grid at concurrency 1 ");
  const size_t second = text.find("Grid at concurrency 4 ");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);

  const std::vector<std::string> titles = {
      "Output throughput (tok/s)",
      "Input (prefill) throughput (tok/s)",
      "Output tok/s per request (output tokens / latency, mean)",
      "TTFT P50 (ms)",
      "TTFT P99 (ms)",
      "TPOT mean (ms)",
      "Prompt characters/s",
      "Completion characters/s"};
  for (const int parallel : {1, 4}) {
    for (size_t m = 0; m < titles.size(); ++m) {
      SCOPED_TRACE(::testing::Message() << "concurrency " << parallel << ", " << titles[m]);
      const auto table = text_table(text, "concurrency " + std::to_string(parallel), titles[m]);
      ASSERT_EQ(table.size(), 3u);
      EXPECT_EQ(table[0], (std::vector<std::string>{"32", "256"}));
      for (size_t r = 0; r < kInputs.size(); ++r) {
        const int64_t in = kInputs[r];
        const int metric = static_cast<int>(m) + 1;
        EXPECT_EQ(table[r + 1],
                  (std::vector<std::string>{
                      std::to_string(in),
                      std::to_string(static_cast<int>(value(parallel, in, 32, metric))),
                      std::to_string(static_cast<int>(value(parallel, in, 256, metric)))}));
      }
    }
  }
}

TEST(GridText, MissingCellAndValueShowADash) {
  std::vector<MetricPoint> points = {point(2, 128, 32), point(2, 128, 256), point(2, 1024, 32)};
  points[1].output_tps.reset();
  const auto table = text_table(grid_text(points), "concurrency 2", "Output throughput (tok/s)");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[1], (std::vector<std::string>{"128", "2111", "-"}));   // no value
  EXPECT_EQ(table[2], (std::vector<std::string>{"1024", "2211", "-"}));  // no run
}

TEST(GridText, OpenLoopGroupsByRateAndTheTailFollowsThePoints) {
  std::vector<MetricPoint> points;
  for (const double rate : {2.0, 10.0}) {
    for (const int64_t out : kOutputs) {
      MetricPoint p = point(64, 128, out);
      p.rate = rate;
      p.tail = "95";
      points.push_back(p);
    }
  }
  const std::string text = grid_text(points);
  EXPECT_NE(text.find("Grid at rate 2 req/s (rows"), std::string::npos) << text;
  EXPECT_NE(text.find("Grid at rate 10 req/s (rows"), std::string::npos);
  EXPECT_EQ(text.find("concurrency"), std::string::npos);
  EXPECT_NE(text.find("\nTTFT P95 (ms)\n"), std::string::npos);
  EXPECT_EQ(text.find("P99"), std::string::npos);
}

TEST(GridMarkdown, OneSectionPerLoadAndOneTablePerMetric) {
  const std::string md = grid_markdown(grid_points());
  EXPECT_EQ(md.rfind("# Input x output grid\n", 0), 0u);
  const size_t c1 = md.find("\n## concurrency 1 (rows: input tokens, columns: output tokens)\n");
  const size_t c4 = md.find("\n## concurrency 4 (rows: input tokens, columns: output tokens)\n");
  ASSERT_NE(c1, std::string::npos);
  ASSERT_NE(c4, std::string::npos);
  EXPECT_LT(c1, c4);
  const std::string table =
      "### Output throughput (tok/s)\n\n"
      "| input \\ output | 32 | 256 |\n"
      "| --- | ---: | ---: |\n"
      "| 128 | 4111 | 4121 |\n"
      "| 1024 | 4211 | 4221 |\n";
  const size_t at = md.find(table);
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_GT(at, c4);
  size_t tables = 0;
  for (size_t pos = md.find("\n### "); pos != std::string::npos; pos = md.find("\n### ", pos + 1)) {
    ++tables;
  }
  EXPECT_EQ(tables, 2u * 8u);
}

TEST(GridCsv, HeaderAndOneRowPerRun) {
  std::vector<MetricPoint> points = {point(1, 128, 32), point(1, 1024, 256)};
  points[0].output_tps = 12.345678;  // rounded to 4 decimals
  points[1].tpot_mean_ms.reset();
  points[1].rate = 5;
  const std::vector<std::string> lines = lines_of(grid_csv(points));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "parallel,rate,input_tokens,output_tokens,requests,succeeded,failed,"
            "output_throughput_tok_s,input_throughput_tok_s,output_tok_s_per_request,ttft_p50_ms,"
            "ttft_p99_ms,tpot_avg_ms,input_throughput_chars_s,output_throughput_chars_s");
  EXPECT_EQ(lines[1], "1,,128,32,100,99,1,12.3457,1112,1113,1114,1115,1116,1117,1118");
  EXPECT_EQ(lines[2], "1,5,1024,256,100,99,1,1221,1222,1223,1224,1225,,1227,1228");
}

TEST(GridJson, OneObjectPerRunWithEveryKey) {
  std::vector<MetricPoint> points = grid_points();
  points[0].ttft_p50_ms.reset();
  const nlohmann::ordered_json doc = grid_json(points);
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), 8u);
  const std::vector<std::string> keys = {"parallel",
                                         "rate",
                                         "input_tokens",
                                         "output_tokens",
                                         "requests",
                                         "succeeded",
                                         "failed",
                                         "output_throughput_tok_s",
                                         "input_throughput_tok_s",
                                         "output_tok_s_per_request",
                                         "ttft_p50_ms",
                                         "ttft_p99_ms",
                                         "tpot_avg_ms",
                                         "input_throughput_chars_s",
                                         "output_throughput_chars_s"};
  std::vector<std::string> got;
  for (const auto& [key, _] : doc[0].items()) got.push_back(key);
  EXPECT_EQ(got, keys);
  EXPECT_TRUE(doc[0]["rate"].is_null());
  EXPECT_TRUE(doc[0]["ttft_p50_ms"].is_null());
  const auto& last = doc[7];
  EXPECT_EQ(last["parallel"], 4);
  EXPECT_EQ(last["input_tokens"], 1024);
  EXPECT_EQ(last["output_tokens"], 256);
  EXPECT_EQ(last["requests"], 100);
  EXPECT_DOUBLE_EQ(last["output_throughput_tok_s"].get<double>(), 4221);
  EXPECT_DOUBLE_EQ(last["output_throughput_chars_s"].get<double>(), 4228);

  MetricPoint not_grid;
  EXPECT_TRUE(grid_json({not_grid})[0]["input_tokens"].is_null());
}

TEST(GridCharts, FourChartsPerLoadWithOneLinePerOtherLength) {
  const std::vector<svg::ChartSpec> charts = grid_charts(grid_points());
  ASSERT_EQ(charts.size(), 2u * 4u);
  EXPECT_EQ(charts[0].title, "Output tok/s by output length, concurrency 1");
  EXPECT_EQ(charts[4].title, "Output tok/s by output length, concurrency 4");

  // Output tok/s against output length: one line per input length.
  const svg::ChartSpec& by_output = charts[4];
  EXPECT_EQ(by_output.x_label, "Output length (tokens)");
  EXPECT_EQ(by_output.x_ticks, (std::vector<double>{32, 256}));
  ASSERT_EQ(by_output.series.size(), 2u);
  EXPECT_EQ(by_output.series[0].name, "input 128");
  EXPECT_EQ(by_output.series[0].x, (std::vector<double>{32, 256}));
  EXPECT_EQ(by_output.series[0].y, (std::vector<double>{4111, 4121}));
  EXPECT_EQ(by_output.series[1].name, "input 1024");
  EXPECT_EQ(by_output.series[1].y, (std::vector<double>{4211, 4221}));

  // TTFT P50 against input length: one line per output length.
  const svg::ChartSpec& ttft = charts[6];
  EXPECT_EQ(ttft.title, "TTFT P50 by input length, concurrency 4");
  EXPECT_EQ(ttft.x_label, "Input length (tokens)");
  EXPECT_EQ(ttft.x_ticks, (std::vector<double>{128, 1024}));
  ASSERT_EQ(ttft.series.size(), 2u);
  EXPECT_EQ(ttft.series[0].name, "output 32");
  EXPECT_EQ(ttft.series[0].y, (std::vector<double>{4114, 4214}));
  EXPECT_EQ(ttft.series[1].name, "output 256");
  EXPECT_EQ(ttft.series[1].y, (std::vector<double>{4124, 4224}));

  EXPECT_EQ(charts[5].title, "Per-request tok/s by output length, concurrency 4");
  EXPECT_EQ(charts[7].title, "Input tok/s by input length, concurrency 4");
  EXPECT_EQ(charts[7].series[1].y, (std::vector<double>{4122, 4222}));
}

TEST(GridCharts, PointsWithoutAValueAreLeftOutOfTheirLine) {
  std::vector<MetricPoint> points = {point(1, 128, 32), point(1, 128, 256)};
  points[0].output_tps.reset();
  const std::vector<svg::ChartSpec> charts = grid_charts(points);
  ASSERT_EQ(charts.size(), 4u);
  ASSERT_EQ(charts[0].series.size(), 1u);
  EXPECT_EQ(charts[0].series[0].x, std::vector<double>{256});
}

TEST(RunLabels, NameTheLoadAndTheCell) {
  MetricPoint p;
  p.parallel = 16;
  EXPECT_EQ(run_labels({p}), std::vector<std::string>{"16"});
  EXPECT_FALSE(p.grid());
  p.input_tokens = 100;
  p.output_tokens = 256;
  EXPECT_TRUE(p.grid());
  EXPECT_EQ(run_labels({p}), std::vector<std::string>{"16 in 100 out 256"});
  p.rate = 5;
  EXPECT_EQ(run_labels({p}), std::vector<std::string>{"5 req/s in 100 out 256"});
  p.input_tokens = -1;
  EXPECT_EQ(run_labels({p}), std::vector<std::string>{"5 req/s out 256"});
}

// Every run of a grid at one concurrency has a name of its own.
TEST(RunLabels, GridRunsAtOneConcurrencyDiffer) {
  std::vector<MetricPoint> points;
  for (const int64_t in : {100, 500}) {
    for (const int64_t out : {32, 128}) points.push_back(point(4, in, out));
  }
  EXPECT_EQ(run_labels(points), (std::vector<std::string>{"4 in 100 out 32", "4 in 100 out 128",
                                                          "4 in 500 out 32", "4 in 500 out 128"}));
}

// A trace (or one rate) replayed at several concurrency caps: the rate alone would repeat.
TEST(RunLabels, OneRateAtSeveralCapsNamesTheCap) {
  MetricPoint a;
  a.rate = 3.5;
  a.parallel = 4;
  MetricPoint b = a;
  b.parallel = 8;
  EXPECT_EQ(run_labels({a, b}),
            (std::vector<std::string>{"3.5 req/s parallel 4", "3.5 req/s parallel 8"}));
  b.parallel = 4;
  b.rate = 7;
  EXPECT_EQ(run_labels({a, b}), (std::vector<std::string>{"3.5 req/s", "7 req/s"}));
}

}  // namespace
}  // namespace llmperf::report_detail

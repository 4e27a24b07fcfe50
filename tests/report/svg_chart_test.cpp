// Chart geometry: linear and log scales, nice and log ticks, tick labels, escaping, and SVG output
// for empty, single-point, non-finite and categorical data (never "nan" or "inf" in the output).
#include "report/html/svg_chart.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace llmperf::svg {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

Series series(std::string name, std::vector<double> x, std::vector<double> y,
              SeriesKind kind = SeriesKind::kLine, std::string dash = "") {
  Series s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  s.kind = kind;
  s.dash = std::move(dash);
  return s;
}

void expect_finite_svg(const std::string& svg) {
  const std::string lower = lowercase(svg);
  EXPECT_EQ(lower.find("nan"), std::string::npos) << svg;
  EXPECT_EQ(lower.find("inf"), std::string::npos) << svg;
  EXPECT_EQ(svg.rfind("<svg ", 0), 0U);
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
}

TEST(SvgChart, NiceTicksUseOneTwoFiveSteps) {
  Ticks t = nice_ticks(0, 97);
  EXPECT_EQ(t.values, (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(t.lo, 0);
  EXPECT_EQ(t.hi, 100);

  t = nice_ticks(0.3602, 0.3637);
  EXPECT_DOUBLE_EQ(t.lo, 0.36);
  ASSERT_GE(t.values.size(), 4U);
  EXPECT_NEAR(t.values[1] - t.values[0], 0.001, 1e-12);
  EXPECT_GE(t.hi, 0.3637);

  t = nice_ticks(-3, 7);
  EXPECT_EQ(t.values, (std::vector<double>{-4, -2, 0, 2, 4, 6, 8}));
}

TEST(SvgChart, NiceTicksWidenDegenerateRanges) {
  Ticks t = nice_ticks(5, 5);
  EXPECT_LT(t.lo, 5);
  EXPECT_GT(t.hi, 5);
  t = nice_ticks(0, 0);
  EXPECT_EQ(t.lo, 0);
  EXPECT_EQ(t.hi, 1);
  t = nice_ticks(kNaN, kInf);
  EXPECT_EQ(t.lo, 0);
  EXPECT_EQ(t.hi, 1);
  for (double v : t.values) EXPECT_TRUE(std::isfinite(v));
}

TEST(SvgChart, LogTicks) {
  EXPECT_EQ(log_ticks(1, 16).values, (std::vector<double>{1, 2, 5, 10}));
  EXPECT_EQ(log_ticks(1, 10000).values, (std::vector<double>{1, 10, 100, 1000, 10000}));
  EXPECT_EQ(log_ticks(8, 8).values, (std::vector<double>{5, 10}));  // widened to 4..16
  const Ticks bad = log_ticks(-1, 0);
  EXPECT_EQ(bad.lo, 1);
  EXPECT_EQ(bad.hi, 10);
}

TEST(SvgChart, Scales) {
  const LinearScale x(0, 10, 100, 200);
  EXPECT_DOUBLE_EQ(x(0), 100);
  EXPECT_DOUBLE_EQ(x(5), 150);
  EXPECT_DOUBLE_EQ(x(10), 200);
  const LinearScale flipped(0, 1, 300, 100);  // SVG y grows downwards
  EXPECT_DOUBLE_EQ(flipped(1), 100);
  const LinearScale flat(3, 3, 0, 100);
  EXPECT_DOUBLE_EQ(flat(3), 50);
  EXPECT_DOUBLE_EQ(x(kNaN), 150);

  const LogScale log(1, 100, 0, 200);
  EXPECT_DOUBLE_EQ(log(1), 0);
  EXPECT_DOUBLE_EQ(log(10), 100);
  EXPECT_DOUBLE_EQ(log(100), 200);
  EXPECT_TRUE(std::isfinite(log(0)));
}

TEST(SvgChart, TickLabels) {
  EXPECT_EQ(tick_label(0), "0");
  EXPECT_EQ(tick_label(2.5), "2.5");
  EXPECT_EQ(tick_label(40), "40");
  EXPECT_EQ(tick_label(1500), "1500");
  EXPECT_EQ(tick_label(12000), "12k");
  EXPECT_EQ(tick_label(1'500'000), "1.5M");
  EXPECT_EQ(tick_label(0.001), "0.001");
  EXPECT_EQ(tick_label(kNaN), "-");
  EXPECT_EQ(tick_label(0.3605, 0.0005), "0.3605");
  EXPECT_EQ(tick_label(0.361, 0.0005), "0.3610");
  EXPECT_EQ(tick_label(500, 500), "500");
  EXPECT_EQ(tick_label(-0.0, 0.1), "0");
}

TEST(SvgChart, EscapesText) {
  EXPECT_EQ(xml_escape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(xml_escape("通义千问"), "通义千问");
  EXPECT_EQ(xml_escape(std::string("x\x01y")), "x?y");  // XML 1.0 forbids most control characters
}

TEST(SvgChart, EmptyChartSaysNoData) {
  ChartSpec chart;
  chart.title = "TTFT <ms>";
  const std::string svg = render_svg(chart);
  expect_finite_svg(svg);
  EXPECT_NE(svg.find("No data"), std::string::npos);
  EXPECT_NE(svg.find("TTFT &lt;ms&gt;"), std::string::npos);

  chart.series.push_back(series("only NaN", {kNaN, 1}, {2, kInf}));
  chart.empty_text = "Nothing streamed";
  const std::string svg2 = render_svg(chart);
  expect_finite_svg(svg2);
  EXPECT_NE(svg2.find("Nothing streamed"), std::string::npos);
}

TEST(SvgChart, SinglePointIsDrawable) {
  ChartSpec chart;
  chart.title = "One run";
  chart.series.push_back(series("QPS", {4}, {12.5}));
  chart.x_ticks = {4};
  const std::string svg = render_svg(chart);
  expect_finite_svg(svg);
  EXPECT_NE(svg.find("<circle"), std::string::npos);
  EXPECT_EQ(svg.find("No data"), std::string::npos);

  chart.x_axis = AxisKind::kLog;
  expect_finite_svg(render_svg(chart));
}

TEST(SvgChart, LinesStepsPointsBarsAndLegend) {
  ChartSpec chart;
  chart.title = "Latency";
  chart.x_axis = AxisKind::kLog;
  chart.x_ticks = {1, 4, 16, 64};
  chart.series.push_back(series("Mean", {1, 4, 16, 64}, {0.1, 0.2, kNaN, 0.8}));
  chart.series.push_back(
      series("P99 模型", {1, 4, 16, 64}, {0.2, 0.3, 0.5, 1.6}, SeriesKind::kStep, "4 3"));
  chart.series.push_back(series("dots", {1, 64}, {0, 0}, SeriesKind::kPoints));
  chart.series.push_back(series("log-invisible", {0, -1}, {1, 1}));
  const std::string svg = render_svg(chart);
  expect_finite_svg(svg);
  EXPECT_NE(svg.find("P99 模型"), std::string::npos);  // legend with CJK text
  EXPECT_NE(svg.find("stroke-dasharray=\"4 3\""), std::string::npos);
  EXPECT_NE(svg.find(">64</text>"), std::string::npos);  // explicit x ticks

  ChartSpec bars;
  bars.title = "Failures";
  bars.integer_y = true;
  bars.bars = {{"http_500", 1}, {"timeout_read", kNaN}};
  const std::string bar_svg = render_svg(bars);
  expect_finite_svg(bar_svg);
  EXPECT_NE(bar_svg.find("http_500"), std::string::npos);
  EXPECT_EQ(bar_svg.find(">0.5<"), std::string::npos);  // counts: whole-number ticks only
}

// Categories on x (ChartSpec::x_tick_labels): each named under its tick and escaped; side by side
// while they fit, turned (with more room under the plot) when they do not, and thinned when even
// turned they would overlap; every category keeps its place when the first has no data.
TEST(SvgChart, CategoryLabelsOnX) {
  ChartSpec chart;
  chart.title = "Objective";
  chart.x_ticks = {0, 1, 2};
  chart.x_tick_labels = {"a<b", "true", "false"};
  chart.series.push_back(series("objective", {1, 2}, {5, 6}, SeriesKind::kPoints));
  std::string svg = render_svg(chart);
  expect_finite_svg(svg);
  EXPECT_NE(svg.find(">a&lt;b</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">false</text>"), std::string::npos);
  EXPECT_EQ(svg.find("rotate(-40"), std::string::npos);
  // "a<b" has no point but keeps its place at the left end of the plot (64 + 12 px).
  EXPECT_NE(svg.find("<text x=\"76.0\" y=\"291.0\" class=\"tk\" text-anchor=\"middle\">a&lt;b"),
            std::string::npos)
      << svg;

  ChartSpec many = chart;
  many.x_ticks.clear();
  many.x_tick_labels.clear();
  for (int i = 0; i < 60; ++i) {
    many.x_ticks.push_back(i);
    many.x_tick_labels.push_back(std::to_string(i) + "-enable-8192-a-rather-long-label-indeed");
  }
  svg = render_svg(many);
  expect_finite_svg(svg);
  EXPECT_NE(svg.find("rotate(-40"), std::string::npos);
  EXPECT_NE(svg.find(">0-enable-8192-a-...</text>"), std::string::npos) << svg;  // cut to 130 px
  // 60 labels on about 460 px: every second is left out, so labels stay 13 px apart or more.
  EXPECT_NE(svg.find(">2-enable-8192"), std::string::npos);
  EXPECT_EQ(svg.find(">1-enable-8192"), std::string::npos);
  // The plot ends higher up to make room for the turned labels: the x axis line's y is < 274.
  const size_t axis = svg.rfind("class=\"ax\"/>");
  ASSERT_NE(axis, std::string::npos);
  const size_t y1 = svg.rfind("y1=\"", axis);
  EXPECT_LT(std::stod(svg.substr(y1 + 4)), 274.0);
}

// Series::gaps: a missing value breaks the line instead of joining its neighbours.
TEST(SvgChart, GapsBreakALine) {
  ChartSpec chart;
  chart.title = "TTFT";
  chart.series.push_back(series("p99", {0, 1, 2, 3}, {1, 2, kNaN, 4}));
  auto pieces = [](const std::string& svg) {
    const size_t d = svg.find(" d=\"");
    const std::string path = svg.substr(d, svg.find('"', d + 4) - d);
    return std::count(path.begin(), path.end(), 'M');
  };
  EXPECT_EQ(pieces(render_svg(chart)), 1);
  chart.series[0].gaps = true;
  const std::string svg = render_svg(chart);
  expect_finite_svg(svg);
  EXPECT_EQ(pieces(svg), 2);
}

}  // namespace
}  // namespace llmperf::svg

// Chart geometry and SVG output for llmperf's HTML reports: linear and log scales, "nice" tick
// values, line/point/step series, bar charts, legends. Everything is drawn by llmperf itself as
// inline SVG (no JavaScript, no external resources). Non-finite samples are skipped, so the output
// never contains NaN or infinity; an empty chart says "No data".
#pragma once

#include "report/html/xml_escape.h"

#include <string>
#include <string_view>
#include <vector>

namespace llmperf::svg {

// Tick values covering [lo, hi]: lo and hi are the rounded ends of the axis domain.
struct Ticks {
  double lo = 0;               // first tick (axis start)
  double hi = 1;               // last tick (axis end)
  std::vector<double> values;  // tick positions in data units, ascending
};

// Ticks at 1, 2 or 5 times a power of ten, about `target` of them, with lo <= data lo and
// hi >= data hi. A degenerate or non-finite range is widened to something drawable.
Ticks nice_ticks(double lo, double hi, int target = 5);

// Ticks for a log axis over [lo, hi] (both > 0): powers of ten, plus 2x and 5x when the range
// spans fewer than three decades. lo/hi of the result are the data range itself.
Ticks log_ticks(double lo, double hi);

// Maps [d0, d1] in data units linearly onto [r0, r1] in pixels. A zero-width domain maps to the
// middle of the range.
class LinearScale {
 public:
  LinearScale(double d0, double d1, double r0, double r1);
  double operator()(double value) const;

 private:
  double d0_, d1_, r0_, r1_;
};

// Maps [d0, d1] (both > 0) logarithmically onto [r0, r1]. Values <= 0 map to r0.
class LogScale {
 public:
  LogScale(double d0, double d1, double r0, double r1);
  double operator()(double value) const;

 private:
  LinearScale linear_;  // on log10 of the value
};

enum class SeriesKind {
  kLine,    // polyline through the points (markers when there are few)
  kPoints,  // scatter: one dot per point
  kStep,    // step function: each value holds until the next x
};

struct Series {
  std::string name;       // legend text (escaped on output)
  std::vector<double> x;  // data x values (same length as y)
  std::vector<double> y;  // data y values; non-finite pairs are skipped
  SeriesKind kind = SeriesKind::kLine;
  std::string dash;                 // SVG stroke-dasharray, e.g. "4 3"; empty for solid
  std::vector<std::string> labels;  // optional text drawn above each point (same index as x)
  bool gaps = false;  // kLine: a non-finite y breaks the line there instead of being skipped
  // kPoints: a link for each point (same index as x; "" for none), drawn as <a href> around the
  // dot, with `tips` (same index) as its tooltip; empty: plain dots.
  std::vector<std::string> links = {};
  std::vector<std::string> tips = {};
  // The palette colour of this index instead of the series' own (two lines of one band); -1:
  // its own. A series with an empty name has no legend entry.
  int color_index = -1;
};

struct Bar {
  std::string label;  // category name under the bar
  double value = 0;   // bar height in y units
};

enum class AxisKind { kLinear, kLog };

struct ChartSpec {
  std::string title;           // drawn above the plot and used as the SVG's <title>
  std::string x_label;         // axis title with unit, e.g. "Concurrency"
  std::string y_label;         // axis title with unit, e.g. "Latency (s)"
  std::vector<Series> series;  // line/point/step series (ignored when bars is non-empty)
  std::vector<Bar> bars;       // a categorical bar chart instead of series
  AxisKind x_axis = AxisKind::kLinear;
  std::vector<double> x_ticks;  // explicit x tick positions (e.g. the concurrency levels)
  // Text under each of x_ticks (same index) instead of its number: categories such as trial
  // labels. Labels too wide for their spacing are turned and, when still too many, thinned.
  std::vector<std::string> x_tick_labels;
  bool y_from_zero = true;             // the y axis starts at 0 when all values are >= 0
  bool integer_y = false;              // y values are counts: ticks at whole numbers only
  std::string empty_text = "No data";  // shown in place of a plot when nothing is drawable
  int width = 560;                     // viewBox width, px
  int height = 320;                    // viewBox height, px
};

// The chart as a standalone <svg> element (with viewBox, scales to its container).
std::string render_svg(const ChartSpec& chart);

// Colour of the i-th series (a colour-blind-safe palette, cycled).
std::string_view series_color(size_t index);

// Short tick label: "0", "2.5", "1k", "12k", "1.5M", "0.001".
std::string tick_label(double value);
// Label of a tick on an axis whose ticks are `step` apart: enough decimals to tell neighbours
// apart ("0.3605", "0.3610"); large values fall back to tick_label(value).
std::string tick_label(double value, double step);

}  // namespace llmperf::svg

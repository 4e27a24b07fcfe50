// Chart geometry (scales, nice ticks, log ticks) and the SVG writer behind report.html and
// compare.html. Coordinates are printed with one decimal; every number written has been checked
// finite first, so no "nan" or "inf" can reach the page.
#include "report/html/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace llmperf::svg {
namespace {

constexpr std::string_view kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                         "#E69F00", "#56B4E9", "#999999", "#F0E442"};
constexpr int kMarginLeft = 64;
constexpr int kMarginRight = 18;
constexpr int kTitleHeight = 28;
constexpr int kLegendRow = 18;
constexpr int kMarginBottom = 46;
constexpr double kCharWidth = 6.6;       // average glyph width at 11px, for legend layout
constexpr size_t kMarkerLimit = 40;      // line series with at most this many points get markers
constexpr double kInset = 12;            // keeps end markers off the axes
constexpr double kMaxTurnedLabel = 130;  // px: a turned category label longer than this is cut
constexpr double kTurnedSin = 0.643;     // sin(40 degrees): category labels are turned by -40
constexpr double kTurnedPitch = 13;      // px between turned labels, or some are left out

bool finite(double v) { return std::isfinite(v); }

// Rough rendered width: CJK and other wide code points count double.
double text_width(std::string_view text) {
  double width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;
    width += c >= 0xE0 ? 2 * kCharWidth : kCharWidth;
  }
  return width;
}

std::string num(double v) { return fmt::format("{:.1f}", finite(v) ? v : 0.0); }

// `text` cut to about `width` px, with "..." after what was cut.
std::string fit(const std::string& text, double width) {
  if (text_width(text) <= width) return text;
  std::string out;
  double used = 3 * kCharWidth;
  for (size_t i = 0; i < text.size();) {
    size_t next = i + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    const std::string glyph = text.substr(i, next - i);
    used += text_width(glyph);
    if (used > width) break;
    out += glyph;
    i = next;
  }
  return out + "...";
}

// How the category labels of ChartSpec::x_tick_labels are drawn under the x axis.
struct CategoryLayout {
  bool turned = false;  // turned by -40 degrees, as they do not fit side by side
  double extra = 0;     // room added under the plot for them, px
  size_t every = 1;     // only every n-th label is drawn
};

CategoryLayout category_layout(const ChartSpec& chart) {
  CategoryLayout layout;
  const size_t n = chart.x_tick_labels.size();
  if (n == 0 || chart.x_ticks.empty()) return layout;
  double widest = 0;
  for (const auto& label : chart.x_tick_labels) widest = std::max(widest, text_width(label));
  const double span = chart.width - kMarginLeft - kMarginRight - 2 * kInset;
  const double spacing = n > 1 ? span / static_cast<double>(n - 1) : span;
  if (widest + 8 <= spacing) return layout;
  layout.turned = true;
  layout.extra = std::max(0.0, std::min(widest, kMaxTurnedLabel) * kTurnedSin - 14);
  layout.every = std::max<size_t>(1, static_cast<size_t>(std::ceil(kTurnedPitch / spacing)));
  return layout;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!finite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
};

struct Plot {
  double left, top, right, bottom;
};

// Legend items laid out in rows under the title; returns the SVG and the rows used.
std::pair<std::string, int> legend(const ChartSpec& chart, double width) {
  if (chart.series.size() < 2) return {"", 0};
  std::string out;
  double x = kMarginLeft;
  int row = 0;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const auto& s = chart.series[i];
    if (s.name.empty()) continue;
    const double item = 22 + text_width(s.name) + 14;
    if (x + item > width - kMarginRight && x > kMarginLeft) {
      ++row;
      x = kMarginLeft;
    }
    const double y = kTitleHeight + row * kLegendRow + 6;
    const std::string color(series_color(s.color_index >= 0 ? static_cast<size_t>(s.color_index) : i));
    out += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>",
        num(x), num(y), num(x + 16), num(y), color,
        s.dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", s.dash));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lg\">{}</text>", num(x + 20), num(y + 4),
                       xml_escape(s.name));
    x += item;
  }
  return {out, row + 1};
}

std::string frame(const ChartSpec& chart, const Plot& p) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" class=\"chart\" "
      "role=\"img\"><title>{}</title>",
      chart.width, chart.height, xml_escape(chart.title));
  out += fmt::format("<text x=\"{}\" y=\"18\" class=\"ct\">{}</text>", kMarginLeft,
                     xml_escape(chart.title));
  out +=
      fmt::format("<text x=\"{}\" y=\"{}\" class=\"al\" text-anchor=\"middle\">{}</text>",
                  num((p.left + p.right) / 2), num(chart.height - 8.0), xml_escape(chart.x_label));
  out += fmt::format(
      "<text transform=\"translate(14 {}) rotate(-90)\" class=\"al\" "
      "text-anchor=\"middle\">{}</text>",
      num((p.top + p.bottom) / 2), xml_escape(chart.y_label));
  return out;
}

std::string no_data(const Plot& p, const std::string& text) {
  return fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"pf\"/>"
      "<text x=\"{}\" y=\"{}\" class=\"nd\" text-anchor=\"middle\">{}</text></svg>",
      num(p.left), num(p.top), num(p.right - p.left), num(p.bottom - p.top),
      num((p.left + p.right) / 2), num((p.top + p.bottom) / 2), xml_escape(text));
}

// The spacing of evenly spaced ticks (0 when fewer than two), for label precision.
double tick_step(const std::vector<double>& values) {
  return values.size() < 2 ? 0 : std::fabs(values[1] - values[0]);
}

std::string y_axis(const Ticks& ticks, const LinearScale& y, const Plot& p) {
  std::string out;
  const double step = tick_step(ticks.values);
  for (double v : ticks.values) {
    const double py = y(v);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"gr\"/>", num(p.left),
                       num(py), num(p.right), num(py));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"end\">{}</text>",
                       num(p.left - 6), num(py + 4), tick_label(v, step));
  }
  return out;
}

// Nice y ticks; for counts, whole numbers only (at least 0..1).
Ticks y_ticks(const Range& r, bool integer) {
  if (!integer) return nice_ticks(r.lo, r.hi);
  Ticks t = nice_ticks(r.lo, std::max(r.hi, r.lo + 1));
  if (tick_step(t.values) >= 1) return t;
  t.values.clear();
  for (double v = std::floor(t.lo); v <= std::ceil(t.hi); ++v) t.values.push_back(v);
  t.lo = t.values.front();
  t.hi = t.values.back();
  return t;
}

std::string bar_chart(const ChartSpec& chart, const Plot& p, std::string out) {
  Range r;
  r.add(0);
  for (const auto& b : chart.bars) r.add(b.value);
  const Ticks ticks = y_ticks(r, chart.integer_y);
  const LinearScale y(ticks.lo, ticks.hi, p.bottom, p.top);
  out += y_axis(ticks, y, p);
  const double slot = (p.right - p.left) / static_cast<double>(chart.bars.size());
  const double width = std::min(slot * 0.6, 80.0);
  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const auto& b = chart.bars[i];
    const double value = finite(b.value) ? b.value : 0;
    const double cx = p.left + slot * (static_cast<double>(i) + 0.5);
    const double top = y(value);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                       num(cx - width / 2), num(top), num(width),
                       num(std::max(0.0, p.bottom - top)), series_color(i));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"middle\">{}</text>",
                       num(cx), num(top - 4), tick_label(value));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"middle\">{}</text>",
                       num(cx), num(p.bottom + 16), xml_escape(b.label));
  }
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"ax\"/>", num(p.left),
                     num(p.bottom), num(p.right), num(p.bottom));
  return out + "</svg>";
}

// The point labels of `s` (Series::labels), each just above its point.
std::string point_labels(const Series& s, const auto& x, const LinearScale& y) {
  std::string out;
  for (size_t i = 0; i < s.labels.size() && i < s.x.size() && i < s.y.size(); ++i) {
    if (s.labels[i].empty() || !finite(s.x[i]) || !finite(s.y[i])) continue;
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"pl\" text-anchor=\"middle\">{}</text>",
                       num(x(s.x[i])), num(y(s.y[i]) - 7), xml_escape(s.labels[i]));
  }
  return out;
}

// The dots of a kPoints series with Series::links and tips: each dot an <a> with a <title>.
std::string linked_points(const Series& s, const auto& x, const LinearScale& y) {
  std::string out;
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!finite(s.x[i]) || !finite(s.y[i])) continue;
    const std::string tip =
        i < s.tips.size() && !s.tips[i].empty() ? "<title>" + xml_escape(s.tips[i]) + "</title>" : "";
    const std::string dot =
        fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\">{}</circle>", num(x(s.x[i])),
                    num(y(s.y[i])), tip);
    if (i < s.links.size() && !s.links[i].empty()) {
      out += fmt::format("<a href=\"{}\">{}</a>", xml_escape(s.links[i]), dot);
    } else {
      out += dot;
    }
  }
  return out;
}

std::string series_path(const Series& s, size_t index, const auto& x, const LinearScale& y) {
  std::vector<std::pair<double, double>> pts;
  std::vector<bool> piece_starts;  // the point begins a piece of the line (after a gap)
  bool gap = false;
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (finite(s.x[i]) && finite(s.y[i])) {
      pts.emplace_back(x(s.x[i]), y(s.y[i]));
      piece_starts.push_back(gap);
      gap = false;
    } else {
      gap = s.gaps;
    }
  }
  if (pts.empty()) return "";
  const std::string color(
      series_color(s.color_index >= 0 ? static_cast<size_t>(s.color_index) : index));
  std::string out = point_labels(s, x, y);
  if (s.kind == SeriesKind::kPoints) {
    const double r = pts.size() > 500 ? 1.6 : 2.4;
    out += fmt::format("<g fill=\"{}\" fill-opacity=\"0.7\">", color);
    if (!s.links.empty() || !s.tips.empty()) return out + linked_points(s, x, y) + "</g>";
    for (const auto& [px, py] : pts) {
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>", num(px), num(py), num(r));
    }
    return out + "</g>";
  }
  std::string d;
  for (size_t i = 0; i < pts.size(); ++i) {
    if (i == 0 || piece_starts[i]) {
      d += fmt::format("M{} {}", num(pts[i].first), num(pts[i].second));
    } else if (s.kind == SeriesKind::kStep) {
      d += fmt::format("H{}V{}", num(pts[i].first), num(pts[i].second));
    } else {
      d += fmt::format("L{} {}", num(pts[i].first), num(pts[i].second));
    }
  }
  out += fmt::format(
      "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
      "stroke-linejoin=\"round\"{}/>",
      d, color, s.dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", s.dash));
  if (s.kind == SeriesKind::kLine && pts.size() <= kMarkerLimit) {
    out += fmt::format("<g fill=\"{}\">", color);
    for (const auto& [px, py] : pts) {
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\"/>", num(px), num(py));
    }
    out += "</g>";
  }
  return out;
}

}  // namespace

Ticks nice_ticks(double lo, double hi, int target) {
  if (!finite(lo) || !finite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    hi = lo + pad;
    if (lo < 0 || lo - pad >= 0) lo -= pad;
  }
  target = std::max(target, 2);
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  Ticks t;
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  for (double k = first; k <= last + 0.5; ++k) {
    double v = k * step;
    if (std::fabs(v) < step * 1e-9) v = 0;  // no "-0"
    t.values.push_back(v);
  }
  t.lo = t.values.front();
  t.hi = t.values.back();
  return t;
}

Ticks log_ticks(double lo, double hi) {
  if (!finite(lo) || !finite(hi) || lo <= 0 || hi <= 0) lo = 1, hi = 10;
  if (lo > hi) std::swap(lo, hi);
  if (hi / lo < 1.0001) lo /= 2, hi *= 2;
  Ticks t;
  t.lo = lo;
  t.hi = hi;
  const int first = static_cast<int>(std::floor(std::log10(lo)));
  const int last = static_cast<int>(std::ceil(std::log10(hi)));
  const bool fine = last - first < 3;
  for (int e = first; e <= last; ++e) {
    const double base = std::pow(10.0, e);
    for (double m : {1.0, 2.0, 5.0}) {
      if (m != 1.0 && !fine) continue;
      const double v = m * base;
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.values.push_back(v);
    }
  }
  if (t.values.empty()) t.values = {lo, hi};
  return t;
}

LinearScale::LinearScale(double d0, double d1, double r0, double r1)
    : d0_(d0), d1_(d1), r0_(r0), r1_(r1) {}

double LinearScale::operator()(double value) const {
  if (!(std::fabs(d1_ - d0_) > 0) || !finite(value)) return (r0_ + r1_) / 2;
  return r0_ + (value - d0_) / (d1_ - d0_) * (r1_ - r0_);
}

LogScale::LogScale(double d0, double d1, double r0, double r1)
    : linear_(std::log10(std::max(d0, 1e-300)), std::log10(std::max(d1, 1e-300)), r0, r1) {}

double LogScale::operator()(double value) const {
  return linear_(value > 0 ? std::log10(value) : -300);
}

std::string render_svg(const ChartSpec& chart) {
  const double width = chart.width;
  const auto [legend_svg, legend_rows] = legend(chart, width);
  const CategoryLayout categories = category_layout(chart);
  const Plot p{kMarginLeft, kTitleHeight + legend_rows * kLegendRow + 10.0, width - kMarginRight,
               chart.height - static_cast<double>(kMarginBottom) - categories.extra};
  std::string out = frame(chart, p) + legend_svg;
  if (!chart.bars.empty()) return bar_chart(chart, p, std::move(out));
  if (chart.series.empty()) return out + no_data(p, chart.empty_text);

  Range xr, yr;
  for (const auto& s : chart.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!finite(s.x[i]) || !finite(s.y[i])) continue;
      if (chart.x_axis == AxisKind::kLog && s.x[i] <= 0) continue;
      xr.add(s.x[i]);
      yr.add(s.y[i]);
    }
  }
  if (xr.empty()) return out + no_data(p, chart.empty_text);
  if (chart.y_from_zero && yr.lo >= 0) yr.lo = 0;
  const Ticks yt = y_ticks(yr, chart.integer_y);
  const LinearScale y(yt.lo, yt.hi, p.bottom, p.top);
  out += y_axis(yt, y, p);

  auto draw = [&](const auto& x, const std::vector<double>& ticks) {
    const bool even = chart.x_axis == AxisKind::kLinear && chart.x_ticks.empty();
    const double step = even ? tick_step(ticks) : 0;
    const bool named = !chart.x_ticks.empty() && !chart.x_tick_labels.empty();
    for (size_t k = 0; k < ticks.size(); ++k) {
      const double v = ticks[k];
      const double px = x(v);
      if (!finite(px) || px < p.left - 0.5 || px > p.right + 0.5) continue;
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"ax\"/>", num(px),
                         num(p.bottom), num(px), num(p.bottom + 4));
      if (!named) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"middle\">{}</text>",
                           num(px), num(p.bottom + 17), tick_label(v, step));
      } else if (k < chart.x_tick_labels.size() && !categories.turned) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"middle\">{}</text>",
                           num(px), num(p.bottom + 17), xml_escape(chart.x_tick_labels[k]));
      } else if (k < chart.x_tick_labels.size() && k % categories.every == 0) {
        out += fmt::format(
            "<text x=\"{0}\" y=\"{1}\" class=\"tk\" text-anchor=\"end\" "
            "transform=\"rotate(-40 {0} {1})\">{2}</text>",
            num(px), num(p.bottom + 12), xml_escape(fit(chart.x_tick_labels[k], kMaxTurnedLabel)));
      }
    }
    for (size_t i = 0; i < chart.series.size(); ++i) {
      out += series_path(chart.series[i], i, x, y);
    }
  };
  const double inset = kInset;
  if (chart.x_axis == AxisKind::kLog) {
    const Ticks xt = log_ticks(xr.lo, xr.hi);
    draw(LogScale(xt.lo, xt.hi, p.left + inset, p.right - inset),
         chart.x_ticks.empty() ? xt.values : chart.x_ticks);
  } else {
    const Ticks xt = nice_ticks(xr.lo, xr.hi);
    const bool exact = !chart.x_ticks.empty();
    double lo = exact ? xr.lo : xt.lo;
    double hi = exact ? xr.hi : xt.hi;
    if (exact && !chart.x_tick_labels.empty()) {  // every category keeps its place
      for (double v : chart.x_ticks) {
        if (finite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
      }
    }
    if (exact && !(hi > lo)) {
      draw(LinearScale(lo - 1, hi + 1, p.left + inset, p.right - inset), chart.x_ticks);
    } else {
      draw(LinearScale(lo, hi, p.left + inset, p.right - inset), exact ? chart.x_ticks : xt.values);
    }
  }
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"ax\"/>", num(p.left),
                     num(p.bottom), num(p.right), num(p.bottom));
  return out + "</svg>";
}

std::string_view series_color(size_t index) {
  return kPalette[index % (sizeof kPalette / sizeof kPalette[0])];
}

std::string tick_label(double value, double step) {
  if (!finite(value) || !(step > 0) || !finite(step) || std::fabs(value) >= 1e4 || step >= 1e4) {
    return tick_label(value);
  }
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 9);
  std::string label = fmt::format("{:.{}f}", value, decimals);
  if (label.find_first_not_of("-0.") == std::string::npos) return "0";
  return label;
}

std::string tick_label(double value) {
  if (!finite(value)) return "-";
  const double magnitude = std::fabs(value);
  auto trim = [](std::string s) {
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? std::string("0") : s;
  };
  if (magnitude >= 1e6) return trim(fmt::format("{:.2f}", value / 1e6)) + "M";
  if (magnitude >= 1e4) return trim(fmt::format("{:.2f}", value / 1e3)) + "k";
  if (magnitude >= 100 || magnitude == 0) return trim(fmt::format("{:.1f}", value));
  if (magnitude >= 1) return trim(fmt::format("{:.2f}", value));
  if (magnitude >= 0.01) return trim(fmt::format("{:.3f}", value));
  return trim(fmt::format("{:.2g}", value));
}

}  // namespace llmperf::svg

// Runs reduced to display points (from in-memory summaries or from summary.json files), the
// transposed sweep table built from them (text, Markdown, CSV, HTML), and the sweep charts against
// concurrency that report.html and compare.html draw.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/internal.h"
#include "report/text/csv.h"
#include "report/views.h"

namespace llmperf::report_detail {
namespace {

using Getter = std::function<std::optional<double>(const MetricPoint&)>;

// The tail percentile of a set of percentile points: 99 when requested, else the largest.
std::optional<size_t> tail_index(const std::vector<double>& p) {
  if (p.empty()) return std::nullopt;
  if (auto i = percentile_index(p, 99)) return i;
  return static_cast<size_t>(std::max_element(p.begin(), p.end()) - p.begin());
}

std::string cell(std::optional<double> value) { return format_number(value); }

struct RowDef {
  std::string label;  // row label; "{}" is replaced by the tail percentile label
  Getter value;
  bool always = false;  // shown even when absent for every run
};

std::vector<RowDef> row_defs() {
  auto count = [](int64_t MetricPoint::*field) {
    return [field](const MetricPoint& p) {
      return std::optional<double>(static_cast<double>(p.*field));
    };
  };
  auto opt = [](std::optional<double> MetricPoint::*field) {
    return [field](const MetricPoint& p) { return p.*field; };
  };
  return {
      {"Requests", count(&MetricPoint::total), true},
      {"Succeeded", count(&MetricPoint::succeeded), true},
      {"Failed", count(&MetricPoint::failed), true},
      {"QPS (req/s)", opt(&MetricPoint::qps), true},
      {"Output (tok/s)", opt(&MetricPoint::output_tps), true},
      {"Total (tok/s)", opt(&MetricPoint::total_tps), true},
      {"Avg Lat (s)", opt(&MetricPoint::latency_mean_s), true},
      {"P50 Lat (s)", opt(&MetricPoint::latency_p50_s)},
      {"P90 Lat (s)", opt(&MetricPoint::latency_p90_s)},
      {"P{} Lat (s)", opt(&MetricPoint::latency_tail_s)},
      {"Avg TTFT (ms)", opt(&MetricPoint::ttft_mean_ms)},
      {"P{} TTFT (ms)", opt(&MetricPoint::ttft_tail_ms)},
      {"Avg TPOT (ms)", opt(&MetricPoint::tpot_mean_ms)},
      {"P{} TPOT (ms)", opt(&MetricPoint::tpot_tail_ms)},
      {"Avg ITL (ms)", opt(&MetricPoint::itl_mean_ms)},
      {"P{} ITL (ms)", opt(&MetricPoint::itl_tail_ms)},
      {"Avg input tokens", opt(&MetricPoint::input_tokens_mean)},
      {"Avg output tokens", opt(&MetricPoint::output_tokens_mean)},
  };
}

}  // namespace

bool by_rate(const std::vector<MetricPoint>& points) {
  return !points.empty() && std::all_of(points.begin(), points.end(),
                                        [](const MetricPoint& p) { return p.rate >= 0; });
}

namespace {

double x_of(const MetricPoint& p, bool rate) { return rate ? p.rate : p.parallel; }

struct StatDef {
  std::string name;  // legend text for a single deployment; title suffix otherwise
  Getter value;
  std::string dash;
};

struct ChartDef {
  std::string title;
  std::string y_label;
  std::vector<StatDef> stats;
};

std::vector<ChartDef> chart_defs(const std::string& tail) {
  const std::string t = "P" + tail;
  return {
      {"Request throughput", "QPS (req/s)", {{"QPS", [](auto& p) { return p.qps; }, ""}}},
      {"Token throughput",
       "Tokens/s",
       {{"Output tok/s", [](auto& p) { return p.output_tps; }, ""},
        {"Total tok/s", [](auto& p) { return p.total_tps; }, "5 3"}}},
      {"End-to-end latency",
       "Latency (s)",
       {{"Mean", [](auto& p) { return p.latency_mean_s; }, ""},
        {"P50", [](auto& p) { return p.latency_p50_s; }, "2 2"},
        {"P90", [](auto& p) { return p.latency_p90_s; }, "6 3"},
        {t, [](auto& p) { return p.latency_tail_s; }, "9 3 2 3"}}},
      {"Time to first token",
       "TTFT (ms)",
       {{"Mean", [](auto& p) { return p.ttft_mean_ms; }, ""},
        {t, [](auto& p) { return p.ttft_tail_ms; }, "6 3"}}},
      {"Time per output token",
       "TPOT (ms)",
       {{"Mean", [](auto& p) { return p.tpot_mean_ms; }, ""},
        {t, [](auto& p) { return p.tpot_tail_ms; }, "6 3"}}},
      {"Failed requests",
       "Requests",
       {{"Failed", [](auto& p) { return std::optional<double>(static_cast<double>(p.failed)); },
         ""}}},
  };
}

svg::Series series_of(const std::string& name, const std::vector<MetricPoint>& points,
                      const Getter& value, bool rate) {
  svg::Series s;
  s.name = name;
  for (const auto& p : points) {
    auto v = value(p);
    if (!v) continue;
    s.x.push_back(x_of(p, rate));
    s.y.push_back(*v);
  }
  return s;
}

// The charts people pick an operating point from: latency at the tail against output throughput,
// one point per run, labelled with its concurrency or rate.
std::vector<svg::ChartSpec> operating_point_charts(const std::vector<Deployment>& deployments,
                                                   bool rate, const std::string& tail) {
  std::vector<svg::ChartSpec> charts;
  const std::pair<const char*, Getter> metrics[] = {
      {"TTFT", [](const MetricPoint& p) { return p.ttft_tail_ms; }},
      {"TPOT", [](const MetricPoint& p) { return p.tpot_tail_ms; }},
  };
  for (const auto& [name, value] : metrics) {
    svg::ChartSpec chart;
    chart.title = fmt::format("P{} {} against output throughput", tail, name);
    chart.x_label = "Output throughput (tok/s)";
    chart.y_label = fmt::format("P{} {} (ms)", tail, name);
    bool any = false;
    for (const auto& d : deployments) {
      // A grid: one line per cell through its load points; else one line per deployment.
      std::map<std::pair<int64_t, int64_t>, svg::Series> lines;
      for (const auto& p : d.points) {
        const auto y = value(p);
        if (!y || !p.output_tps) continue;
        svg::Series& series = lines[{p.input_tokens, p.output_tokens}];
        series.name =
            p.grid() ? fmt::format("in {} out {}", p.input_tokens, p.output_tokens) : d.label;
        if (p.grid() && deployments.size() > 1) series.name = d.label + " " + series.name;
        series.x.push_back(*p.output_tps);
        series.y.push_back(*y);
        series.labels.push_back(rate ? fmt::format("{:g} req/s", p.rate)
                                     : fmt::format("{}", p.parallel));
      }
      for (auto& [cell, series] : lines) {
        any = true;
        chart.series.push_back(std::move(series));
      }
    }
    if (any) charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace

std::vector<std::string> run_labels(const std::vector<MetricPoint>& points) {
  const bool rate = by_rate(points);
  const bool caps_differ =
      rate && std::any_of(points.begin(), points.end(), [&](const MetricPoint& p) {
        return p.parallel != points.front().parallel;
      });
  std::vector<std::string> labels;
  for (const MetricPoint& p : points) {
    std::string out = rate ? fmt::format("{:g} req/s", p.rate) : fmt::format("{}", p.parallel);
    if (caps_differ) out += fmt::format(" parallel {}", p.parallel);
    if (p.input_tokens >= 0) out += fmt::format(" in {}", p.input_tokens);
    if (p.output_tokens >= 0) out += fmt::format(" out {}", p.output_tokens);
    labels.push_back(std::move(out));
  }
  return labels;
}

MetricPoint point_from_row(const SweepRow& row) {
  const RunSummary& s = row.summary;
  MetricPoint p;
  p.parallel = row.info.parallel;
  p.number = row.info.number;
  p.rate = row.info.rate;
  p.total = s.total;
  p.succeeded = s.succeeded;
  p.failed = s.failed;
  auto finite = [](double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; };
  p.qps = finite(s.qps);
  p.output_tps = finite(s.output_throughput);
  p.total_tps = finite(s.total_throughput);
  p.latency_mean_s = mean_in(s.latency_ns, kNsPerS);
  p.ttft_mean_ms = mean_in(s.ttft_ns, kNsPerMs);
  p.tpot_mean_ms = mean_in(s.tpot_ns, kNsPerMs);
  p.itl_mean_ms = mean_in(s.itl_ns, kNsPerMs);
  p.input_tokens_mean = mean_in(s.input_tokens, 1);
  p.output_tokens_mean = mean_in(s.output_tokens, 1);
  p.input_tokens = row.info.input_tokens;
  p.output_tokens = row.info.output_tokens;
  if (s.window_ns > 0) {
    p.input_tps =
        static_cast<double>(s.total_input_tokens) / (static_cast<double>(s.window_ns) / kNsPerS);
  }
  p.output_tps_per_request = mean_in(s.output_tps_per_request, 1);
  p.input_chars_s = finite(s.input_chars_throughput);
  p.output_chars_s = finite(s.output_chars_throughput);
  if (auto i = percentile_index(s.percentiles, 50)) {
    p.latency_p50_s = percentile_in(s.latency_ns, *i, kNsPerS);
    p.ttft_p50_ms = percentile_in(s.ttft_ns, *i, kNsPerMs);
  }
  if (auto i = percentile_index(s.percentiles, 90)) {
    p.latency_p90_s = percentile_in(s.latency_ns, *i, kNsPerS);
  }
  if (auto i = tail_index(s.percentiles)) {
    p.tail = percentile_label(s.percentiles[*i]);
    p.latency_tail_s = percentile_in(s.latency_ns, *i, kNsPerS);
    p.ttft_tail_ms = percentile_in(s.ttft_ns, *i, kNsPerMs);
    p.tpot_tail_ms = percentile_in(s.tpot_ns, *i, kNsPerMs);
    p.itl_tail_ms = percentile_in(s.itl_ns, *i, kNsPerMs);
  }
  return p;
}

MetricPoint point_from_summary_file(const SummaryFile& f) {
  const auto mean = [](const std::optional<SummaryDistribution>& d) {
    return d ? d->mean : std::nullopt;
  };
  const auto at = [](const std::optional<SummaryDistribution>& d, const std::string& key) {
    return d ? d->percentile(key) : std::nullopt;
  };
  const SummaryMetrics& m = f.metrics;
  MetricPoint p;
  p.parallel = f.run.parallel;
  p.number = f.run.number;
  p.rate = f.run.rate.value_or(-1);
  p.total = f.requests.total;
  p.succeeded = f.requests.succeeded;
  p.failed = f.requests.failed;
  p.qps = f.qps;
  p.output_tps = f.output_throughput_tok_s;
  p.total_tps = f.total_throughput_tok_s;
  p.latency_mean_s = mean(m.latency_s);
  p.ttft_mean_ms = mean(m.ttft_ms);
  p.tpot_mean_ms = mean(m.tpot_ms);
  p.itl_mean_ms = mean(m.itl_ms);
  p.input_tokens_mean = mean(m.input_tokens);
  p.output_tokens_mean = mean(m.output_tokens);
  p.latency_p50_s = at(m.latency_s, "p50");
  p.ttft_p50_ms = at(m.ttft_ms, "p50");
  p.input_tokens = f.run.input_tokens.value_or(-1);
  p.output_tokens = f.run.output_tokens.value_or(-1);
  if (f.window_s && *f.window_s > 0) {
    p.input_tps = static_cast<double>(f.tokens.input_total) / *f.window_s;
  }
  p.output_tps_per_request = mean(m.output_tok_s_per_request);
  p.input_chars_s = f.input_throughput_chars_s;
  p.output_chars_s = f.output_throughput_chars_s;
  p.latency_p90_s = at(m.latency_s, "p90");
  const std::vector<double> requested = report_options(f).percentiles;
  if (auto i = tail_index(requested)) p.tail = percentile_label(requested[*i]);
  const std::string key = "p" + p.tail;
  p.latency_tail_s = at(m.latency_s, key);
  p.ttft_tail_ms = at(m.ttft_ms, key);
  p.tpot_tail_ms = at(m.tpot_ms, key);
  p.itl_tail_ms = at(m.itl_ms, key);
  return p;
}

TextTable transposed_sweep_table(const std::vector<MetricPoint>& points) {
  const bool rate = by_rate(points);
  const std::string tail = points.empty() ? "99" : points.front().tail;
  TextTable table;
  table.headers.push_back(rate ? "Rate" : "Concurrency");
  for (std::string& label : run_labels(points)) table.headers.push_back(std::move(label));
  for (const auto& def : row_defs()) {
    std::vector<std::string> row = {fmt::format(fmt::runtime(def.label), tail)};
    bool any = false;
    for (const auto& p : points) {
      auto v = def.value(p);
      any = any || v.has_value();
      row.push_back(cell(v));
    }
    if (any || def.always) table.rows.push_back(std::move(row));
  }
  return table;
}

std::string markdown_table(const TextTable& table) {
  auto line = [](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) {
      std::string escaped;
      for (char ch : c) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
      out += " " + escaped + " |";
    }
    return out + "\n";
  };
  std::string out = line(table.headers) + "|";
  for (size_t c = 0; c < table.headers.size(); ++c) out += c == 0 ? " --- |" : " ---: |";
  out += "\n";
  for (const auto& row : table.rows) out += line(row);
  return out;
}

std::string csv_table(const TextTable& table) {
  auto field = [](const std::string& text) {
    return text == "-" ? std::string() : csv_field(text);
  };
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) out += (c ? "," : "") + field(cells[c]);
    return out + "\n";
  };
  std::string out = line(table.headers);
  for (const auto& row : table.rows) out += line(row);
  return out;
}

std::string html_table(const TextTable& table) {
  std::string out = "<table><thead><tr>";
  for (const auto& h : table.headers) out += "<th>" + xml_escape(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      const bool text = row[c].find_first_not_of("0123456789.-") != std::string::npos;
      out += (c == 0 ? "<th scope=\"row\">"
              : text ? "<td class=\"l\">"
                     : "<td>") +
             xml_escape(row[c]) + (c == 0 ? "</th>" : "</td>");
    }
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

std::vector<svg::ChartSpec> sweep_charts(const std::vector<Deployment>& deployments) {
  std::vector<MetricPoint> all;
  for (const auto& d : deployments) all.insert(all.end(), d.points.begin(), d.points.end());
  const bool rate = by_rate(all);
  std::set<double> xs;
  for (const auto& p : all) xs.insert(x_of(p, rate));
  const bool log_x = !xs.empty() && *xs.begin() > 0 && *xs.rbegin() / *xs.begin() >= 8;
  const std::string tail = all.empty() ? "99" : all.front().tail;

  auto base = [&](const std::string& title, const std::string& y_label) {
    svg::ChartSpec chart;
    chart.title = title;
    chart.y_label = y_label;
    chart.x_label = rate ? "Request rate (req/s)" : "Concurrency";
    chart.x_axis = log_x ? svg::AxisKind::kLog : svg::AxisKind::kLinear;
    if (xs.size() <= 12) chart.x_ticks.assign(xs.begin(), xs.end());
    return chart;
  };
  std::vector<svg::ChartSpec> charts;
  // Against concurrency only when every run of a deployment has its own concurrency (not a grid).
  bool distinct_x = true;
  for (const auto& d : deployments) {
    std::set<double> seen;
    for (const auto& p : d.points) distinct_x = distinct_x && seen.insert(x_of(p, rate)).second;
  }
  for (const auto& def : distinct_x ? chart_defs(tail) : std::vector<ChartDef>{}) {
    if (deployments.size() == 1) {
      svg::ChartSpec chart = base(def.title, def.y_label);
      chart.integer_y = def.y_label == "Requests";
      for (const auto& stat : def.stats) {
        svg::Series s = series_of(stat.name, deployments.front().points, stat.value, rate);
        s.dash = stat.dash;
        if (!s.x.empty()) chart.series.push_back(std::move(s));
      }
      charts.push_back(std::move(chart));
      continue;
    }
    for (const auto& stat : def.stats) {
      const std::string title =
          def.stats.size() == 1 ? def.title : fmt::format("{}: {}", def.title, stat.name);
      svg::ChartSpec chart = base(title, def.y_label);
      chart.integer_y = def.y_label == "Requests";
      bool any = false;
      for (const auto& d : deployments) {
        chart.series.push_back(series_of(d.label, d.points, stat.value, rate));
        any = any || !chart.series.back().x.empty();
      }
      if (any) charts.push_back(std::move(chart));
    }
  }
  for (auto& chart : operating_point_charts(deployments, rate, tail)) {
    charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace llmperf::report_detail

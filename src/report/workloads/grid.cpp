// The input x output grid (--dataset random --input-tokens A B ... --output-tokens X Y ...): for
// each load point (concurrency or rate), one table per metric with input lengths as rows and
// output lengths as columns, as text, Markdown, CSV and JSON (grid_summary.*), and the grid
// charts of report.html.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "report/internal.h"
#include "report/views.h"

namespace llmperf::report_detail {
namespace {

using Getter = std::function<std::optional<double>(const MetricPoint&)>;

struct GridMetric {
  std::string key;    // CSV/JSON key
  std::string title;  // table title
  Getter value;
};

std::vector<GridMetric> grid_metrics(const std::string& tail) {
  return {
      {metric_key(Metric::kOutputThroughput), "Output throughput (tok/s)",
       [](const MetricPoint& p) { return p.output_tps; }},
      {"input_throughput_tok_s", "Input (prefill) throughput (tok/s)",
       [](const MetricPoint& p) { return p.input_tps; }},
      {"output_tok_s_per_request", "Output tok/s per request (output tokens / latency, mean)",
       [](const MetricPoint& p) { return p.output_tps_per_request; }},
      {metric_key(Metric::kTtft, "p50"), "TTFT P50 (ms)",
       [](const MetricPoint& p) { return p.ttft_p50_ms; }},
      {metric_key(Metric::kTtft, "p" + tail), "TTFT P" + tail + " (ms)",
       [](const MetricPoint& p) { return p.ttft_tail_ms; }},
      {metric_key(Metric::kTpot, "avg"), "TPOT mean (ms)",
       [](const MetricPoint& p) { return p.tpot_mean_ms; }},
      {"input_throughput_chars_s", "Prompt characters/s",
       [](const MetricPoint& p) { return p.input_chars_s; }},
      {"output_throughput_chars_s", "Completion characters/s",
       [](const MetricPoint& p) { return p.output_chars_s; }},
  };
}

// The points of one load point, and the lengths that make its rows and columns.
struct LoadGroup {
  std::string name;  // "concurrency 16", "rate 5 req/s"
  std::vector<const MetricPoint*> points;
  std::set<int64_t> inputs;
  std::set<int64_t> outputs;
  const MetricPoint* at(int64_t in, int64_t out) const {
    for (const MetricPoint* p : points) {
      if (p->input_tokens == in && p->output_tokens == out) return p;
    }
    return nullptr;
  }
};

std::vector<LoadGroup> groups_of(const std::vector<MetricPoint>& points) {
  const bool rate = by_rate(points);
  std::map<double, LoadGroup> groups;
  for (const MetricPoint& p : points) {
    LoadGroup& g = groups[rate ? p.rate : p.parallel];
    g.name =
        rate ? fmt::format("rate {:g} req/s", p.rate) : fmt::format("concurrency {}", p.parallel);
    g.points.push_back(&p);
    g.inputs.insert(p.input_tokens);
    g.outputs.insert(p.output_tokens);
  }
  std::vector<LoadGroup> out;
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

std::string length_name(int64_t tokens) { return tokens < 0 ? "-" : fmt::format("{}", tokens); }

// One metric's table for one load point: rows are input lengths, columns output lengths.
TextTable metric_table(const LoadGroup& g, const GridMetric& m) {
  TextTable table;
  table.headers.push_back("input \\ output");
  for (const int64_t out : g.outputs) table.headers.push_back(length_name(out));
  for (const int64_t in : g.inputs) {
    std::vector<std::string> row = {length_name(in)};
    for (const int64_t out : g.outputs) {
      const MetricPoint* p = g.at(in, out);
      row.push_back(format_number(p ? m.value(*p) : std::nullopt));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string tail_of(const std::vector<MetricPoint>& points) {
  return points.empty() ? "99" : points.front().tail;
}

}  // namespace

bool is_grid(const std::vector<MetricPoint>& points) {
  std::set<std::pair<int64_t, int64_t>> cells;
  for (const MetricPoint& p : points) {
    if (p.grid()) cells.insert({p.input_tokens, p.output_tokens});
  }
  return cells.size() >= 2;
}

std::string grid_text(const std::vector<MetricPoint>& points) {
  std::string out;
  for (const LoadGroup& g : groups_of(points)) {
    out += fmt::format("\nGrid at {} (rows: input tokens, columns: output tokens)\n", g.name);
    for (const GridMetric& m : grid_metrics(tail_of(points))) {
      const TextTable table = metric_table(g, m);
      out += "\n" + m.title + "\n" + render_table(table.headers, table.rows);
    }
  }
  return out;
}

std::string grid_markdown(const std::vector<MetricPoint>& points) {
  std::string out = "# Input x output grid\n";
  for (const LoadGroup& g : groups_of(points)) {
    out += fmt::format("\n## {} (rows: input tokens, columns: output tokens)\n", g.name);
    for (const GridMetric& m : grid_metrics(tail_of(points))) {
      out += "\n### " + m.title + "\n\n" + markdown_table(metric_table(g, m));
    }
  }
  return out;
}

std::string grid_csv(const std::vector<MetricPoint>& points) {
  const auto metrics = grid_metrics(tail_of(points));
  std::string out = "parallel,rate,input_tokens,output_tokens,requests,succeeded,failed";
  for (const GridMetric& m : metrics) out += "," + m.key;
  out += "\n";
  for (const MetricPoint& p : points) {
    out += fmt::format(
        "{},{},{},{},{},{},{}", p.parallel, p.rate < 0 ? "" : fmt::format("{:g}", p.rate),
        p.input_tokens < 0 ? "" : std::to_string(p.input_tokens),
        p.output_tokens < 0 ? "" : std::to_string(p.output_tokens), p.total, p.succeeded, p.failed);
    for (const GridMetric& m : metrics) {
      const auto v = m.value(p);
      out += "," + (v ? fmt::format("{}", round_to(*v, 4)) : std::string());
    }
    out += "\n";
  }
  return out;
}

Json grid_json(const std::vector<MetricPoint>& points) {
  Json list = Json::array();
  for (const MetricPoint& p : points) {
    Json row = {
        {"parallel", p.parallel},
        {"rate", p.rate < 0 ? Json(nullptr) : Json(p.rate)},
        {"input_tokens", p.input_tokens < 0 ? Json(nullptr) : Json(p.input_tokens)},
        {"output_tokens", p.output_tokens < 0 ? Json(nullptr) : Json(p.output_tokens)},
        {"requests", p.total},
        {"succeeded", p.succeeded},
        {"failed", p.failed},
    };
    for (const GridMetric& m : grid_metrics(tail_of(points))) {
      const auto v = m.value(p);
      row[m.key] = v ? number_or_null(round_to(*v, 4)) : Json(nullptr);
    }
    list.push_back(std::move(row));
  }
  return list;
}

std::vector<svg::ChartSpec> grid_charts(const std::vector<MetricPoint>& points) {
  std::vector<svg::ChartSpec> charts;
  // x: one length; one line per value of the other length.
  const auto chart = [](const LoadGroup& g, const std::string& title, const std::string& y_label,
                        bool x_is_output, const Getter& value) {
    svg::ChartSpec c;
    c.title = fmt::format("{}, {}", title, g.name);
    c.x_label = x_is_output ? "Output length (tokens)" : "Input length (tokens)";
    c.y_label = y_label;
    const std::set<int64_t>& lines = x_is_output ? g.inputs : g.outputs;
    const std::set<int64_t>& xs = x_is_output ? g.outputs : g.inputs;
    c.x_ticks.assign(xs.begin(), xs.end());
    for (const int64_t line : lines) {
      svg::Series s;
      s.name = fmt::format("{} {}", x_is_output ? "input" : "output", length_name(line));
      for (const int64_t x : xs) {
        const MetricPoint* p = x_is_output ? g.at(line, x) : g.at(x, line);
        const auto y = p ? value(*p) : std::nullopt;
        if (!y) continue;
        s.x.push_back(static_cast<double>(x));
        s.y.push_back(*y);
      }
      if (!s.x.empty()) c.series.push_back(std::move(s));
    }
    return c;
  };
  for (const LoadGroup& g : groups_of(points)) {
    charts.push_back(chart(g, "Output tok/s by output length", "Output (tok/s)", true,
                           [](const MetricPoint& p) { return p.output_tps; }));
    charts.push_back(chart(g, "Per-request tok/s by output length", "Output tok/s per request",
                           true, [](const MetricPoint& p) { return p.output_tps_per_request; }));
    charts.push_back(chart(g, "TTFT P50 by input length", "TTFT P50 (ms)", false,
                           [](const MetricPoint& p) { return p.ttft_p50_ms; }));
    charts.push_back(chart(g, "Input tok/s by input length", "Input (tok/s)", false,
                           [](const MetricPoint& p) { return p.input_tps; }));
  }
  return charts;
}

}  // namespace llmperf::report_detail

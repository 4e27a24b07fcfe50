// The sweep tables: sweep_summary.json, .csv and .md hold one row per run (concurrency, requests,
// ok/failed, QPS, latency, TTFT, TPOT, ITL, throughput); the transposed table (metrics as rows,
// one column per concurrency level) is printed on stdout and written as sweep_table.md and .csv;
// report.html draws the sweep charts above it. A sweep over an --input-tokens x --output-tokens
// grid also gets the grid tables (grid_summary.md, .csv, .json; grid.cpp). The tail column is the
// 99th percentile when it was requested, else the largest requested percentile; its label ("p99",
// "p95", ...) is in every header and key.
#include <algorithm>
#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "core/files.h"
#include "metrics/catalogue.h"
#include "report/internal.h"
#include "report/text/csv.h"
#include "report/views.h"

namespace llmperf {
namespace {

using report_detail::Json;

constexpr int kDecimals = 4;

struct Column {
  std::string key;     // JSON key and CSV header
  std::string header;  // text and Markdown header; empty for machine-only columns
  std::function<Json(const SweepRow&)> value;
};

Json rounded(std::optional<double> value) {
  if (!value) return nullptr;
  return report_detail::number_or_null(report_detail::round_to(*value, kDecimals));
}

Json server_gauge_max(const SweepRow& r, GaugeStats ServerSummary::*gauge) {
  const GaugeStats& g = r.summary.server.*gauge;
  return g.complete() ? rounded(g.max) : Json(nullptr);
}

// Why the server_*_max columns of a row are null although the server has those gauges.
Json server_gauges_gap(const SweepRow& r) {
  const std::string gap = report_detail::server_gauges_gap(r.summary.server);
  return gap.empty() ? Json(nullptr) : Json(gap);
}

// The tail percentile shared by all rows (they come from one config); nullopt when none.
std::optional<double> tail_percentile(const std::vector<SweepRow>& rows) {
  if (rows.empty() || rows.front().summary.percentiles.empty()) return std::nullopt;
  const auto& p = rows.front().summary.percentiles;
  if (report_detail::percentile_index(p, 99)) return 99.0;
  return *std::max_element(p.begin(), p.end());
}

std::vector<Column> columns(std::optional<double> tail) {
  const std::string label = tail ? report_detail::percentile_label(*tail) : "99";
  const std::string key = "p" + label;
  const std::string head = "P" + label;
  auto tail_value = [tail](const SweepRow& r, const Distribution& d, double unit) -> Json {
    if (!tail) return nullptr;
    auto i = report_detail::percentile_index(r.summary.percentiles, *tail);
    if (!i) return nullptr;
    return rounded(report_detail::percentile_in(d, *i, unit));
  };
  auto mean = [](const Distribution& d, double unit) {
    return rounded(report_detail::mean_in(d, unit));
  };
  // The catalogue's metrics, keyed, headed and read as it says: a per-request time's mean
  // (`latency_avg_s`, "Avg Lat (s)") and tail (`ttft_p99_ms`, "P99 TTFT (ms)"; `in_text` false: in
  // the files only), a run-level rate (`qps`, "QPS (req/s)").
  const auto mean_column = [mean](Metric metric) {
    const MetricInfo& m = metric_info(metric);
    return Column{
        metric_key(metric, "avg"), fmt::format("Avg {} ({})", m.narrow_label(), m.unit),
        [mean, &m](const SweepRow& r) { return mean(r.summary.*m.dist, base_per_unit(m)); }};
  };
  const auto tail_column = [=](Metric metric, bool in_text = true) {
    const MetricInfo& m = metric_info(metric);
    return Column{metric_key(metric, key),
                  in_text ? fmt::format("{} {} ({})", head, m.narrow_label(), m.unit) : "",
                  [tail_value, &m](const SweepRow& r) {
                    return tail_value(r, r.summary.*m.dist, base_per_unit(m));
                  }};
  };
  const auto rate_column = [](Metric metric) {
    const MetricInfo& m = metric_info(metric);
    return Column{metric_key(metric), fmt::format("{} ({})", m.narrow_label(), m.unit),
                  [&m](const SweepRow& r) { return rounded(r.summary.*m.value); }};
  };
  return {
      {"parallel", "Parallel", [](const SweepRow& r) { return Json(r.info.parallel); }},
      {"number", "", [](const SweepRow& r) { return Json(r.info.number); }},
      {"rate", "",
       [](const SweepRow& r) { return r.info.rate < 0 ? Json(nullptr) : rounded(r.info.rate); }},
      {"total", "Requests", [](const SweepRow& r) { return Json(r.summary.total); }},
      {"succeeded", "OK", [](const SweepRow& r) { return Json(r.summary.succeeded); }},
      {"failed", "Failed", [](const SweepRow& r) { return Json(r.summary.failed); }},
      rate_column(Metric::kQps),
      mean_column(Metric::kLatency),
      tail_column(Metric::kLatency),
      mean_column(Metric::kTtft),
      tail_column(Metric::kTtft),
      mean_column(Metric::kTpot),
      tail_column(Metric::kTpot, /*in_text=*/false),
      mean_column(Metric::kItl),
      tail_column(Metric::kItl),
      rate_column(Metric::kOutputThroughput),
      rate_column(Metric::kTotalThroughput),
      {"output_dir", "", [](const SweepRow& r) { return Json(r.info.output_dir); }},
      // The server's view of each run (its /metrics; null where not read): in the files only (last,
      // so that the earlier columns keep their places), the text has a table of its own.
      {"server_running_max", "",
       [](const SweepRow& r) { return server_gauge_max(r, &ServerSummary::running); }},
      {"server_waiting_max", "",
       [](const SweepRow& r) { return server_gauge_max(r, &ServerSummary::waiting); }},
      {"server_kv_usage_max", "",
       [](const SweepRow& r) { return server_gauge_max(r, &ServerSummary::kv_usage); }},
      {"server_preemptions", "",
       [](const SweepRow& r) { return rounded(r.summary.server.preemptions); }},
      {"token_mismatch", "",
       [](const SweepRow& r) { return rounded(r.summary.server.token_mismatch()); }},
      {"request_mismatch", "",
       [](const SweepRow& r) { return rounded(r.summary.server.request_mismatch()); }},
      {"server_gauges_incomplete", "", server_gauges_gap},
  };
}

// What the server was doing during each run, when its /metrics were read: "" otherwise. Its rows
// are named as the sweep table's columns are.
std::string server_sweep_text(const std::vector<SweepRow>& rows,
                              const std::vector<report_detail::MetricPoint>& points) {
  const std::vector<std::string> labels = report_detail::run_labels(points);
  std::vector<std::vector<std::string>> cells;
  bool any = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ServerSummary& s = rows[i].summary.server;
    any = any || (s.available && !s.engine.empty());
    const auto gauge = [](const GaugeStats& g, double scale) {
      return report_detail::server_gauge_cell(g, &GaugeStats::max, scale);
    };
    const auto check = [](const Reconciled& c) {
      if (!c.available) return std::string("-");
      return c.matches ? std::string("ok") : fmt::format("MISMATCH {:+.1f}%", 100.0 * c.difference /
                                                                        std::max(1.0, c.client));
    };
    cells.push_back({labels[i], gauge(s.running, 1), gauge(s.waiting, 1), gauge(s.kv_usage, 100),
                     s.preemptions ? report_detail::format_number(*s.preemptions) : "-",
                     report_detail::server_quantile_cells(s.ttft, 0.5).value_ms,
                     check(s.requests_check), check(s.generation_check)});
  }
  if (!any) return "";
  return "\nServer during each run (its /metrics)\n" +
         report_detail::render_table({"Run", "Running max", "Waiting max", "KV max (%)",
                                      "Preemptions", "Server TTFT P50 (ms)", "Requests",
                                      "Generated tokens"},
                                     cells, {0, 6, 7});
}

std::string display(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return value.dump();
  return report_detail::format_number(value.get<double>());
}

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (!value.is_string()) return value.dump();
  return report_detail::csv_field(value.get<std::string>());
}

// Headers and display cells of the columns shown to people (text and Markdown).
std::pair<std::vector<std::string>, std::vector<std::vector<std::string>>> display_table(
    const std::vector<SweepRow>& rows) {
  const auto cols = columns(tail_percentile(rows));
  std::vector<std::string> headers;
  for (const auto& c : cols) {
    if (!c.header.empty()) headers.push_back(c.header);
  }
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : rows) {
    std::vector<std::string> line;
    for (const auto& c : cols) {
      if (!c.header.empty()) line.push_back(display(c.value(row)));
    }
    cells.push_back(std::move(line));
  }
  return {headers, cells};
}

std::string tail_note(const std::vector<SweepRow>& rows) {
  auto tail = tail_percentile(rows);
  if (!tail) return "no percentiles requested";
  const std::string label = report_detail::percentile_label(*tail);
  return fmt::format("P{} = {}th percentile", label, label);
}

std::vector<report_detail::MetricPoint> sweep_points(const std::vector<SweepRow>& rows) {
  std::vector<report_detail::MetricPoint> points;
  for (const auto& row : rows) points.push_back(report_detail::point_from_row(row));
  return points;
}

// A sweep's name for page titles: "<name> (<timestamp>)" from <outputs>/<timestamp>/<name>.
std::string sweep_title(const std::string& dir) {
  const std::filesystem::path path(dir);
  const std::string name = path.filename().string();
  const std::string stamp = path.parent_path().filename().string();
  return stamp.empty() ? name : fmt::format("{} ({})", name, stamp);
}

}  // namespace

std::string render_sweep_text(const std::vector<SweepRow>& rows) {
  const auto points = sweep_points(rows);
  const auto table = report_detail::transposed_sweep_table(points);
  std::string text = fmt::format("\nSweep summary ({})\n", tail_note(rows)) +
                     report_detail::render_table(table.headers, table.rows);
  if (report_detail::is_grid(points)) text += report_detail::grid_text(points);
  text += server_sweep_text(rows, points);
  return text;
}

void write_sweep_outputs(const std::string& dir, const std::vector<SweepRow>& rows) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error(fmt::format("cannot create directory {}: {}", dir, ec.message()));
  const auto cols = columns(tail_percentile(rows));

  Json list = Json::array();
  std::string csv;
  for (size_t c = 0; c < cols.size(); ++c) csv += (c ? "," : "") + cols[c].key;
  csv += "\n";
  for (const auto& row : rows) {
    Json object = Json::object();
    for (size_t c = 0; c < cols.size(); ++c) {
      Json value = cols[c].value(row);
      csv += (c ? "," : "") + csv_cell(value);
      object[cols[c].key] = std::move(value);
    }
    csv += "\n";
    list.push_back(std::move(object));
  }

  auto [headers, cells] = display_table(rows);
  auto md_line = [](const std::vector<std::string>& cells_of_row) {
    std::string line = "|";
    for (const auto& cell : cells_of_row) line += " " + cell + " |";
    return line + "\n";
  };
  std::string md = fmt::format("Sweep summary ({})\n\n", tail_note(rows)) + md_line(headers);
  md += "|";
  for (size_t c = 0; c < headers.size(); ++c) md += c == 0 ? " --- |" : " ---: |";
  md += "\n";
  for (const auto& line : cells) md += md_line(line);

  const fs::path base(dir);
  write_file_atomic((base / "sweep_summary.json").string(),
                    list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  write_file_atomic((base / "sweep_summary.csv").string(), csv);
  write_file_atomic((base / "sweep_summary.md").string(), md);

  const auto points = sweep_points(rows);
  const auto table = report_detail::transposed_sweep_table(points);
  write_file_atomic(
      (base / "sweep_table.md").string(),
      fmt::format("Sweep table ({})\n\n", tail_note(rows)) + report_detail::markdown_table(table));
  write_file_atomic((base / "sweep_table.csv").string(), report_detail::csv_table(table));
  if (report_detail::is_grid(points)) {
    write_file_atomic((base / "grid_summary.md").string(), report_detail::grid_markdown(points));
    write_file_atomic((base / "grid_summary.csv").string(), report_detail::grid_csv(points));
    write_file_atomic((base / "grid_summary.json").string(),
                      report_detail::grid_json(points).dump(2) + "\n");
  }
  write_file_atomic((base / "report.html").string(),
                    report_detail::render_sweep_html(sweep_title(dir), points));
}

}  // namespace llmperf

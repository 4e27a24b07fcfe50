// `llmperf compare DIR...`: puts deployments side by side. Each DIR is a sweep directory (its runs'
// summary.json files, or its sweep_summary.json) or a single run directory (summary.json). Writes
// compare.md (one table per metric: concurrency rows, one column per deployment) and compare.html
// (the same tables under overlaid charts, one line per deployment). Columns are named by
// compare_labels.cpp.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "core/files.h"
#include "metrics/catalogue.h"
#include "report/internal.h"
#include "report/server/server_readback.h"
#include "report/tools.h"
#include "report/views.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using report_detail::Deployment;
using report_detail::MetricPoint;
using report_detail::TextTable;

struct Source {
  Deployment deployment;
  std::string dir;                       // as given on the command line
  std::string model;                     // from the first summary.json, if any
  report_detail::DeploymentFacts facts;  // what names its column
};

std::optional<double> number_at(const json& row, const std::string& key) {
  auto it = row.find(key);
  if (it == row.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// A row of sweep_summary.json (fewer metrics than summary.json: no p50/p90).
MetricPoint point_from_sweep_row(const json& row) {
  MetricPoint p;
  p.parallel = static_cast<int>(number_at(row, "parallel").value_or(0));
  p.number = static_cast<int64_t>(number_at(row, "number").value_or(0));
  p.rate = number_at(row, "rate").value_or(-1);
  p.total = static_cast<int64_t>(number_at(row, "total").value_or(0));
  p.succeeded = static_cast<int64_t>(number_at(row, "succeeded").value_or(0));
  p.failed = static_cast<int64_t>(number_at(row, "failed").value_or(0));
  const auto at = [&row](Metric metric, std::string_view stat = {}) {
    return number_at(row, metric_key(metric, stat));  // as the sweep's table keys them
  };
  p.qps = at(Metric::kQps);
  p.output_tps = at(Metric::kOutputThroughput);
  p.total_tps = at(Metric::kTotalThroughput);
  p.latency_mean_s = at(Metric::kLatency, "avg");
  p.ttft_mean_ms = at(Metric::kTtft, "avg");
  p.tpot_mean_ms = at(Metric::kTpot, "avg");
  p.itl_mean_ms = at(Metric::kItl, "avg");
  // The tail percentile is the one the latency's "p<tail>" column has.
  const std::string prefix = metric_key_in(Metric::kLatency, "p", "");
  const std::string suffix = "_" + std::string(metric_info(Metric::kLatency).unit);
  for (const auto& [key, value] : row.items()) {
    if (key.rfind(prefix, 0) == 0 && key.size() > prefix.size() + suffix.size() &&
        key.substr(key.size() - suffix.size()) == suffix) {
      p.tail = key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
    }
  }
  const std::string tail = "p" + p.tail;
  p.latency_tail_s = at(Metric::kLatency, tail);
  p.ttft_tail_ms = at(Metric::kTtft, tail);
  p.tpot_tail_ms = at(Metric::kTpot, tail);
  p.itl_tail_ms = at(Metric::kItl, tail);
  return p;
}

Source load_source(const std::string& dir_text) {
  const fs::path dir(dir_text);
  Source source;
  source.dir = dir_text;
  bool first = true;
  auto add_summary = [&](const fs::path& file) {
    const SummaryFile summary = read_summary_file(file.string());
    source.deployment.points.push_back(report_detail::point_from_summary_file(summary));
    if (!first) return;
    first = false;
    const ReportOptions options = report_options(summary);
    source.deployment.label = options.name.empty() ? options.model : options.name;
    source.model = options.model;
    source.facts.name = options.name;
    source.facts.config = nlohmann::json(summary.config);  // keys sorted, as the labels read them
    const ServerIdentity id = identity_from_json(nlohmann::json(summary.server));
    source.facts.server = id.name().empty() ? id.server_header : id.name();
  };
  if (fs::exists(dir / "summary.json")) {
    add_summary(dir / "summary.json");
  } else if (fs::is_directory(dir)) {
    std::vector<fs::path> runs;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_directory() && fs::exists(entry.path() / "summary.json")) {
        runs.push_back(entry.path() / "summary.json");
      }
    }
    std::sort(runs.begin(), runs.end());
    for (const auto& run : runs) add_summary(run);
    if (runs.empty() && fs::exists(dir / "sweep_summary.json")) {
      const json rows = report_detail::read_json_file((dir / "sweep_summary.json").string());
      for (const auto& row : rows) source.deployment.points.push_back(point_from_sweep_row(row));
    }
  }
  if (source.deployment.points.empty()) {
    throw std::runtime_error(fmt::format(
        "{}: no summary.json or sweep_summary.json found (give a run or sweep directory written "
        "by llmperf)",
        dir_text));
  }
  auto& points = source.deployment.points;
  std::stable_sort(points.begin(), points.end(), [](const MetricPoint& a, const MetricPoint& b) {
    return std::tie(a.rate, a.parallel, a.number) < std::tie(b.rate, b.parallel, b.number);
  });
  if (source.deployment.label.empty()) source.deployment.label = dir.filename().string();
  source.facts.label = source.deployment.label;
  source.facts.dir = dir_text;
  return source;
}

struct CompareMetric {
  std::string title;
  std::function<std::optional<double>(const MetricPoint&)> value;
};

std::vector<CompareMetric> compare_metrics(const std::string& tail) {
  auto count = [](int64_t MetricPoint::*field) {
    return [field](const MetricPoint& p) {
      return std::optional<double>(static_cast<double>(p.*field));
    };
  };
  return {
      {"QPS (req/s)", [](const MetricPoint& p) { return p.qps; }},
      {"Output throughput (tok/s)", [](const MetricPoint& p) { return p.output_tps; }},
      {"Total throughput (tok/s)", [](const MetricPoint& p) { return p.total_tps; }},
      {"Avg latency (s)", [](const MetricPoint& p) { return p.latency_mean_s; }},
      {"P" + tail + " latency (s)", [](const MetricPoint& p) { return p.latency_tail_s; }},
      {"Avg TTFT (ms)", [](const MetricPoint& p) { return p.ttft_mean_ms; }},
      {"P" + tail + " TTFT (ms)", [](const MetricPoint& p) { return p.ttft_tail_ms; }},
      {"Avg TPOT (ms)", [](const MetricPoint& p) { return p.tpot_mean_ms; }},
      {"Avg ITL (ms)", [](const MetricPoint& p) { return p.itl_mean_ms; }},
      {"Succeeded requests", count(&MetricPoint::succeeded)},
      {"Failed requests", count(&MetricPoint::failed)},
  };
}

// One table per metric: one row per concurrency level (or rate), one column per deployment.
std::vector<std::pair<std::string, TextTable>> metric_tables(const std::vector<Source>& sources) {
  bool by_rate = true;
  std::set<std::pair<double, int>> keys;
  for (const auto& s : sources) {
    for (const auto& p : s.deployment.points) {
      by_rate = by_rate && p.rate >= 0;
      keys.insert({p.rate, p.parallel});
    }
  }
  std::set<double> xs;
  for (const auto& [rate, parallel] : keys) xs.insert(by_rate ? rate : parallel);
  const std::string tail = sources.front().deployment.points.front().tail;
  std::vector<std::pair<std::string, TextTable>> tables;
  for (const auto& metric : compare_metrics(tail)) {
    TextTable table;
    table.headers.push_back(by_rate ? "Rate (req/s)" : "Concurrency");
    for (const auto& s : sources) table.headers.push_back(s.deployment.label);
    bool any = false;
    for (double x : xs) {
      std::vector<std::string> row = {report_detail::format_number(x)};
      for (const auto& s : sources) {
        std::optional<double> value;
        for (const auto& p : s.deployment.points) {
          if ((by_rate ? p.rate : p.parallel) == x) value = metric.value(p);
        }
        any = any || value.has_value();
        row.push_back(report_detail::format_number(value));
      }
      table.rows.push_back(std::move(row));
    }
    if (any) tables.emplace_back(metric.title, std::move(table));
  }
  return tables;
}

TextTable sources_table(const std::vector<Source>& sources) {
  TextTable table;
  table.headers = {"Deployment", "Model", "Server", "Runs", "Directory"};
  for (const auto& s : sources) {
    table.rows.push_back({s.deployment.label, s.model.empty() ? "-" : s.model,
                          s.facts.server.empty() ? "-" : s.facts.server,
                          fmt::format("{}", s.deployment.points.size()), s.dir});
  }
  return table;
}

}  // namespace

CompareOutcome compare_outputs(const CompareOptions& options) {
  if (options.dirs.empty()) throw std::runtime_error("compare needs at least one directory");
  if (!options.labels.empty() && options.labels.size() != options.dirs.size()) {
    throw std::runtime_error(
        fmt::format("--label was given {} time(s) for {} directories; give "
                    "one label per directory or none",
                    options.labels.size(), options.dirs.size()));
  }
  std::vector<Source> sources;
  for (size_t i = 0; i < options.dirs.size(); ++i) {
    sources.push_back(load_source(options.dirs[i]));
    if (!options.labels.empty()) sources.back().facts.label = options.labels[i];
  }
  CompareOutcome outcome;
  std::vector<report_detail::DeploymentFacts> facts;
  for (const auto& s : sources) facts.push_back(s.facts);
  const std::vector<std::string> labels =
      report_detail::deployment_labels(facts, &outcome.warnings);
  for (size_t i = 0; i < sources.size(); ++i) sources[i].deployment.label = labels[i];
  const auto tables = metric_tables(sources);

  std::string md = "# llmperf compare\n\n" + report_detail::markdown_table(sources_table(sources));
  for (const std::string& w : outcome.warnings) md += "\nWARNING: " + w + "\n";
  for (const auto& [title, table] : tables) {
    md += "\n## " + title + "\n\n" + report_detail::markdown_table(table);
  }

  std::vector<Deployment> deployments;
  for (const auto& s : sources) deployments.push_back(s.deployment);
  std::string body = "<h1>llmperf compare</h1>" + report_detail::html_table(sources_table(sources));
  for (const std::string& w : outcome.warnings) {
    body += "<p class=\"note\">WARNING: " + xml_escape(w) + "</p>";
  }
  body += "<h2>Charts</h2>" + report_detail::chart_grid(report_detail::sweep_charts(deployments));
  body += "<h2>Tables</h2>";
  for (const auto& [title, table] : tables) {
    body += "<h3>" + xml_escape(title) + "</h3>" + report_detail::html_table(table);
  }
  std::string title = "llmperf compare:";
  for (const auto& s : sources) title += " " + s.deployment.label;

  const fs::path out(options.outputs_dir.empty() ? "." : options.outputs_dir);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot create directory {}: {}", out.string(), ec.message()));
  }
  write_file_atomic((out / "compare.md").string(), md);
  write_file_atomic((out / "compare.html").string(), report_detail::html_page(title, body));
  outcome.markdown = std::move(md);
  return outcome;
}

}  // namespace llmperf

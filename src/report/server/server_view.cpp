// The server's own view in the reports: summary.json's "server" object and the text summary's
// "Server" block (the HTML timeline is html/run_charts.cpp's). What it holds is described in
// metrics/server_metrics.h; how it is gathered in engine/server_watch.h.
#include <fmt/format.h>

#include <cmath>

#include "metrics/catalogue.h"
#include "report/internal.h"

namespace llmperf {
namespace report_detail {
namespace {

// The quantile points reported for server histograms.
constexpr double kServerQuantiles[] = {0.5, 0.9, 0.99};

Json bound_json(double bound) {
  return std::isinf(bound) ? Json("+Inf") : number_or_null(bound);
}

Json histogram_json(const std::optional<HistogramWindow>& h) {
  if (!h) return nullptr;
  Json quantiles = Json::object();
  for (const double q : kServerQuantiles) {
    const auto value = h->quantile(q);
    const std::string key = fmt::format("p{}", percentile_label(q * 100));
    if (!value) {
      quantiles[key] = nullptr;
      continue;
    }
    quantiles[key] = Json{{"value_s", number_or_null(value->value)},
                          {"bucket_s", Json::array({bound_json(value->lower),
                                                    bound_json(value->upper)})}};
  }
  Json bounds = Json::array();
  for (const double b : h->bounds) bounds.push_back(bound_json(b));
  return Json{
      {"metric", h->metric},
      {"count", number_or_null(h->count)},
      {"mean_s", h->count > 0 ? number_or_null(h->sum / h->count) : Json(nullptr)},
      {"quantiles", quantiles},
      {"bucket_bounds_s", bounds},
      {"resolution",
       "estimated from the server's bucket counts by linear interpolation within a bucket "
       "(Prometheus' histogram_quantile): each value is only known to lie in its bucket_s"},
  };
}

Json gauge_json(const GaugeStats& g) {
  if (!g.reported) return nullptr;
  if (!g.complete()) {
    return Json{{"mean", nullptr},
                {"max", nullptr},
                {"scrapes", g.samples},
                {"incomplete", server_gauge_gap(g)}};
  }
  return Json{{"mean", number_or_null(g.mean)}, {"max", number_or_null(g.max)},
              {"scrapes", g.samples}};
}

Json check_json(const Reconciled& r) {
  if (!r.available) return nullptr;
  return Json{{"client", number_or_null(r.client)},
              {"server", number_or_null(r.server)},
              {"difference", number_or_null(r.difference)},
              {"relative", number_or_null(r.relative)},
              {"matches", r.matches},
              {"server_is_lower_bound", r.lower_bound}};
}

Json identity_json(const ServerIdentity& id) {
  Json details = Json::object();
  for (const auto& [key, value] : id.details) details[key] = value;
  return Json{{"engine", id.engine.empty() ? Json(nullptr) : Json(id.engine)},
              {"version", id.version.empty() ? Json(nullptr) : Json(id.version)},
              {"server_header", id.server_header.empty() ? Json(nullptr) : Json(id.server_header)},
              {"models", id.models},
              {"max_model_len", id.max_model_len > 0 ? Json(id.max_model_len) : Json(nullptr)},
              {"details", details},
              {"answered", id.answered}};
}

}  // namespace

std::string server_gauge_gap(const GaugeStats& g) {
  if (!g.reported || g.complete()) return "";
  return fmt::format(
      "{} scrape{} during the run: too few for its mean and maximum (the run was shorter than "
      "two scraping intervals; see --metrics-interval)",
      g.samples, g.samples == 1 ? "" : "s");
}

std::string server_gauges_gap(const ServerSummary& s) {
  for (const GaugeStats* g : {&s.running, &s.waiting, &s.kv_usage}) {
    if (std::string gap = server_gauge_gap(*g); !gap.empty()) return gap;
  }
  return "";
}

std::string server_gauge_cell(const GaugeStats& g, double GaugeStats::*value, double scale) {
  if (!g.reported) return "-";
  if (!g.complete()) return fmt::format("n/a ({} scrape{})", g.samples, g.samples == 1 ? "" : "s");
  return format_number(g.*value * scale);
}

QuantileCells server_quantile_cells(const std::optional<HistogramWindow>& h, double q) {
  const auto quantile = h ? h->quantile(q) : std::nullopt;
  if (!quantile) return {"-", "-"};
  return {format_number(quantile->value * 1000),
          fmt::format("{}-{}", format_number(quantile->lower * 1000),
                      std::isinf(quantile->upper) ? std::string("inf")
                                                  : format_number(quantile->upper * 1000))};
}

Json server_json(const RunInfo& info, const RunSummary& summary) {
  const ServerSummary& s = summary.server;
  Json metrics = nullptr;
  if (!s.url.empty()) {
    Json prefix_hit_rate = nullptr;
    if (s.prefix_hits && s.prefix_queries && *s.prefix_queries > 0) {
      prefix_hit_rate = number_or_null(*s.prefix_hits / *s.prefix_queries);
    }
    metrics = Json{
        {"available", s.available},
        {"unavailable_reason",
         s.unavailable_reason.empty() ? Json(nullptr) : Json(s.unavailable_reason)},
        {"url", s.url},
        {"engine_names", s.engine.empty() ? Json(nullptr) : Json(s.engine)},
        {"interval_s", number_or_null(s.interval_s)},
        {"scrapes", s.scrapes},
        {"failed_scrapes", s.failed_scrapes},
        {"slow_scrapes", s.slow_scrapes},
        {"slowest_scrape_ms", number_or_null(s.scrape_ms_max)},
        {"window",
         "counters and histograms: from the scrape before the run (warm-up included) "
         "to the scrape after it; gauges: the scrapes during it"},
        {"counters",
         {{"requests", number_or_null(s.requests)},
          {"prompt_tokens", number_or_null(s.prompt_tokens)},
          {"generation_tokens", number_or_null(s.generation_tokens)},
          {"preemptions", number_or_null(s.preemptions)},
          {"prefix_cache_hits", number_or_null(s.prefix_hits)},
          {"prefix_cache_queries", number_or_null(s.prefix_queries)},
          {"prefix_cache_hit_rate", prefix_hit_rate}}},
        {"gauges",
         {{"running", gauge_json(s.running)},
          {"waiting", gauge_json(s.waiting)},
          {"kv_cache_usage", gauge_json(s.kv_usage)}}},
        {"histograms",
         {{metric_info(Metric::kTtft).name, histogram_json(s.ttft)},
          {metric_info(Metric::kItl).name, histogram_json(s.itl)},
          {"e2e", histogram_json(s.e2e)},
          {"queue", histogram_json(s.queue)}}},
        {"reconciliation",
         {{"tolerance", s.tolerance},
          {"requests", check_json(s.requests_check)},
          {"prompt_tokens", check_json(s.prompt_check)},
          {"generation_tokens", check_json(s.generation_check)},
          {"token_mismatch", number_or_null(s.token_mismatch())},
          {"request_mismatch", number_or_null(s.request_mismatch())}}},
        {"warnings", s.warnings},
        {"notes", s.notes},
    };
  } else if (!s.unavailable_reason.empty()) {
    metrics = Json{{"available", false}, {"unavailable_reason", s.unavailable_reason}};
  }
  return Json{
      {"identity", identity_json(info.server)},
      {"metrics", metrics},
      {"profiled", s.profiled},
      {"profile_note", s.profile_note.empty() ? Json(nullptr) : Json(s.profile_note)},
  };
}

}  // namespace report_detail

using report_detail::format_number;
using report_detail::render_table;

namespace {

// A count as a whole number, other values with about 4 significant digits.
std::string server_count_text(double value) {
  return std::fabs(value - std::round(value)) < 1e-9 ? fmt::format("{:.0f}", value)
                                                      : format_number(value);
}

}  // namespace

std::string render_server_text(const RunInfo& info, const RunSummary& summary) {
  const ServerSummary& s = summary.server;
  const ServerIdentity& id = info.server;
  std::string out;
  if (s.url.empty() && !s.profiled) return out;  // not asked (--no-server-metrics)
  out += "\nServer";
  if (!id.name().empty()) out += fmt::format(": {}", id.name());
  if (!s.url.empty()) out += fmt::format(" (/metrics {}, every {:g} s)", s.url, s.interval_s);
  out += "\n";
  if (s.profiled) {
    out += "  PROFILED: the server's profiler ran during this run, which slows it down\n";
  }
  if (!s.available || s.engine.empty()) {
    if (!s.unavailable_reason.empty()) out += fmt::format("  not read: {}\n", s.unavailable_reason);
    for (const std::string& w : s.warnings) out += fmt::format("  WARNING: {}\n", w);
    return out;
  }
  std::vector<std::vector<std::string>> rows;
  const auto check_row = [&](const char* what, const Reconciled& r) {
    if (!r.available) return;
    std::string verdict = r.matches ? "ok" : "MISMATCH";
    if (r.lower_bound) verdict += " (server counts uncached only)";
    rows.push_back({what, server_count_text(r.client), server_count_text(r.server),
                    fmt::format("{:+.0f}", r.difference),
                    fmt::format("{:+.2f}%", 100.0 * r.difference / std::max(1.0, r.client)),
                    verdict});
  };
  check_row("Requests", s.requests_check);
  check_row("Prompt tokens", s.prompt_check);
  check_row("Generated tokens", s.generation_check);
  if (!rows.empty()) {
    out += render_table({"Totals over the run", "llmperf", "server", "diff", "diff %", "check"},
                        rows, {5});
  }
  std::vector<std::vector<std::string>> state;
  const auto gauge_row = [&](const char* what, const GaugeStats& g, double scale) {
    if (!g.reported) return;
    state.push_back({what, report_detail::server_gauge_cell(g, &GaugeStats::mean, scale),
                     report_detail::server_gauge_cell(g, &GaugeStats::max, scale)});
  };
  gauge_row("Requests running", s.running, 1);
  gauge_row("Requests waiting", s.waiting, 1);
  gauge_row("KV-cache usage (%)", s.kv_usage, 100);
  if (!state.empty()) {
    out += "\n" + render_table({"During the run", "mean", "max"}, state);
    const std::string gap = report_detail::server_gauges_gap(s);
    if (!gap.empty()) out += fmt::format("  note: {}\n", gap);
  }
  std::vector<std::string> counters;
  if (s.preemptions) counters.push_back(fmt::format("preemptions {}", server_count_text(*s.preemptions)));
  if (s.prefix_hits && s.prefix_queries && *s.prefix_queries > 0) {
    counters.push_back(fmt::format("prefix-cache hit rate {:.1f}% ({} of {} tokens)",
                                   100 * *s.prefix_hits / *s.prefix_queries,
                                   server_count_text(*s.prefix_hits), server_count_text(*s.prefix_queries)));
  }
  if (!counters.empty()) out += "  " + fmt::format("{}", fmt::join(counters, ", ")) + "\n";
  std::vector<std::vector<std::string>> hist;
  const auto hist_row = [&](const char* what, const std::optional<HistogramWindow>& h) {
    if (!h || !(h->count > 0)) return;
    std::vector<std::string> row{what, server_count_text(h->count)};
    for (const double q : report_detail::kServerQuantiles) {
      row.push_back(report_detail::server_quantile_cells(h, q).value_ms);
    }
    row.push_back(report_detail::server_quantile_cells(h, 0.5).bucket_ms);
    hist.push_back(std::move(row));
  };
  hist_row("TTFT", s.ttft);
  hist_row("ITL", s.itl);
  hist_row("E2E latency", s.e2e);
  hist_row("Queue time", s.queue);
  if (!hist.empty()) {
    out += "\n" + render_table({"Server histograms (ms)", "count", "P50", "P90", "P99",
                                "P50 bucket"},
                               hist);
    out += "  (from the server's buckets: each value is only known within its bucket)\n";
  }
  for (const std::string& n : s.notes) out += fmt::format("  note: {}\n", n);
  for (const std::string& w : s.warnings) out += fmt::format("  WARNING: {}\n", w);
  return out;
}

}  // namespace llmperf

// The HTTP phases of a run in summary.json, the text summary and report.html (see
// http_phases_view.h). Phases leave here in milliseconds.
#include "report/http_phases_view.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "report/html/svg_chart.h"
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

struct PhaseField {
  const char* name;                    // short name: "dns", "connect", ...
  const char* label;                   // table and legend label
  Distribution HttpPhaseStats::*dist;  // its distribution
};
constexpr std::array<PhaseField, 6> kPhaseFields = {{
    {"dns", "DNS lookup", &HttpPhaseStats::dns_ns},
    {"connect", "TCP connect", &HttpPhaseStats::connect_ns},
    {"tls", "TLS handshake", &HttpPhaseStats::tls_ns},
    {"send", "Request sent", &HttpPhaseStats::send_ns},
    {"wait", "Wait (to first byte)", &HttpPhaseStats::wait_ns},
    {"receive", "Receive", &HttpPhaseStats::receive_ns},
}};

Json phase_stats_json(const HttpPhaseStats& s, const std::vector<double>& p) {
  Json out = {{"requests", s.requests}};
  for (const PhaseField& f : kPhaseFields) {
    out[fmt::format("{}_ms", f.name)] = distribution_json(s.*f.dist, p, kNsPerMs);
  }
  out["total_ms"] = distribution_json(s.total_ns, p, kNsPerMs);
  return out;
}

// Milliseconds in few characters: "0", "0.02345", "32.5", "1234".
std::string compact_ms(double ms) {
  if (ms == 0) return "0";
  return ms >= 1000 ? fmt::format("{:.0f}", ms) : fmt::format("{:.4g}", ms);
}

// "0.02/0.11/0/0.03/10.2/401.5": the phase means of one kind of connection ("-" when none).
std::string phase_means(const HttpPhaseStats& s) {
  if (s.requests == 0) return "-";
  std::string out;
  for (const PhaseField& f : kPhaseFields) {
    if (!out.empty()) out += '/';
    out += compact_ms((s.*f.dist).mean / kNsPerMs);
  }
  return out;
}

std::string num(double value) { return fmt::format("{:.1f}", value); }

}  // namespace

Json http_json(const RunSummary& summary) {
  const HttpPhaseSummary& h = summary.http;
  if (!h.any()) return nullptr;
  Json protocols = Json::object();
  for (const auto& [name, count] : h.protocols) protocols[name] = count;
  return Json{{"connections", {{"new", h.new_connections}, {"reused", h.reused_connections}}},
              {"protocols", protocols},
              {"phases_new_connection", phase_stats_json(h.fresh, summary.percentiles)},
              {"phases_reused_connection", phase_stats_json(h.reused, summary.percentiles)}};
}

std::string http_phases_line(const RunSummary& summary) {
  const HttpPhaseSummary& h = summary.http;
  if (!h.any()) return "";
  std::string out = "HTTP phases (mean ms, dns/connect/tls/send/wait/receive):";
  out += fmt::format(" new connection {}: {}", h.fresh.requests, phase_means(h.fresh));
  out += fmt::format(" · reused {}: {}", h.reused.requests, phase_means(h.reused));
  for (const auto& [name, count] : h.protocols) out += fmt::format(" · {} {}", name, count);
  return out + "\n";
}

std::string http_phases_table(const RunSummary& summary) {
  const HttpPhaseSummary& h = summary.http;
  if (!h.any()) return "";
  const auto p50 = percentile_index(summary.percentiles, 50);
  const auto p99 = percentile_index(summary.percentiles, 99);
  std::vector<std::string> headers = {"Phase (ms)", "New: mean"};
  if (p50) headers.push_back("P50");
  if (p99) headers.push_back("P99");
  headers.push_back("Reused: mean");
  if (p50) headers.push_back("P50");
  if (p99) headers.push_back("P99");
  auto cells = [&](const Distribution& d, std::vector<std::string>& row) {
    row.push_back(format_number(mean_in(d, kNsPerMs)));
    if (p50) row.push_back(format_number(percentile_in(d, *p50, kNsPerMs)));
    if (p99) row.push_back(format_number(percentile_in(d, *p99, kNsPerMs)));
  };
  std::vector<std::vector<std::string>> rows;
  for (const PhaseField& f : kPhaseFields) {
    std::vector<std::string> row = {f.label};
    cells(h.fresh.*f.dist, row);
    cells(h.reused.*f.dist, row);
    rows.push_back(std::move(row));
  }
  std::vector<std::string> total = {"Total"};
  cells(h.fresh.total_ns, total);
  cells(h.reused.total_ns, total);
  rows.push_back(std::move(total));
  return fmt::format("Successful requests: {} on a new connection, {} on a reused one\n",
                     h.fresh.requests, h.reused.requests) +
         render_table(headers, rows);
}

std::string http_phases_svg(const RunSummary& summary) {
  const HttpPhaseSummary& h = summary.http;
  if (!h.any()) return "";
  constexpr double kWidth = 560, kLeft = 120, kRight = 540, kBarTop = 40, kBarHeight = 34,
                   kBarGap = 18;
  const std::array<std::pair<std::string, const HttpPhaseStats*>, 2> bars = {
      {{fmt::format("new ({})", h.fresh.requests), &h.fresh},
       {fmt::format("reused ({})", h.reused.requests), &h.reused}}};
  double longest = 0;
  for (const auto& [label, stats] : bars) longest = std::max(longest, stats->total_ns.mean);
  const svg::Ticks ticks = svg::nice_ticks(0, std::max(longest / kNsPerMs, 1e-3));
  const svg::LinearScale x(ticks.lo, ticks.hi, kLeft, kRight);
  const double axis_y = kBarTop + 2 * kBarHeight + kBarGap + 8;
  const double height = axis_y + 70;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" class=\"chart\" "
      "role=\"img\"><title>HTTP phases, mean per request</title>"
      "<text x=\"{}\" y=\"18\" class=\"ct\">HTTP phases, mean per request</text>",
      kWidth, num(height), kLeft);
  for (double v : ticks.values) {
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"gr\"/>"
        "<text x=\"{0}\" y=\"{3}\" class=\"tk\" text-anchor=\"middle\">{4}</text>",
        num(x(v)), num(kBarTop - 6), num(axis_y), num(axis_y + 14),
        svg::tick_label(v, ticks.values.size() > 1 ? ticks.values[1] - ticks.values[0] : 0));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"al\" text-anchor=\"middle\">ms</text>",
                     num((kLeft + kRight) / 2), num(axis_y + 30));
  for (size_t b = 0; b < bars.size(); ++b) {
    const auto& [label, stats] = bars[b];
    const double top = kBarTop + static_cast<double>(b) * (kBarHeight + kBarGap);
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tk\" text-anchor=\"end\">{}</text>",
                       num(kLeft - 8), num(top + kBarHeight / 2 + 4), xml_escape(label));
    double at = 0;
    for (size_t i = 0; i < kPhaseFields.size(); ++i) {
      const Distribution& d = stats->*kPhaseFields[i].dist;
      const double ms = d.empty() ? 0 : d.mean / kNsPerMs;
      if (ms <= 0) continue;
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} ms"
          "</title></rect>",
          num(x(at)), num(top), fmt::format("{:.2f}", x(at + ms) - x(at)), num(kBarHeight),
          svg::series_color(i), xml_escape(kPhaseFields[i].label), compact_ms(ms));
      at += ms;
    }
  }
  double legend_x = 10;
  for (size_t i = 0; i < kPhaseFields.size(); ++i) {
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"lg\">{}</text>",
        num(legend_x), num(height - 18), svg::series_color(i), num(legend_x + 16), num(height - 9),
        kPhaseFields[i].name);
    legend_x += 16 + 7.0 * static_cast<double>(std::string_view(kPhaseFields[i].name).size()) + 18;
  }
  return out + "</svg>";
}

}  // namespace llmperf::report_detail

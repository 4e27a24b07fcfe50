// `llmperf report` for the server's side of a run: its summary rebuilt from server_metrics.jsonl
// (each line's series written back as Prometheus text and parsed again) and the identity read back
// from the old summary.json, so that a rebuild loses nothing the run saw.
#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/prometheus.h"
#include "protocol/server_identity_api.h"
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

using identity_api::text_of;
using nlohmann::json;

// A line's "series" object as samples: `name{labels} value` lines parsed again.
std::vector<MetricSample> samples_of(const json& series) {
  if (!series.is_object()) return {};
  std::string text;
  for (const auto& [key, value] : series.items()) {
    text += key;
    text += ' ';
    text += value.is_string() ? value.get<std::string>() : value.dump();
    text += '\n';
  }
  return parse_prometheus(text).samples;
}

}  // namespace

ServerIdentity identity_from_json(const json& server) {
  ServerIdentity id;
  if (!server.is_object()) return id;
  const json identity = server.value("identity", json::object());
  if (!identity.is_object()) return id;
  id.engine = text_of(identity, "engine");
  id.version = text_of(identity, "version");
  id.server_header = text_of(identity, "server_header");
  if (const auto len = json_integer<int64_t>(identity.value("max_model_len", json()))) {
    id.max_model_len = *len;
  }
  for (const json& model : identity.value("models", json::array())) {
    if (model.is_string()) id.models.push_back(model.get<std::string>());
  }
  for (const json& endpoint : identity.value("answered", json::array())) {
    if (endpoint.is_string()) id.answered.push_back(endpoint.get<std::string>());
  }
  const json details = identity.value("details", json::object());
  if (details.is_object()) {
    for (const auto& [key, value] : details.items()) {
      if (value.is_string()) id.details.emplace_back(key, value.get<std::string>());
    }
  }
  return id;
}

ServerSummary server_summary_from_files(const std::string& jsonl_path, const json& old_server,
                                        const ClientTotals& client, double interval_s) {
  ServerSummary summary;
  const json old_metrics = old_server.is_object() ? old_server.value("metrics", json()) : json();
  if (old_server.is_object()) {
    summary.profiled = old_server.value("profiled", false);
    summary.profile_note = text_of(old_server, "profile_note");
  }
  std::ifstream in(jsonl_path, std::ios::binary);
  if (!in) {
    // Not scraped: keep the reason the run gave.
    if (old_metrics.is_object()) {
      summary.unavailable_reason = text_of(old_metrics, "unavailable_reason");
      summary.url = text_of(old_metrics, "url");
    }
    return summary;
  }
  summary.url = old_metrics.is_object() ? text_of(old_metrics, "url") : "";
  std::vector<MetricSample> before, after;
  std::vector<json> lines;
  std::string line;
  while (std::getline(in, line)) {
    json j = json::parse(line, nullptr, false);
    if (j.is_object()) lines.push_back(std::move(j));
  }
  std::string engine;
  for (const json& j : lines) {
    if (j.value("ok", false) && engine.empty()) {
      engine = detect_engine(samples_of(j.value("series", json())));
    }
  }
  ScrapeTally tally(interval_s);
  bool before_ok = false, after_ok = false;
  for (const json& j : lines) {
    const double ms = j.value("duration_ms", 0.0);
    if (!j.value("ok", false)) {
      tally.add(ms, std::nullopt, text_of(j, "error"));
      continue;
    }
    std::vector<MetricSample> samples = samples_of(j.value("series", json()));
    const int64_t t_ns = json_integer<int64_t>(j.value("t_ns", json())).value_or(0);
    tally.add(ms, reduce_scrape(engine, samples, t_ns), "");
    const std::string phase = text_of(j, "phase");
    if (phase == "before") {
      before = std::move(samples);
      before_ok = true;
    } else if (phase == "after") {
      after = std::move(samples);
      after_ok = true;
    }
  }
  ServerSummary rebuilt = tally.summarize(engine, before, after, client);
  rebuilt.url = summary.url;
  rebuilt.profiled = summary.profiled;
  rebuilt.profile_note = summary.profile_note;
  if (!before_ok) {
    rebuilt.unavailable_reason = "the scrape before the run failed";
  } else if (!after_ok) {
    rebuilt.unavailable_reason = "the scrape after the run failed";
  }
  if (rebuilt.failed_scrapes > 0) {
    rebuilt.warnings.push_back(
        fmt::format("{} of {} scrapes failed", rebuilt.failed_scrapes, rebuilt.scrapes));
  }
  return rebuilt;
}

}  // namespace llmperf::report_detail

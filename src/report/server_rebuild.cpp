// `llmperf report` for the server's side of a run: its summary rebuilt from server_metrics.jsonl
// (each line's series written back as Prometheus text and parsed again) and the identity read back
// from the old summary.json, so that a rebuild loses nothing the run saw.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/prometheus.h"
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

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

std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
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
  std::vector<ServerPoint> timeline;
  int64_t scrapes = 0, failed = 0, slow = 0;
  double slowest = 0;
  bool before_ok = false, after_ok = false;
  for (const json& j : lines) {
    ++scrapes;
    const std::string phase = text_of(j, "phase");
    const double ms = j.value("duration_ms", 0.0);
    slowest = std::max(slowest, ms);
    if (ms > interval_s * 1000) ++slow;
    if (!j.value("ok", false)) {
      ++failed;
      continue;
    }
    std::vector<MetricSample> samples = samples_of(j.value("series", json()));
    const int64_t t_ns = json_integer<int64_t>(j.value("t_ns", json())).value_or(0);
    timeline.push_back(reduce_scrape(engine, samples, t_ns));
    if (phase == "before") {
      before = std::move(samples);
      before_ok = true;
    } else if (phase == "after") {
      after = std::move(samples);
      after_ok = true;
    }
  }
  const std::string url = summary.url;
  const bool profiled = summary.profiled;
  const std::string note = summary.profile_note;
  summary = summarize_server(engine, before, after, std::move(timeline), client);
  summary.url = url;
  summary.profiled = profiled;
  summary.profile_note = note;
  summary.interval_s = interval_s;
  summary.scrapes = scrapes;
  summary.failed_scrapes = failed;
  summary.slow_scrapes = slow;
  summary.scrape_ms_max = slowest;
  if (!before_ok) {
    summary.unavailable_reason = "the scrape before the run failed";
  } else if (!after_ok) {
    summary.unavailable_reason = "the scrape after the run failed";
  }
  if (failed > 0) {
    summary.warnings.push_back(fmt::format("{} of {} scrapes failed", failed, scrapes));
  }
  return summary;
}

}  // namespace llmperf::report_detail

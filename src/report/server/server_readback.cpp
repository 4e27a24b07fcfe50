// `llmperf report` for the server's side of a run: server_metrics.jsonl read back (each line's
// series written back as Prometheus text and parsed again) for metrics/recorded_scrapes.h to
// summarise, and what only the old summary.json knows (identity, URL, profiling) read from it, so
// that a rebuild loses nothing the run saw.
#include "report/server/server_readback.h"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/prometheus.h"
#include "protocol/server_identity_api.h"
#include "report/internal.h"

namespace llmperf {
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

std::optional<std::vector<RecordedScrape>> read_recorded_scrapes(const std::string& jsonl_path) {
  std::ifstream in(jsonl_path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<RecordedScrape> scrapes;
  std::string line;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    RecordedScrape scrape;
    scrape.phase = text_of(j, "phase");
    scrape.ok = j.value("ok", false);
    scrape.duration_ms = j.value("duration_ms", 0.0);
    if (scrape.ok) {
      scrape.samples = samples_of(j.value("series", json()));
      scrape.t_ns = json_integer<int64_t>(j.value("t_ns", json())).value_or(0);
    } else {
      scrape.error = text_of(j, "error");
    }
    scrapes.push_back(std::move(scrape));
  }
  return scrapes;
}

void restore_server_context(ServerSummary& summary, const json& old_server, bool scraped) {
  if (!old_server.is_object()) return;
  summary.profiled = old_server.value("profiled", false);
  summary.profile_note = text_of(old_server, "profile_note");
  const json old_metrics = old_server.value("metrics", json());
  if (!old_metrics.is_object()) return;
  summary.url = text_of(old_metrics, "url");
  // Not scraped: keep the reason the run gave.
  if (!scraped) summary.unavailable_reason = text_of(old_metrics, "unavailable_reason");
}

}  // namespace llmperf

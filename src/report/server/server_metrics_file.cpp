// Writing server_metrics.jsonl (see server_metrics_file.h).
#include "report/server/server_metrics_file.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace llmperf {
namespace {

nlohmann::ordered_json scrape_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return value;
}

// "name{a=\"x\",b=\"y\"}" as Prometheus writes it (quotes, backslashes and newlines escaped).
std::string series_key(const MetricSample& sample) {
  std::string key = sample.name;
  if (sample.labels.empty()) return key;
  key += '{';
  bool first = true;
  for (const auto& [name, value] : sample.labels) {
    if (!first) key += ',';
    first = false;
    key += name;
    key += "=\"";
    for (const char c : value) {
      if (c == '\\' || c == '"') {
        key += '\\';
        key += c;
      } else if (c == '\n') {
        key += "\\n";
      } else {
        key += c;
      }
    }
    key += '"';
  }
  key += '}';
  return key;
}

void put(nlohmann::ordered_json& object, const char* key, const std::optional<double>& value) {
  if (value) object[key] = scrape_value(*value);
}

}  // namespace

std::string render_scrape_line(const ScrapeLine& scrape, int64_t anchor_ns) {
  nlohmann::ordered_json line = nlohmann::ordered_json::object();
  line["phase"] = scrape.phase;
  line["t_ns"] = scrape.t_ns - anchor_ns;
  line["t_unix_ns"] = scrape.t_unix_ns;
  line["duration_ms"] = static_cast<double>(scrape.duration_ns) / 1e6;
  line["ok"] = scrape.ok;
  if (!scrape.ok) line["error"] = scrape.error;
  if (scrape.point != nullptr) {
    const ServerPoint& p = *scrape.point;
    nlohmann::ordered_json common = nlohmann::ordered_json::object();
    put(common, "running", p.running);
    put(common, "waiting", p.waiting);
    put(common, "kv_usage", p.kv_usage);
    put(common, "prompt_tokens", p.prompt_tokens);
    put(common, "generation_tokens", p.generation_tokens);
    put(common, "requests", p.requests);
    put(common, "preemptions", p.preemptions);
    put(common, "prefix_hits", p.prefix_hits);
    put(common, "prefix_queries", p.prefix_queries);
    line["common"] = std::move(common);
  }
  if (scrape.samples != nullptr) {
    nlohmann::ordered_json series = nlohmann::ordered_json::object();
    for (const MetricSample& sample : *scrape.samples) {
      series[series_key(sample)] = scrape_value(sample.value);
    }
    line["series"] = std::move(series);
  }
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ServerMetricsFile::ServerMetricsFile(const std::string& path, int64_t anchor_ns)
    : path_(path), anchor_ns_(anchor_ns) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(fmt::format("cannot write {}", path));
}

ServerMetricsFile::~ServerMetricsFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void ServerMetricsFile::append(const ScrapeLine& scrape) {
  std::string line = render_scrape_line(scrape, anchor_ns_);
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    ok_ = false;
  }
}

}  // namespace llmperf

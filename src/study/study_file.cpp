// study.json (study_file.h): its writer, its reader and the reader of a study's directory. The
// file is written through a temporary file and a rename, so a crash never leaves half of it.
#include "study/study_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(fmt::format("study.json: {}", what));
}

// The value of `key` in `json` as T, or `fallback` when absent or null; throws naming the key when
// its type is wrong.
template <typename T>
T field(const nlohmann::json& json, const char* key, T fallback) {
  const auto it = json.find(key);
  if (it == json.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    fail(fmt::format("\"{}\" has the wrong type", key));
  }
}

std::vector<HalvingRung> rungs_from_json(const nlohmann::json& json) {
  std::vector<HalvingRung> rungs;
  const auto it = json.find("rungs");
  if (it == json.end() || it->is_null()) return rungs;
  if (!it->is_array()) fail("\"rungs\" must be an array");
  for (const nlohmann::json& rung : *it) {
    if (!rung.is_object()) fail("\"rungs\" must hold objects");
    const auto configs = field<int64_t>(rung, "configs", 0);
    const auto requests = field<int64_t>(rung, "requests", 0);
    const auto promoted = field<int64_t>(rung, "promoted", 0);
    if (configs < 0 || requests < 0 || promoted < 0) fail("a rung's counts must not be negative");
    rungs.push_back(
        HalvingRung{static_cast<size_t>(configs), requests, static_cast<size_t>(promoted)});
  }
  return rungs;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error(
        fmt::format("{}: cannot read it: {}", path.string(), std::strerror(errno)));
  }
  std::ostringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) throw std::runtime_error(fmt::format("{}: cannot read it", path.string()));
  return buffer.str();
}

}  // namespace

SearchObjective search_objective(std::string_view search) {
  return {fmt::format("search.{}", search), search == "rate" ? "req/s" : "concurrency"};
}

bool is_search_objective(std::string_view objective) { return objective.rfind("search.", 0) == 0; }

nlohmann::ordered_json study_info_to_json(const StudyInfo& info) {
  nlohmann::ordered_json json;
  json["schema"] = kStudySchema;
  json["version"] = info.version;
  json["started"] = info.started;
  json["objective"] = {{"name", info.objective}, {"unit", info.unit}, {"maximize", info.maximize}};
  if (!info.objectives.empty()) {  // several: each (one objective writes what it did before)
    nlohmann::ordered_json objectives = nlohmann::ordered_json::array();
    for (const StudyObjective& objective : info.objectives) {
      objectives.push_back(
          {{"name", objective.name}, {"unit", objective.unit}, {"maximize", objective.maximize}});
    }
    json["objectives"] = std::move(objectives);
  }
  json["strategy"] = info.strategy;
  json["seed"] = info.seed;
  if (!info.rungs.empty()) {
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const HalvingRung& rung : info.rungs) {
      rungs.push_back(
          {{"configs", rung.configs}, {"requests", rung.requests}, {"promoted", rung.promoted}});
    }
    json["rungs"] = std::move(rungs);
  }
  // StudySpec's object keeps its own (sorted) order.
  json["spec"] = nlohmann::ordered_json::parse(to_json(info.spec).dump());
  return json;
}

StudyInfo study_info_from_json(const nlohmann::json& json) {
  if (!json.is_object()) fail("not a JSON object");
  const std::string schema = field<std::string>(json, "schema", "");
  if (schema.empty()) fail(fmt::format("no \"schema\" (expected \"{}\")", kStudySchema));
  if (schema != kStudySchema) {
    fail(fmt::format("schema \"{}\" is not \"{}\": written by another llmperf version?", schema,
                     kStudySchema));
  }
  StudyInfo info;
  info.version = field<std::string>(json, "version", "");
  info.started = field<std::string>(json, "started", "");
  if (const auto objective = json.find("objective"); objective != json.end()) {
    if (!objective->is_object()) fail("\"objective\" must be an object");
    info.objective = field<std::string>(*objective, "name", "");
    info.unit = field<std::string>(*objective, "unit", "");
    info.maximize = field<bool>(*objective, "maximize", true);
  }
  if (const auto objectives = json.find("objectives"); objectives != json.end()) {
    if (!objectives->is_array()) fail("\"objectives\" must be an array");
    for (const nlohmann::json& objective : *objectives) {
      if (!objective.is_object()) fail("\"objectives\" must hold objects");
      info.objectives.push_back({field<std::string>(objective, "name", ""),
                                 field<std::string>(objective, "unit", ""),
                                 field<bool>(objective, "maximize", true)});
    }
  }
  info.strategy = field<std::string>(json, "strategy", "");
  info.seed = field<uint64_t>(json, "seed", 0);
  info.rungs = rungs_from_json(json);
  const auto spec = json.find("spec");
  if (spec == json.end()) fail("\"spec\" is missing");
  info.spec = study_spec_from_json(*spec);
  if (info.objective.empty()) {  // none resolved: the spec's, with its direction if it says one
    const std::string& asked = info.spec.objective;
    const size_t colon = asked.rfind(':');
    info.objective = asked.substr(0, colon);
    if (colon != std::string::npos) info.maximize = asked.substr(colon + 1) != "min";
  }
  return info;
}

void write_study_file(const std::string& dir, const StudyInfo& info) {
  const fs::path path = fs::path(dir) / kStudyFileName;
  const fs::path tmp = fs::path(dir) / (std::string(kStudyFileName) + ".tmp");
  const std::string text = study_info_to_json(info).dump(
                               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                           "\n";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw std::runtime_error(
          fmt::format("{}: cannot write it: {}", path.string(), std::strerror(errno)));
    }
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write it", path.string()));
  }
  std::error_code error;
  fs::rename(tmp, path, error);
  if (error) {
    fs::remove(tmp, error);
    throw std::runtime_error(
        fmt::format("{}: cannot write it: {}", path.string(), error.message()));
  }
}

bool is_study_dir(const std::string& dir) {
  std::error_code error;
  return fs::is_regular_file(fs::path(dir) / kStudyFileName, error) &&
         fs::is_regular_file(fs::path(dir) / kLedgerFileName, error);
}

StudyInfo read_study_info(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    throw std::runtime_error(fmt::format("{} is not a directory", dir));
  }
  const fs::path info_path = fs::path(dir) / kStudyFileName;
  if (!fs::exists(info_path, error)) {
    throw std::runtime_error(fmt::format(
        "{} is not a study directory: it has no {} (llmperf tune writes study.json and "
        "study.jsonl)",
        dir, kStudyFileName));
  }
  const std::string text = read_file(info_path);
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& parse) {
    throw std::runtime_error(fmt::format("{}: not JSON ({})", info_path.string(), parse.what()));
  }
  try {
    return study_info_from_json(json);
  } catch (const std::invalid_argument& invalid) {
    // "study.json: what" -> "DIR/study.json: what"
    std::string what = invalid.what();
    const std::string prefix = std::string(kStudyFileName) + ": ";
    if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
    throw std::runtime_error(fmt::format("{}: {}", info_path.string(), what));
  }
}

StudyDir read_study_dir(const std::string& dir) {
  const fs::path ledger_path = fs::path(dir) / kLedgerFileName;
  std::error_code error;
  if (fs::is_directory(dir, error) && fs::exists(fs::path(dir) / kStudyFileName, error) &&
      !fs::exists(ledger_path, error)) {
    throw std::runtime_error(fmt::format(
        "{} is not a study directory: it has no {} (llmperf tune writes study.json and "
        "study.jsonl)",
        dir, kLedgerFileName));
  }
  StudyDir out;
  out.info = read_study_info(dir);
  out.ledger = read_ledger(ledger_path.string());
  return out;
}

}  // namespace llmperf

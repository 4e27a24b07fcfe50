// The shared study's bridge messages (shared_study.h).
#include "study/shared_study.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using SharedJson = nlohmann::ordered_json;  // a record's params keep their --param order

SharedJson parse_shared_line(std::string_view line, std::string_view what) {
  SharedJson answer;
  try {
    answer = SharedJson::parse(line);
  } catch (const SharedJson::exception& error) {
    throw std::invalid_argument(fmt::format("the Optuna bridge's answer to {} is not JSON ({}): {}",
                                            what, error.what(), line.substr(0, 200)));
  }
  if (!answer.is_object()) {
    throw std::invalid_argument(fmt::format("the Optuna bridge's answer to {} is not an object: {}",
                                            what, line.substr(0, 200)));
  }
  if (const auto error = answer.find("error"); error != answer.end() && error->is_string()) {
    throw std::invalid_argument("the Optuna bridge: " + error->get<std::string>());
  }
  return answer;
}

int64_t shared_count(const SharedJson& answer, const char* key) {
  const auto it = answer.find(key);
  return it != answer.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// "HOST:DIR/PATH" for a path relative to the worker's study directory.
std::string on_worker(const std::string& host, const std::string& dir, const std::string& path) {
  if (path.empty()) return path;
  const std::string where = dir.empty() ? path : dir + "/" + path;
  return host.empty() ? where : host + ":" + where;
}

}  // namespace

uint64_t shared_worker_seed(uint64_t seed, const SharedWorker& worker) {
  // FNV-1a over the worker's name, mixed into the seed.
  uint64_t hash = 1469598103934665603u;
  for (const char c : worker.host + "\n" + worker.dir) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211u;
  }
  return (seed ^ hash) % 4294967296u;  // Optuna's seeds are 32-bit (numpy's RandomState)
}

std::string shared_init_request(const std::string& init_request, const StorageUrl& storage,
                                const std::string& study_name, const SharedWorker& worker,
                                const nlohmann::json& study_info) {
  SharedJson request = SharedJson::parse(init_request);
  request["storage"] = storage.url;
  request["study_name"] = study_name;
  request["worker"] = {{"host", worker.host}, {"dir", worker.dir}};
  request["study"] = study_info;
  return request.dump(-1, ' ', false, SharedJson::error_handler_t::replace);
}

std::string shared_claim_request(size_t benchmarks, uint64_t space, size_t repeats) {
  return SharedJson{{"op", "claim"},
                    {"benchmarks", benchmarks},
                    {"draws", 3 * benchmarks},
                    {"space", space},
                    {"repeats", repeats}}
      .dump();
}

SharedClaim parse_shared_claim(std::string_view line, const std::vector<ParamSpace>& spaces) {
  const SharedJson answer = parse_shared_line(line, "claim");
  SharedClaim claim;
  claim.duplicates = shared_count(answer, "duplicates");
  if (const auto done = answer.find("done"); done != answer.end()) {
    if (!done->is_string() || done->get<std::string>().empty()) {
      throw std::invalid_argument(
          fmt::format("the Optuna bridge's answer to claim: bad \"done\": {}", line.substr(0, 200)));
    }
    claim.done = done->get<std::string>();
    claim.benchmarked = shared_count(answer, "benchmarked");
    claim.drawn = shared_count(answer, "drawn");
    return claim;
  }
  claim.ask = parse_bridge_ask(line, spaces);
  return claim;
}

std::string shared_record_request(int64_t number, const TrialRecord& record) {
  return SharedJson{{"op", "record"},
                    {"number", number},
                    {"benchmarked", reached_benchmark(record.status)},
                    {"record", SharedJson::parse(trial_to_json(record))}}
      .dump(-1, ' ', false, SharedJson::error_handler_t::replace);
}

std::string shared_release_request(int64_t number) {
  return SharedJson{{"op", "release"}, {"number", number}}.dump();
}

std::string shared_sync_request(const std::vector<ParamSpace>& spaces, const TrialRecord& record,
                                const SamplerOutcome& outcome) {
  SharedJson request = SharedJson::parse(bridge_add_request(spaces, record.params, outcome));
  request["op"] = "sync";
  request["benchmarked"] = reached_benchmark(record.status);
  request["record"] = SharedJson::parse(trial_to_json(record));
  return request.dump(-1, ' ', false, SharedJson::error_handler_t::replace);
}

std::string shared_export_request(const StorageUrl& storage, const std::string& study_name) {
  return SharedJson{{"op", "export"}, {"storage", storage.url}, {"study_name", study_name}}.dump(
      -1, ' ', false, SharedJson::error_handler_t::replace);
}

SharedExport parse_shared_export(std::string_view line) {
  const SharedJson answer = parse_shared_line(line, "export");
  SharedExport out;
  if (const auto study = answer.find("study"); study != answer.end()) out.study = *study;
  const auto trials = answer.find("trials");
  if (trials == answer.end() || !trials->is_array()) {
    throw std::invalid_argument("the Optuna bridge's answer to export has no trials");
  }
  std::vector<std::pair<int64_t, TrialRecord>> numbered;
  for (const SharedJson& trial : *trials) {
    const int64_t number = trial.is_object() ? shared_count(trial, "number") : -1;
    const std::string where = fmt::format("the storage's trial {}", number);
    if (!trial.is_object() || !trial.contains("record")) {
      out.problems.push_back(where + ": no record");
      continue;
    }
    const auto text = [&](const char* key) {
      const auto it = trial.find(key);
      return it != trial.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    try {
      TrialRecord record = trial_from_json(trial.at("record").dump(), where);
      record.dir = on_worker(text("host"), text("dir"), record.dir);
      record.server_log = on_worker(text("host"), text("dir"), record.server_log);
      numbered.emplace_back(number, std::move(record));
    } catch (const std::invalid_argument& error) {
      out.problems.push_back(error.what());
    }
  }
  std::stable_sort(numbered.begin(), numbered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [number, record] : numbered) out.trials.push_back(std::move(record));
  return out;
}

}  // namespace llmperf

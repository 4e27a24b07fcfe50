// The study ledger's line (trial.h): its writer, its reader and the reader of a whole ledger,
// which tolerates a last line cut short by a crash. nlohmann's ordered_json keeps the fields, and
// the parameters, in the order they are written.
#include "study/trial.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kStatusNames[] = {
    "ok",           "excluded",     "start_failed", "ready_timeout",
    "bench_failed", "slo_violated", "interrupted"};

void put_number(Json& object, const char* key, const std::optional<double>& value) {
  if (value && std::isfinite(*value)) object[key] = *value;
}

void put_text(Json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

// Field readers: each throws with `where` and the field's name when its type is wrong.
class Reader {
 public:
  Reader(const Json& object, std::string_view where) : object_(object), where_(where) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("{}: {}", where_, what));
  }

  const Json* find(const char* key) const {
    const auto found = object_.find(key);
    return found == object_.end() || found->is_null() ? nullptr : &*found;
  }

  std::string text(const char* key, const Json* from = nullptr) const {
    const Json* value = from != nullptr ? from : find(key);
    if (value == nullptr) return {};
    if (!value->is_string()) fail(fmt::format("'{}' must be a string", key));
    return value->get<std::string>();
  }

  std::optional<double> number(const char* key, const Json& in) const {
    const auto found = in.find(key);
    if (found == in.end() || found->is_null()) return std::nullopt;
    if (!found->is_number()) fail(fmt::format("'{}' must be a number", key));
    return found->get<double>();
  }

  std::optional<double> number(const char* key) const { return number(key, object_); }

  std::optional<int64_t> integer(const char* key, const Json& in) const {
    const auto found = in.find(key);
    if (found == in.end() || found->is_null()) return std::nullopt;
    if (!found->is_number_integer()) fail(fmt::format("'{}' must be an integer", key));
    return found->get<int64_t>();
  }

  const Json* array(const char* key) const {
    const Json* value = find(key);
    if (value != nullptr && !value->is_array()) fail(fmt::format("'{}' must be an array", key));
    return value;
  }

 private:
  const Json& object_;
  std::string_view where_;
};

void read_lists(const Reader& in, TrialRecord& record) {
  if (const Json* args = in.array("bench_args")) {
    for (const Json& arg : *args) record.bench_args.push_back(in.text("bench_args", &arg));
  }
  if (const Json* tail = in.array("log_tail")) {
    for (const Json& line : *tail) record.log_tail.push_back(in.text("log_tail", &line));
  }
  if (const Json* runs = in.array("runs")) {
    for (const Json& run : *runs) {
      if (!run.is_object()) in.fail("'runs' must hold objects");
      TrialRun out;
      if (run.contains("name")) out.name = in.text("name", &run.at("name"));
      out.objective = in.number("objective", run);
      if (run.contains("passed_slo") && !run["passed_slo"].is_null()) {
        if (!run["passed_slo"].is_boolean()) in.fail("'passed_slo' must be true or false");
        out.passed_slo = run["passed_slo"].get<bool>();
      }
      record.runs.push_back(std::move(out));
    }
  }
  if (const Json* repeats = in.array("repeats")) {
    for (const Json& value : *repeats) {
      if (!value.is_number()) in.fail("'repeats' must hold numbers");
      record.repeats.push_back(value.get<double>());
    }
  }
  if (const Json* gpus = in.array("gpu")) {
    for (const Json& gpu : *gpus) {
      if (!gpu.is_object()) in.fail("'gpu' must hold objects");
      record.gpu.push_back(GpuMemory{static_cast<int>(in.integer("index", gpu).value_or(0)),
                                     in.integer("used_mib", gpu).value_or(0),
                                     in.integer("total_mib", gpu).value_or(0)});
    }
  }
}

}  // namespace

std::string_view trial_status_name(TrialStatus status) {
  return kStatusNames[static_cast<size_t>(status)];
}

std::optional<TrialStatus> parse_trial_status(std::string_view name) {
  for (size_t i = 0; i < std::size(kStatusNames); ++i) {
    if (kStatusNames[i] == name) return static_cast<TrialStatus>(i);
  }
  return std::nullopt;
}

bool trial_status_final(TrialStatus status) { return status != TrialStatus::kInterrupted; }

std::string trial_to_json(const TrialRecord& record) {
  Json line;
  line["schema"] = kTrialSchema;
  line["trial"] = record.trial;
  line["label"] = record.label;
  line["rung"] = record.rung;
  if (record.stage > 0) line["stage"] = record.stage;
  Json params = Json::object();
  for (const auto& [name, value] : record.params) params[name] = value;
  line["params"] = std::move(params);
  line["status"] = trial_status_name(record.status);
  put_text(line, "reason", record.reason);
  put_text(line, "server_command", record.server_command);
  put_text(line, "server_command_template", record.server_command_template);
  if (!record.bench_args.empty()) line["bench_args"] = record.bench_args;
  if (record.port) line["port"] = *record.port;
  put_text(line, "dir", record.dir);
  put_text(line, "started", record.started);
  put_number(line, "ready_s", record.ready_s);
  put_number(line, "duration_s", record.duration_s);
  put_number(line, "bench_s", record.bench_s);
  put_number(line, "stop_s", record.stop_s);
  put_number(line, "objective", record.objective);
  Json metrics = Json::object();
  for (const auto& [name, value] : record.metrics) {
    if (std::isfinite(value)) metrics[name] = value;
  }
  if (!metrics.empty()) line["metrics"] = std::move(metrics);
  if (!record.runs.empty()) {
    Json runs = Json::array();
    for (const TrialRun& run : record.runs) {
      Json item;
      item["name"] = run.name;
      put_number(item, "objective", run.objective);
      if (run.passed_slo) item["passed_slo"] = *run.passed_slo;
      runs.push_back(std::move(item));
    }
    line["runs"] = std::move(runs);
  }
  if (!record.gpu.empty()) {
    Json gpus = Json::array();
    for (const GpuMemory& gpu : record.gpu) {
      gpus.push_back(
          {{"index", gpu.index}, {"used_mib", gpu.used_mib}, {"total_mib", gpu.total_mib}});
    }
    line["gpu"] = std::move(gpus);
  }
  if (record.gpus) line["gpus"] = *record.gpus;
  if (!record.repeats.empty()) {
    Json repeats = Json::array();
    for (const double value : record.repeats) {
      if (std::isfinite(value)) repeats.push_back(value);
    }
    line["repeats"] = std::move(repeats);
  }
  put_number(line, "ci95_low", record.ci95_low);
  put_number(line, "ci95_high", record.ci95_high);
  if (record.confirm) line["confirm"] = true;
  put_text(line, "server_log", record.server_log);
  if (!record.log_tail.empty()) line["log_tail"] = record.log_tail;
  if (record.slot) line["slot"] = *record.slot;
  if (const std::optional<TrialClient>& client = record.client) {
    Json object = {{"cpu_s", client->cpu_s},
                   {"cpu_share", client->cpu_share},
                   {"lateness_p99_ms", client->lateness_p99_ms},
                   {"busy", client->busy}};
    put_text(object, "why", client->why);
    line["client"] = std::move(object);
  }
  return line.dump(-1, ' ', false, Json::error_handler_t::replace);
}

TrialRecord trial_from_json(std::string_view line, std::string_view where) {
  Json object;
  try {
    object = Json::parse(line);
  } catch (const Json::exception& error) {  // parse_error, and out_of_range for 1e400
    throw std::invalid_argument(fmt::format("{}: not JSON ({})", where, error.what()));
  }
  if (!object.is_object()) {
    throw std::invalid_argument(fmt::format("{}: not a JSON object", where));
  }
  const Reader in(object, where);
  const std::string schema = in.text("schema");
  if (schema.empty()) in.fail(fmt::format("no \"schema\" (expected \"{}\")", kTrialSchema));
  if (schema != kTrialSchema) {
    in.fail(fmt::format("schema \"{}\" is not \"{}\": written by another llmperf version?", schema,
                        kTrialSchema));
  }
  TrialRecord record;
  const std::optional<int64_t> trial = in.integer("trial", object);
  if (!trial || *trial < 0) in.fail("'trial' must be a non-negative integer");
  record.trial = *trial;
  const std::string status = in.text("status");
  const std::optional<TrialStatus> parsed = parse_trial_status(status);
  if (!parsed) {
    in.fail(
        fmt::format("unknown status \"{}\" (expected ok, excluded, start_failed, "
                    "ready_timeout, bench_failed, slo_violated or interrupted)",
                    status));
  }
  record.status = *parsed;
  record.label = in.text("label");
  record.rung = static_cast<int>(in.integer("rung", object).value_or(0));
  record.stage = static_cast<int>(in.integer("stage", object).value_or(0));
  if (const Json* params = in.find("params")) {
    if (!params->is_object()) in.fail("'params' must be an object");
    for (const auto& [name, value] : params->items()) {
      if (!value.is_string()) in.fail(fmt::format("parameter '{}' must be a string", name));
      record.params.emplace_back(name, value.get<std::string>());
    }
  }
  record.reason = in.text("reason");
  record.server_command = in.text("server_command");
  record.server_command_template = in.text("server_command_template");
  if (const std::optional<int64_t> port = in.integer("port", object)) {
    record.port = static_cast<int>(*port);
  }
  record.dir = in.text("dir");
  record.started = in.text("started");
  record.ready_s = in.number("ready_s");
  record.duration_s = in.number("duration_s");
  record.bench_s = in.number("bench_s");
  record.stop_s = in.number("stop_s");
  record.objective = in.number("objective");
  if (const Json* metrics = in.find("metrics")) {
    if (!metrics->is_object()) in.fail("'metrics' must be an object");
    for (const auto& [name, value] : metrics->items()) {
      if (value.is_null()) continue;
      if (!value.is_number()) in.fail(fmt::format("metric '{}' must be a number", name));
      record.metrics[name] = value.get<double>();
    }
  }
  read_lists(in, record);
  if (const std::optional<int64_t> gpus = in.integer("gpus", object)) {
    if (*gpus < 0 || *gpus > 1'000'000) in.fail("'gpus' must be a GPU count");
    record.gpus = static_cast<int>(*gpus);
  }
  record.ci95_low = in.number("ci95_low");
  record.ci95_high = in.number("ci95_high");
  if (const Json* confirm = in.find("confirm")) {
    if (!confirm->is_boolean()) in.fail("'confirm' must be true or false");
    record.confirm = confirm->get<bool>();
  }
  record.server_log = in.text("server_log");
  if (const std::optional<int64_t> slot = in.integer("slot", object)) {
    if (*slot < 0 || *slot > 1'000'000) in.fail("'slot' must be a slot's index");
    record.slot = static_cast<int>(*slot);
  }
  if (const Json* client = in.find("client")) {
    if (!client->is_object()) in.fail("'client' must be an object");
    TrialClient out;
    out.cpu_s = in.number("cpu_s", *client).value_or(0);
    out.cpu_share = in.number("cpu_share", *client).value_or(0);
    out.lateness_p99_ms = in.number("lateness_p99_ms", *client).value_or(0);
    if (const auto busy = client->find("busy"); busy != client->end() && !busy->is_null()) {
      if (!busy->is_boolean()) in.fail("'busy' must be true or false");
      out.busy = busy->get<bool>();
    }
    if (client->contains("why")) out.why = in.text("why", &client->at("why"));
    record.client = out;
  }
  return record;
}

Ledger read_ledger(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error(
        fmt::format("{}: cannot read the study ledger: {}", path, std::strerror(errno)));
  }
  std::ostringstream buffer;
  buffer << file.rdbuf();
  const std::string text = buffer.str();
  Ledger ledger;
  ledger.keep_bytes = text.size();
  size_t start = 0;
  size_t number = 0;
  while (start < text.size()) {
    ++number;
    const size_t end = text.find('\n', start);
    const bool last_unterminated = end == std::string::npos;
    std::string_view line(text.data() + start, (last_unterminated ? text.size() : end) - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      try {
        ledger.trials.push_back(trial_from_json(line, fmt::format("{}:{}", path, number)));
      } catch (const std::invalid_argument& error) {
        if (last_unterminated) {
          ledger.truncated_tail = true;  // a write cut short: not a problem, dropped
          ledger.keep_bytes = start;
        } else {
          ledger.problems.push_back(error.what());
        }
      }
    }
    if (last_unterminated) break;
    start = end + 1;
  }
  ledger.needs_newline = ledger.keep_bytes > 0 && text[ledger.keep_bytes - 1] != '\n';
  return ledger;
}

}  // namespace llmperf

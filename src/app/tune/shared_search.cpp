// The shared learned search's loop (shared_search.h).
#include "app/tune/shared_search.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/signals.h"
#include "app/tune/optuna_bridge.h"

namespace llmperf {
namespace {

// As learned_search.cpp's: offers in a row of configurations already run before a worker stops.
constexpr size_t kSharedRepeatedAsks = 100;

std::string this_host() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

}  // namespace

void check_shared_study(const StudySpec& spec, const Strategy& strategy) {
  if (spec.storage.empty() && spec.study_name.empty()) return;
  if (spec.storage.empty()) throw std::invalid_argument("--study-name needs --storage URL");
  const StorageUrl storage = parse_storage_url(spec.storage);
  if (spec.study_name.empty()) {
    throw std::invalid_argument(fmt::format(
        "--storage {} needs --study-name NAME (the shared study's name, the same on every worker)",
        storage.redacted));
  }
  check_study_name(spec.study_name);
  if (!strategy.learned()) {
    throw std::invalid_argument(fmt::format(
        "--storage is for the learned searches (--strategy tpe:N, cmaes:N, nsga2:N), which ask "
        "Optuna for each configuration; --strategy {} lists its configurations up front: give "
        "each host its own share of --param values instead",
        strategy.text()));
  }
  if (!spec.stages.empty()) {
    throw std::invalid_argument("--storage: a staged study (--stage) cannot be shared");
  }
}

std::optional<SharedStudyOptions> shared_study_options(const StudySpec& spec,
                                                       const std::string& study_dir,
                                                       const nlohmann::json& study_info) {
  if (spec.storage.empty()) return std::nullopt;
  SharedStudyOptions shared;
  shared.storage = parse_storage_url(spec.storage);
  if (shared.storage.password == kRedactedPassword) {
    throw std::invalid_argument(fmt::format(
        "--storage {}: study.json keeps the URL without its password; give --storage URL again "
        "with --resume (or keep the password in PGPASSWORD or ~/.pgpass, out of the URL)",
        shared.storage.redacted));
  }
  shared.study_name = spec.study_name;
  shared.worker.host = this_host();
  shared.worker.dir = std::filesystem::absolute(study_dir).lexically_normal().string();
  shared.study_info = study_info;
  return shared;
}

std::string shared_storage_error(const SharedStudyOptions& shared, const std::string& error) {
  std::string text = redact_storage_text(error, shared.storage.password);
  if (text.find("No module named 'psycopg2'") != std::string::npos) {
    text += " (install Debian's python3-psycopg2, PostgreSQL's driver for SQLAlchemy)";
  }
  return text;
}

std::vector<TrialRecord> run_shared_search(OptunaBridge& bridge, const SharedStudyOptions& shared,
                                           const std::vector<ParamSpace>& spaces,
                                           const Strategy& strategy,
                                           const std::vector<TrialRecord>& previous,
                                           const RunConfig& run, const OutcomeOf& outcome,
                                           std::string& lost) {
  std::vector<TrialRecord> records;
  const auto storage_failed = [&](const std::exception& error) {
    lost = fmt::format(
        "the shared study's storage {} failed ({}): this worker stops asking; its {} trial(s) "
        "are in its ledger {}/study.jsonl",
        shared.storage.redacted, shared_storage_error(shared, error.what()), records.size(),
        shared.worker.dir);
    spdlog::error("{}", lost);
  };
  // The ledger's finished trials are kept, and the storage given those it lacks.
  for (const TrialRecord& earlier : previous) {
    if (!trial_status_final(earlier.status)) continue;
    records.push_back(run(static_cast<size_t>(earlier.trial), earlier.params));
    try {
      parse_bridge_ok(
          bridge.request(shared_sync_request(spaces, records.back(), outcome(records.back()))));
    } catch (const std::exception& error) {
      storage_failed(error);
      return records;
    }
  }
  while (!interrupt_requested()) {
    SharedClaim claim;
    try {
      claim = parse_shared_claim(
          bridge.request(shared_claim_request(strategy.samples, grid_size(spaces),
                                              kSharedRepeatedAsks)),
          spaces);
    } catch (const std::exception& error) {
      storage_failed(error);
      break;
    }
    if (!claim.done.empty()) {
      spdlog::info(
          "--strategy {}: the shared study {} is done for this worker ({}: {} configuration(s) "
          "benchmarked or running, {} drawn across the workers)",
          strategy.text(), shared.study_name, claim.done, claim.benchmarked, claim.drawn);
      break;
    }
    TrialRecord record = run(static_cast<size_t>(claim.ask->number), claim.ask->params);
    if (record.status == TrialStatus::kInterrupted) {
      records.push_back(std::move(record));
      try {  // its configuration free for the other workers; resuming does not run it again
        parse_bridge_ok(bridge.request(shared_release_request(claim.ask->number)));
      } catch (const std::exception& error) {
        spdlog::warn("--storage {}: {}", shared.storage.redacted,
                     shared_storage_error(shared, error.what()));
      }
      break;
    }
    records.push_back(record);
    try {
      parse_bridge_ok(bridge.request(shared_record_request(claim.ask->number, record)));
      parse_bridge_ok(bridge.request(bridge_tell_request(claim.ask->number, outcome(record))));
    } catch (const std::exception& error) {
      storage_failed(error);
      break;
    }
  }
  return records;
}

}  // namespace llmperf

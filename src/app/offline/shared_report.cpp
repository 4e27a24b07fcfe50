// The combined study of a shared study, from Optuna's storage (shared_report.h).
#include "app/offline/shared_report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/tune/optuna_bridge.h"
#include "study/shared_study.h"
#include "study/storage_url.h"
#include "study/study_file.h"

namespace llmperf {

std::vector<std::string> export_shared_study(const std::string& storage,
                                             const std::string& study_name,
                                             const std::string& dir) {
  const StorageUrl url = parse_storage_url(storage);
  check_study_name(study_name);
  SharedExport shared;
  try {
    OptunaBridge bridge("");
    shared = parse_shared_export(bridge.request(shared_export_request(url, study_name)));
  } catch (const std::exception& error) {
    throw std::runtime_error(fmt::format("--storage {}: cannot read the shared study '{}': {}",
                                         url.redacted, study_name,
                                         redact_storage_text(error.what(), url.password)));
  }
  if (shared.study.is_null()) {
    throw std::runtime_error(fmt::format(
        "--storage {}: the study '{}' holds no llmperf study (no `llmperf tune --storage` worker "
        "started it)",
        url.redacted, study_name));
  }
  const StudyInfo info = study_info_from_json(shared.study);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", dir, ec.message()));
  write_study_file(dir, info);
  const fs::path ledger = fs::path(dir) / kLedgerFileName;
  const fs::path temporary = fs::path(dir) / (std::string(kLedgerFileName) + ".tmp");
  {
    std::ofstream out(temporary, std::ios::trunc);
    for (const TrialRecord& record : shared.trials) out << trial_to_json(record) << "\n";
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", temporary.string()));
  }
  fs::rename(temporary, ledger, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot write {}: {}", ledger.string(), ec.message()));
  return shared.problems;
}

}  // namespace llmperf

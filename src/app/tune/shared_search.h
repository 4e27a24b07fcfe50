// A learned search shared by several workers through Optuna's storage (--storage URL
// --study-name NAME): each worker claims configurations no worker has run or is running
// (share/llmperf/optuna_storage.py's rules), runs them on its own machine into its own ledger, and
// stores each finished trial's ledger record in the shared study. When the storage fails (the
// database went away), the worker says so in one line, stops asking, and ends with the trials it
// has: they stay in its ledger.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/tune/learned_search.h"
#include "study/shared_study.h"
#include "study/study_spec.h"

namespace llmperf {

class OptunaBridge;

// Throws std::invalid_argument naming --storage when the study cannot be shared: --storage
// without --study-name (or the reverse), a strategy that Optuna does not choose (grid, random
// and halving list their configurations up front: run them as shards instead), a staged study.
void check_shared_study(const StudySpec& spec, const Strategy& strategy);

// The worker's options for a study in `study_dir` (absolute or relative), or none when the spec
// has no --storage. Throws std::invalid_argument when the URL's password was redacted (a resumed
// study.json keeps it as ***): --storage must be given again.
std::optional<SharedStudyOptions> shared_study_options(const StudySpec& spec,
                                                       const std::string& study_dir,
                                                       const nlohmann::json& study_info);

// The shared search's loop. The ledger's finished trials (`previous`, on --resume) are kept as
// they are, and added to the storage where it lacks them (the database was away when they ended);
// an interrupted one is not run again here: its configuration is free to be claimed again. Then configurations are claimed, run
// through `run` with the Optuna trial's number as their index, recorded and told, until the
// shared budget is spent or the study is interrupted; `outcome` is what a finished trial tells
// the sampler (one value, or one per --objective). `lost` receives the line said when the
// storage failed ("" when it did not).
using OutcomeOf = std::function<SamplerOutcome(const TrialRecord&)>;
std::vector<TrialRecord> run_shared_search(OptunaBridge& bridge, const SharedStudyOptions& shared,
                                           const std::vector<ParamSpace>& spaces,
                                           const Strategy& strategy,
                                           const std::vector<TrialRecord>& previous,
                                           const RunConfig& run, const OutcomeOf& outcome,
                                           std::string& lost);

// A storage error's text with the password out of it, and, for a missing driver, what to install.
std::string shared_storage_error(const SharedStudyOptions& shared, const std::string& error);

}  // namespace llmperf

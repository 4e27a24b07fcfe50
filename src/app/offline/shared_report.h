// `llmperf report --storage URL --study-name NAME --outputs-dir DIR`: the combined study of the
// `llmperf tune` workers that shared NAME in Optuna's storage, built from the storage alone. Every
// worker stored its finished trials' ledger records there (app/tune/shared_search.h), and the
// first one study.json's object: they are written into DIR as study.json and study.jsonl (by
// Optuna's trial number, which is each trial's index), which `llmperf report DIR` then rebuilds
// as any study's directory.
#pragma once

#include <string>
#include <vector>

namespace llmperf {

// Writes DIR/study.json and DIR/study.jsonl from the shared study; returns a warning per record
// that did not read. Throws std::invalid_argument for a bad URL and std::runtime_error when the
// storage or the study cannot be read; no message holds the URL's password.
std::vector<std::string> export_shared_study(const std::string& storage,
                                             const std::string& study_name,
                                             const std::string& dir);

}  // namespace llmperf

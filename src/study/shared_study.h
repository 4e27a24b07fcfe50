// A study shared by several `llmperf tune` workers through Optuna's storage (--storage URL
// --study-name NAME; share/llmperf/optuna_storage.py holds the rules): the bridge messages that
// only a shared study speaks, as pure parts. `init` gains the storage, the study's name, the
// worker and study.json's object; `claim` asks for a configuration no worker has run or is
// running, within the shared study's budget; `record` stores a finished trial's ledger record in
// its Optuna trial; `export` reads every worker's records back for `llmperf report --storage`.
// Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/sampler_space.h"
#include "study/storage_url.h"
#include "study/trial.h"

namespace llmperf {

// Who a worker is: its host and its study's directory (absolute), stored with each of its trials.
struct SharedWorker {
  std::string host;
  std::string dir;
};

// What a worker of a shared study is given: where the study is, its name, who the worker is and
// study.json's object (the first worker stores it in the study, for `llmperf report --storage`).
struct SharedStudyOptions {
  StorageUrl storage;
  std::string study_name;
  SharedWorker worker;
  nlohmann::json study_info;
};

// The sampler's seed of one worker: --seed mixed with the worker's host and directory, so that
// workers started with the same --seed do not draw the same configurations in the same order.
uint64_t shared_worker_seed(uint64_t seed, const SharedWorker& worker);

// `init_request` (sampler_space.h's bridge_init_request) with the shared study's fields.
std::string shared_init_request(const std::string& init_request, const StorageUrl& storage,
                                const std::string& study_name, const SharedWorker& worker,
                                const nlohmann::json& study_info);

// `claim`: a configuration to run, within a budget of `benchmarks` benchmarked configurations
// and 3x that many drawn, across every worker; `space` is the number of configurations, after
// which nothing is left to draw; `repeats` offers in a row of configurations already run end it.
std::string shared_claim_request(size_t benchmarks, uint64_t space, size_t repeats);

// The answer to claim: a configuration (ask) or why the shared search is over (done: "budget",
// "draws", "space", "repeats"), with the shared study's counts. Throws std::invalid_argument as
// parse_bridge_ask does.
struct SharedClaim {
  std::optional<BridgeAsk> ask;
  std::string done;
  int64_t benchmarked = 0;  // when done: the benchmarked and running configurations
  int64_t drawn = 0;        // when done: the configurations drawn
  int64_t duplicates = 0;   // offers of configurations already run, told FAIL
};
SharedClaim parse_shared_claim(std::string_view line, const std::vector<ParamSpace>& spaces);

// `record`: the trial's ledger record, before its tell.
std::string shared_record_request(int64_t number, const TrialRecord& record);

// `release`: a claimed trial that was interrupted (Ctrl-C), told FAIL so that its configuration
// is free for any worker again.
std::string shared_release_request(int64_t number);

// `sync`: a finished trial of the worker's ledger, on --resume, added to the storage (with its
// record and `outcome`, told as bridge_add_request tells it) unless the storage has it already. Throws
// std::invalid_argument as bridge_add_request does.
std::string shared_sync_request(const std::vector<ParamSpace>& spaces, const TrialRecord& record,
                                const SamplerOutcome& outcome);

// `export`, and its answer: study.json's object as the first worker stored it, and every trial
// with a record, by Optuna's trial number, each record's dir and server_log made "HOST:DIR/..."
// (where they are: on the worker's host, under its study directory). A record that does not read
// is a problem, not an error.
std::string shared_export_request(const StorageUrl& storage, const std::string& study_name);
struct SharedExport {
  nlohmann::json study;  // null when no worker stored one
  std::vector<TrialRecord> trials;
  std::vector<std::string> problems;
};
SharedExport parse_shared_export(std::string_view line);

}  // namespace llmperf

// `llmperf report` for the server's side of a run, read back from its directory: the identity
// from the old summary.json's "server", the scrapes of its server_metrics.jsonl (which
// metrics/recorded_scrapes.h summarises), and what the old "server" says that the scrapes do not.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/server_sample.h"
#include "metrics/recorded_scrapes.h"
#include "metrics/server_metrics.h"

namespace llmperf {

// The identity in an old summary.json's "server" block (empty when there is none).
ServerIdentity identity_from_json(const nlohmann::json& server);

// The scrapes of a run's server_metrics.jsonl, in order (lines that are not JSON objects skipped);
// nullopt when there is no such file: the run was not scraped.
std::optional<std::vector<RecordedScrape>> read_recorded_scrapes(const std::string& jsonl_path);

// Puts back into `summary` what the old "server" says that the scrapes do not: the /metrics URL,
// whether the run was profiled and what the profiler said, and, when it was not `scraped`, why.
void restore_server_context(ServerSummary& summary, const nlohmann::json& old_server, bool scraped);

}  // namespace llmperf

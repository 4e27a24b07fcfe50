// summary.json's config block, written from a Config: every flag that shapes the run, with the
// flags the benchmark resolved (the model, a trace's -n and rate) and every credential masked.
// report_options puts it in ReportOptions::config_json, and the report stage reads it back
// (report/report.h's report_options(SummaryFile)); benchmark_run_id hashes it. Private to plan/.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/stage_options.h"

namespace llmperf {

nlohmann::ordered_json config_block(const Config& config, const ResolvedFlags& resolved);

// The config's credential values (API key, secret header values, the user:password of a URL),
// as they would appear in plain text and inside JSON strings; values too short to scrub safely
// are left out (ReportOptions::secrets).
std::vector<std::string> config_secrets(const Config& config);

}  // namespace llmperf

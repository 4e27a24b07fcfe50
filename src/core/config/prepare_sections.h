// The sections of a Config the prepare stage reads: the workload (datasets, synthetic lengths,
// conversations, traces), the load (the sweep's runs, --seed), the request body (output lengths,
// the API's shape) and the target (the API kind, the tokenizer's URL). plan's
// prepare_sections(config) fills it; PromptSource keeps its own copy for its life.
#pragma once

#include <cstdint>
#include <vector>

#include "core/config/load.h"
#include "core/config/request_body.h"
#include "core/config/run_grid.h"
#include "core/config/target.h"
#include "core/config/workload.h"

namespace llmperf {

struct PrepareSections {
  TargetConfig target;
  WorkloadConfig workload;
  RequestBodyConfig body;
  LoadConfig load;
};

// The sweep's runs as the flags give them, and the texts one request carries (run_grid.h).
inline std::vector<RunSpec> run_specs(const PrepareSections& sections) {
  return run_specs(sections.load, sections.workload,
                   {sections.target.model, sections.load.number, sections.load.rate});
}
inline int64_t texts_per_request(const PrepareSections& sections) {
  return texts_per_request(sections.target.api_kind, sections.workload);
}

}  // namespace llmperf

// The sections of a Config a request is made of, for the stages that build requests (workload's
// RequestBuilder, server's usage calibration, prepare's length counter) without the whole Config.
// request_sections() fills it from a Config's sections.
#pragma once

#include <cstdint>

#include "core/config/load.h"
#include "core/config/request_body.h"
#include "core/config/target.h"
#include "core/config/workload.h"

namespace llmperf {

struct RequestSections {
  TargetConfig target;     // where the requests go, the API, the headers
  RequestBodyConfig body;  // the generation parameters, --extra-args
  int image_width = 512;   // the workload's synthetic images' size (--image-width, --image-height)
  int image_height = 512;
  uint64_t seed = 0;  // the load's --seed, sent as "seed" with --seed-in-body
};

inline RequestSections request_sections(const TargetConfig& target, const RequestBodyConfig& body,
                                        const WorkloadConfig& workload, const LoadConfig& load) {
  return {target, body, workload.image_width, workload.image_height, load.seed};
}

}  // namespace llmperf

// The output plan (see output_plan.h).
#include "plan/output_plan.h"

#include <utility>

#include "core/config/output.h"
#include "core/config/target.h"

namespace llmperf {

OutputPlan output_plan(const OutputConfig& output, const TargetConfig& target,
                       const std::string& model) {
  OutputPlan plan;
  plan.junit_path = output.junit_path;
  plan.results_db = output.results_db;
  plan.results_db_requests = output.results_db_requests;
  plan.log_every_n_query = output.log_every_n_query;
  if (!output.push_gateway.empty()) {
    PushGatewayPlan push;
    push.url = output.push_gateway;
    push.interval_s = output.push_interval_s;
    push.insecure = target.insecure;
    push.cacert = target.cacert;
    push.name = output.name.empty() ? model : output.name;
    push.outputs_dir = output.outputs_dir;
    push.tags = output.tags;
    plan.push = std::move(push);
  }
  return plan;
}

}  // namespace llmperf

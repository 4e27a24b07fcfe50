// For the report tests that hold a run's records: every file of the run written as a run writes
// them, requests.jsonl (RecordsFile), benchmark_data.db (the store stage's EvalScopeDb) and
// vllm_result.json's arrays (VllmArrays) first,
// then write_run_outputs with the charts' trace of the records, which the test summarises here
// (the report stage summarises nothing).
#pragma once

#include <vector>

#include "core/record.h"
#include "metrics/metrics.h"
#include "report/report.h"
#include "store/evalscope_db.h"

namespace llmperf {

inline void write_run_with_records(const ReportOptions& options, const RunInfo& info,
                                   const RunSummary& summary,
                                   const std::vector<RequestRecord>& records) {
  RecordsFile file(options, info);
  EvalScopeDb evalscope(info.output_dir.empty() ? "." : info.output_dir, options.secrets);
  VllmArrays vllm(info.anchor_steady_ns, options.secrets);
  for (const RequestRecord& record : records) {
    file.append(record);
    evalscope.add(record, info.anchor_unix_ns - info.anchor_steady_ns);
  }
  file.commit();
  evalscope.commit();
  vllm.add(records);
  MetricsOptions metrics;
  metrics.percentiles = summary.percentiles;
  metrics.origin_ns = info.anchor_steady_ns;
  RunTrace trace;
  summarize(records, metrics, &trace);
  write_run_outputs(options, info, summary, trace, vllm);
}

}  // namespace llmperf

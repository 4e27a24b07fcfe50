// The consumers of one run's records, made for the run and fanned out by one RecordFanout, in this
// order: the Pushgateway's live figures (--push-gateway), the summary (metrics), requests.jsonl,
// benchmark_data.db, vllm_result.json's arrays, the client's totals for the server view and the
// early-stop rules; then, when the caller keeps them, the records themselves. Each batch costs one
// virtual call per consumer; a consumer added here touches nothing else.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "app/benchmark/early_stop_watch.h"
#include "app/push_gateway.h"
#include "core/record.h"
#include "core/record_consumer.h"
#include "engine/engine.h"
#include "metrics/metrics.h"
#include "metrics/server_metrics.h"
#include "plan/run_plan.h"
#include "store/evalscope_db.h"
#include "report/report.h"
#include "verdict/early_stop.h"

namespace llmperf {

// What a run's consumers are made from, besides the run itself.
struct RunConsumerOptions {
  const ReportOptions* report = nullptr;  // the reports' options (the files' credentials to scrub)
  MetricsOptions metrics;                 // the summary's, for this run (origin, open loop)
  const EarlyStopRules* stop_rules = nullptr;  // --max-errors, --max-error-rate, ...
  std::optional<PushGatewayOptions> push;      // --push-gateway: this run's pusher
  bool shard_of_benchmark = false;  // --shards > 1: the server's totals are not the client's
  std::vector<RequestRecord>* kept = nullptr;  // where the records go after (null: dropped)
};

class RunConsumers {
 public:
  // Creates info.output_dir and the run's files. `progress` (the engine's counters, read by the
  // pusher) must outlive this.
  RunConsumers(const RunConsumerOptions& options, const RunInfo& info, const RunPlan& run,
               const LoadProgress& progress);

  // Hands each batch to every consumer: the engine's record sink.
  RecordFanout& fanout() { return fanout_; }
  // The flag an early stop raises, for StopControl::early_stop.
  const std::atomic<int>* early_stop_flag() const { return early_stop_.flag(); }

  // After fanout().end_run(): what the consumers gathered.
  SummaryBuilder& summary() { return summary_; }
  const ClientTotals& client_totals() const { return client_totals_; }
  const VllmArrays& vllm_arrays() const { return vllm_; }
  const std::optional<EarlyStopDecision>& stopped_early() const { return early_stop_.decision(); }
  std::optional<RunInfo::PushGateway> push_gateway() const;

 private:
  std::unique_ptr<LivePusher> pusher_;
  SummaryBuilder summary_;
  RecordsFile records_file_;
  EvalScopeDb evalscope_;
  VllmArrays vllm_;
  ClientTotals client_totals_;  // warm-up included: the server counts it too
  EarlyStopWatch early_stop_;
  RecordFanout fanout_;
};

}  // namespace llmperf

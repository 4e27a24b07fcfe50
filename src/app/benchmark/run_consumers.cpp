// See run_consumers.h.
#include "app/benchmark/run_consumers.h"

#include <initializer_list>

namespace llmperf {

RunConsumers::RunConsumers(const RunConsumerOptions& options, const RunInfo& info,
                           const RunPlan& run, const LoadProgress& progress)
    : summary_(options.metrics),
      records_file_(*options.report, info),  // creates info.output_dir
      evalscope_(info.output_dir.empty() ? "." : info.output_dir, options.report->secrets,
                 info.anchor_unix_ns - info.anchor_steady_ns),
      vllm_(info.anchor_steady_ns, options.report->secrets),
      early_stop_(*options.stop_rules, &run.load.schedule_ns, run.load.duration_ns, run.label,
                  info.anchor_steady_ns),
      fanout_(options.kept) {
  client_totals_.shard_of_benchmark = options.shard_of_benchmark;
  if (options.push) pusher_ = std::make_unique<LivePusher>(*options.push, progress);
  fanout_.attach(pusher_.get());
  for (RecordConsumer* consumer : std::initializer_list<RecordConsumer*>{
           &summary_, &records_file_, &evalscope_, &vllm_, &client_totals_, &early_stop_}) {
    fanout_.attach(consumer);
  }
}

std::optional<RunInfo::PushGateway> RunConsumers::push_gateway() const {
  if (!pusher_) return std::nullopt;
  return pusher_->outcome();
}

}  // namespace llmperf

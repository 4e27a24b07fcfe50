// What a trial's throughput is worth per GPU and per dollar (issue 39, item 6): output tok/s per
// GPU, so that a configuration on 2 GPUs must beat one on 1 GPU twice over, and the cost of a
// million output tokens at the trial's load from the price of a GPU-hour. A trial's GPU count is
// its record's `gpus` (TrialRecord::gpus: --gpus-per-trial, or later its slot's). Pure.
#pragma once

#include <optional>
#include <string_view>

namespace llmperf {

// The two figures' names, as --objective, --prefer, the ledger's metrics and the tables name them.
inline constexpr std::string_view kPerGpuMetric = "output_throughput_per_gpu";  // tok/s per GPU
inline constexpr std::string_view kCostPerMtokMetric = "cost_per_mtok";  // USD per 1e6 output tok

// Output tok/s per GPU: output_tps / gpus. None unless both are finite and gpus > 0.
std::optional<double> throughput_per_gpu(double output_tps, int gpus);

// The cost of a million output tokens at this throughput: gpu_hour_cost × gpus / 3600 s/h
// / output_tps × 1e6 (USD when the price is). None unless output_tps > 0, gpus > 0 and the price
// is finite and positive.
std::optional<double> cost_per_mtok(double output_tps, int gpus, double gpu_hour_cost);

}  // namespace llmperf

// The tie-break among configurations tied within noise (best.h), `--prefer`: which of them to
// name best. Its grammar:
//
//   prefer := key ("," key)*          e.g. "gpus:min,gpu_memory:min", "np:min", "ttft.p99"
//   key    := NAME [":" ("min" | "max")]   (default :min)
//   NAME   := [A-Za-z0-9_.-]+
//
// NAME is `gpus` (the trial's GPU count, TrialRecord::gpus), `gpu_memory` (the MiB in use at the
// peak, summed over the GPUs the sampler saw), a --param (its value: a number, true/false as 1/0,
// a flag as 1 when present, else text) or a metric of the ledger's record (ttft.p99,
// output_throughput_per_gpu, ...). Keys apply in order; a trial without the value comes after
// those with it; then the better objective, then the lower trial index. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "study/trial.h"

namespace llmperf {

// The tie-break when --prefer is not given: fewer GPUs, then less GPU memory.
inline constexpr std::string_view kDefaultPrefer = "gpus:min,gpu_memory:min";
// The two built-in names.
inline constexpr std::string_view kPreferGpus = "gpus";
inline constexpr std::string_view kPreferGpuMemory = "gpu_memory";

struct PreferKey {
  std::string name;       // "gpus", "np", "ttft.p99"
  bool maximize = false;  // :max (more preferred)
  bool operator==(const PreferKey&) const = default;
};

struct Preference {
  std::vector<PreferKey> keys;
  std::string text() const;  // "gpus:min,gpu_memory:min": each key with its direction
};

// Parses --prefer ("" gives kDefaultPrefer's). Throws std::invalid_argument naming --prefer and
// what is wrong (an empty key, a bad character, a direction other than min or max, a name twice).
Preference parse_prefer(std::string_view text);

// A key's value in a record: a number, text, or nothing.
using PreferValue = std::variant<std::monostate, double, std::string>;
PreferValue prefer_value(const TrialRecord& record, const std::string& name);

// Compares two records on one key: < 0 when `a` is preferred, > 0 when `b` is, 0 when equal or
// both lack it. A number comes before text, any value before none.
int prefer_compare(const TrialRecord& a, const TrialRecord& b, const PreferKey& key);

// "gpus 1", "gpu_memory 8000 MiB", "np 4", "np -": a key's value in a record, for the study's text.
std::string prefer_value_text(const TrialRecord& record, const std::string& name);

}  // namespace llmperf

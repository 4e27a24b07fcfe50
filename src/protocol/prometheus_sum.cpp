// Summing replicas' expositions (see prometheus_sum.h).
#include "protocol/prometheus_sum.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace llmperf {
namespace {

// A series' identity: its name and its labels in a fixed order (replicas may write them in
// different orders).
using PromSumKey = std::pair<std::string, std::vector<std::pair<std::string, std::string>>>;

PromSumKey prom_sum_key(const MetricSample& sample) {
  auto labels = sample.labels;
  std::sort(labels.begin(), labels.end());
  return {sample.name, std::move(labels)};
}

// The TYPE of the family a sample belongs to: its own name, or without a histogram or summary
// suffix.
std::string prom_sum_type(const std::map<std::string, std::string>& types,
                          const std::string& name) {
  if (const auto it = types.find(name); it != types.end()) return it->second;
  for (const char* suffix : {"_bucket", "_sum", "_count", "_total", "_created"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.ends_with(s)) {
      const auto it = types.find(name.substr(0, name.size() - s.size()));
      if (it != types.end()) return it->second;
    }
  }
  return "";
}

}  // namespace

bool averaged_across_replicas(const std::string& name, const std::string& type) {
  if (type == "counter" || type == "histogram" || type == "summary") return false;
  return name.find("usage") != std::string::npos || name.ends_with("_perc") ||
         name.ends_with("_ratio");
}

Exposition sum_expositions(const std::vector<Exposition>& parts) {
  Exposition out;
  for (const Exposition& part : parts) {
    out.bad_lines += part.bad_lines;
    if (out.first_error.empty()) out.first_error = part.first_error;
    for (const auto& [family, type] : part.types) out.types.try_emplace(family, type);
  }
  std::map<PromSumKey, std::pair<size_t, int>> index;  // series -> (position in out, replicas)
  for (const Exposition& part : parts) {
    for (const MetricSample& sample : part.samples) {
      auto [it, added] = index.try_emplace(prom_sum_key(sample), out.samples.size(), 0);
      if (added) {
        out.samples.push_back(sample);
      } else {
        out.samples[it->second.first].value += sample.value;
      }
      ++it->second.second;
    }
  }
  for (const auto& [key, where] : index) {
    MetricSample& sample = out.samples[where.first];
    if (where.second > 1 &&
        averaged_across_replicas(sample.name, prom_sum_type(out.types, sample.name))) {
      sample.value /= where.second;
    }
  }
  return out;
}

}  // namespace llmperf

// MetricSample's label lookup (see server_sample.h).
#include "core/server_sample.h"

namespace llmperf {

const std::string& MetricSample::label(const std::string& key) const {
  static const std::string kNone;
  for (const auto& [label_name, label_value] : labels) {
    if (label_name == key) return label_value;
  }
  return kNone;
}

std::string ServerIdentity::name() const {
  if (version.empty()) return engine;
  if (engine.empty() || version.starts_with(engine)) return version;
  return engine + " " + version;
}

}  // namespace llmperf

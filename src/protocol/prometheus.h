// The Prometheus text exposition format (0.0.4), as served on /metrics by vLLM, SGLang, TGI and
// llama.cpp's server, and the OpenMetrics additions a scraper meets there. Tolerant by design:
//   - `# HELP` and unknown `#` lines are ignored, `# TYPE name type` is recorded, `# EOF` ends it;
//   - a sample is `name{label="value",...} value [timestamp] [# exemplar]`, labels in any order,
//     a trailing comma allowed, escapes \\ \" \n in label values, quoted (UTF-8) names accepted;
//   - values in Go's, Python's, Rust's or C++'s rendering: 1e+06, 27453.0, +Inf, -Inf, NaN, nan;
//   - CRLF line ends, blank lines, spaces and tabs between tokens;
//   - one bad line is skipped and counted, never the whole exposition.
// No I/O here: text in, samples out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/server_sample.h"

namespace llmperf {

struct Exposition {
  std::vector<MetricSample> samples;          // in the order written
  std::map<std::string, std::string> types;  // family name -> counter|gauge|histogram|summary|...
  int64_t bad_lines = 0;                     // lines that were neither samples nor comments
  std::string first_error;                   // "line 12: ..." for the first of them
};

// Parses an exposition. Never throws.
Exposition parse_prometheus(std::string_view text);

// A value token: a decimal or exponent float (a leading '+' allowed), or +-Inf, +-Infinity, NaN
// in any case; nullopt otherwise (hex and Go's '_' digit separators are refused).
std::optional<double> parse_prometheus_value(std::string_view token);

}  // namespace llmperf

// Goodput (vLLM's meaning): the requests that met every latency bound given with
// `--goodput ttft:500 ttfat:2000 tpot:50 e2el:2000` (milliseconds, any subset). Part of the metrics stage:
// pure functions over request records, no I/O, logging or threads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"
#include "metrics/metric_id.h"

namespace llmperf {

// The per-request bounds a good request meets (inclusive: a value equal to the bound is good).
struct GoodputSpec {
  std::optional<int64_t>
      ttft_ns;  // TTFT bound; only stream requests with a first chunk can meet it
  // TTFAT bound (time to first answer token, after any reasoning); only stream requests that
  // answered can meet it
  std::optional<int64_t> ttfat_ns;
  std::optional<int64_t> tpot_ns;  // TPOT bound; met by any request with output_tokens <= 1
  std::optional<int64_t> e2el_ns;  // end-to-end latency bound
  // True when at least one bound was given (goodput is computed and reported).
  bool enabled() const { return ttft_ns || ttfat_ns || tpot_ns || e2el_ns; }
};

// A bound --goodput takes: its metric and the spec's field, in the order --goodput lists them.
struct GoodputBound {
  Metric metric;
  std::optional<int64_t> GoodputSpec::*bound_ns;
};
std::span<const GoodputBound> goodput_bounds();

// The name --goodput and summary.json's "goodput" give a bound's metric: the catalogue's, or its
// alias where it has one (latency is vLLM's "e2el").
std::string_view goodput_name(Metric metric);

// Parses `--goodput` items "KEY:MS" with KEY one of ttft, ttfat, tpot, e2el and MS a non-negative number
// of milliseconds. An empty list gives a disabled spec. Throws std::invalid_argument naming
// --goodput and the bad item (unknown key, repeated key, missing ':', bad or negative number).
GoodputSpec parse_goodput(const std::vector<std::string>& items);

// True when `record` succeeded and meets every bound of `spec` (warm-up is not checked here).
// TTFT and TPOT are vLLM's definitions (DESIGN §3); a non-stream request has neither, so it fails a
// ttft or tpot bound, except that a tpot bound is met whenever output_tokens <= 1.
bool is_good_request(const RequestRecord& record, const GoodputSpec& spec);

}  // namespace llmperf

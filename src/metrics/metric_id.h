// Metric: a name for each entry of the catalogue of metrics (catalogue.h), apart so that the
// headers the catalogue includes (goodput.h) can name a metric too.
#pragma once

namespace llmperf {

// Every metric of the catalogue, in its table's order: how code names a metric without spelling
// its name (metric_info(Metric::kTtft).name is "ttft").
enum class Metric : unsigned char {
  kTtft,
  kTtfat,
  kTtfb,
  kTpot,
  kItl,
  kLatency,
  kTtftFromSend,
  kTtfatFromSend,
  kTtfbFromSend,
  kLatencyFromSend,
  kTtftFromPlanned,
  kTtfatFromPlanned,
  kTtfbFromPlanned,
  kLatencyFromPlanned,
  kInputTokens,
  kOutputTokens,
  kQps,
  kGoodput,
  kOutputThroughput,
  kTotalThroughput,
  kErrorRate,
  kSuccessRate,
  kGoodFraction,
  kFailed,
  kTokenMismatch,
  kRequestMismatch,
  kLengthMiss,
  kCapReached,
  kRateSustained,
};

}  // namespace llmperf

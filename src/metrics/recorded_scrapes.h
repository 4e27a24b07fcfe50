// The server's side of a run recomputed from its recorded scrapes (server_metrics.jsonl, read back
// by the report stage for `llmperf report`): the engine from the first answered scrape, the tally
// of every scrape, and the summary over the scrapes just before and just after the run, as the
// live run made it (ScrapeTally, summarize_server).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/server_sample.h"
#include "metrics/server_metrics.h"

namespace llmperf {

// One scrape as server_metrics.jsonl recorded it.
struct RecordedScrape {
  std::string phase;                  // "before", "during" or "after" the run
  bool ok = false;                    // the server answered with Prometheus text
  double duration_ms = 0;             // how long the scrape took, milliseconds
  std::string error;                  // why it failed ("" when ok)
  int64_t t_ns = 0;                   // when it was taken, ns from the run's anchor
  std::vector<MetricSample> samples;  // its series (empty when it failed)
};

// The run's ServerSummary from its scrapes, in the order they were taken; `client` is what
// llmperf counted (the reconciliation's other side) and `interval_s` the scraping interval. The
// unavailable reason says which of the before and after scrapes failed; a warning counts the
// failed scrapes. url, profiled and profile_note are the caller's (the old summary.json's).
ServerSummary summarize_recorded_scrapes(const std::vector<RecordedScrape>& scrapes,
                                         const ClientTotals& client, double interval_s);

}  // namespace llmperf

// See recorded_scrapes.h.
#include "metrics/recorded_scrapes.h"

#include <fmt/format.h>

#include <optional>

namespace llmperf {

ServerSummary summarize_recorded_scrapes(const std::vector<RecordedScrape>& scrapes,
                                         const ClientTotals& client, double interval_s) {
  std::string engine;
  for (const RecordedScrape& scrape : scrapes) {
    if (scrape.ok && engine.empty()) engine = detect_engine(scrape.samples);
  }
  ScrapeTally tally(interval_s);
  const std::vector<MetricSample>* before = nullptr;
  const std::vector<MetricSample>* after = nullptr;
  for (const RecordedScrape& scrape : scrapes) {
    if (!scrape.ok) {
      tally.add(scrape.duration_ms, std::nullopt, scrape.error);
      continue;
    }
    tally.add(scrape.duration_ms, reduce_scrape(engine, scrape.samples, scrape.t_ns), "");
    if (scrape.phase == "before") {
      before = &scrape.samples;
    } else if (scrape.phase == "after") {
      after = &scrape.samples;
    }
  }
  const std::vector<MetricSample> none;
  ServerSummary summary =
      tally.summarize(engine, before ? *before : none, after ? *after : none, client);
  if (before == nullptr) {
    summary.unavailable_reason = "the scrape before the run failed";
  } else if (after == nullptr) {
    summary.unavailable_reason = "the scrape after the run failed";
  }
  if (summary.failed_scrapes > 0) {
    summary.warnings.push_back(
        fmt::format("{} of {} scrapes failed", summary.failed_scrapes, summary.scrapes));
  }
  return summary;
}

}  // namespace llmperf

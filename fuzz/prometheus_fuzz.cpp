// libFuzzer target: /metrics is read from whatever answers on the metrics URL, so the exposition
// parser and everything that reduces its samples must never crash, whatever the text. The input
// is parsed whole and its first half is parsed too, as the scrape before the run; both go through
// detect_engine, reduce_scrape and summarize_server under the detected engine and every known one.
// Checked: every sample has a name; first_error is set exactly when a line was bad and names it;
// no more samples and bad lines than lines; each histogram window has a count per bound and, when
// its bounds are non-negative numbers and its counts of sane size, every quantile lies within its
// bucket; the mismatch fractions are never negative.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/server_metrics.h"
#include "protocol/prometheus.h"

namespace {

using llmperf::Exposition;
using llmperf::HistogramWindow;

void check_exposition(const Exposition& e, std::string_view text) {
  for (const llmperf::MetricSample& s : e.samples) {
    if (s.name.empty()) std::abort();
  }
  if (e.bad_lines < 0) std::abort();
  if (e.first_error.empty() != (e.bad_lines == 0)) std::abort();
  if (e.bad_lines > 0 && e.first_error.rfind("line ", 0) != 0) std::abort();
  const auto lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (e.samples.size() + static_cast<size_t>(e.bad_lines) > lines) std::abort();
  for (const auto& [name, type] : e.types) {
    if (name.empty() || type.empty()) std::abort();
  }
}

// Bounds that are non-negative numbers (no NaN) and counts far from overflow: the interpolation is
// then exact enough for each quantile to lie within its bucket.
bool well_formed(const HistogramWindow& w) {
  for (const double b : w.bounds) {
    if (std::isnan(b) || b < 0) return false;
  }
  for (const double c : w.counts) {
    if (!(std::fabs(c) < 1e300)) return false;
  }
  return true;
}

void check_window(const std::optional<HistogramWindow>& w) {
  if (!w) return;
  if (w->bounds.size() != w->counts.size()) std::abort();
  const bool strict = well_formed(*w);
  for (size_t i = 1; strict && i < w->bounds.size(); ++i) {
    if (!(w->bounds[i - 1] < w->bounds[i])) std::abort();
  }
  for (const double q : {0.0, 0.5, 0.9, 0.99, 1.0}) {
    const auto got = w->quantile(q);
    if (!got || !strict) continue;
    if (!std::isfinite(got->value) || got->lower > got->upper) std::abort();
    const double slack = 1e-12 * std::max({1.0, std::fabs(got->lower), std::fabs(got->value)});
    if (got->value < got->lower - slack) std::abort();
    if (std::isfinite(got->upper) && got->value > got->upper + slack) std::abort();
  }
}

void summarize(const std::string& engine, const Exposition& before, const Exposition& after,
               size_t seed) {
  std::vector<llmperf::ServerPoint> timeline = {
      llmperf::reduce_scrape(engine, before.samples, 0),
      llmperf::reduce_scrape(engine, after.samples, 1),
      llmperf::reduce_scrape(engine, before.samples, 2),
      llmperf::reduce_scrape(engine, after.samples, 3),
  };
  timeline.resize(seed % (timeline.size() + 1));
  llmperf::ClientTotals client;
  client.requests = static_cast<int64_t>(seed % 7);
  client.prompt_tokens = static_cast<int64_t>(seed % 1000);
  client.completion_tokens = static_cast<int64_t>(seed % 300);
  client.without_usage = static_cast<int64_t>(seed % 5 == 0);
  const llmperf::ServerSummary s =
      llmperf::summarize_server(engine, before.samples, after.samples, std::move(timeline), client);
  check_window(s.ttft);
  check_window(s.itl);
  check_window(s.e2e);
  check_window(s.queue);
  if (const auto t = s.token_mismatch(); t && *t < 0) std::abort();
  if (const auto r = s.request_mismatch(); r && *r < 0) std::abort();
  for (const llmperf::GaugeStats* g : {&s.running, &s.waiting, &s.kv_usage}) {
    if (g->samples < 0 || g->samples > 4) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Exposition after = llmperf::parse_prometheus(text);
  check_exposition(after, text);
  const std::string_view half = text.substr(0, size / 2);
  const Exposition before = llmperf::parse_prometheus(half);
  check_exposition(before, half);

  const std::string detected = llmperf::detect_engine(after.samples);
  for (const std::string& engine : {detected, std::string("vLLM"), std::string("SGLang"),
                                    std::string("TGI"), std::string("llama.cpp")}) {
    summarize(engine, before, after, size);
    summarize(engine, after, after, size + 1);  // an idle window: every delta 0
  }
  return 0;
}

// --summary-format evalscope-legacy: the "Benchmarking summary:" block that EvalScope 0.5.x
// printed, with its exact line labels, spacing and number formats, so scripts that scrape it keep
// working. The values are llmperf's (DESIGN §3) wherever a label has an honest counterpart; where
// EvalScope's own definition differed, the value follows EvalScope's formula from llmperf's records
// (see docs/outputs.md, "Legacy summary format"). Absent values print as -1, as EvalScope printed
// before its first successful request.
#include <fmt/format.h>

#include "report/internal.h"
#include "report/views.h"

namespace llmperf::report_detail {
namespace {

constexpr double kLegacyPercentiles[] = {50, 66, 75, 80, 90, 95, 98, 99};

double or_missing(std::optional<double> value) { return value.value_or(-1.0); }

std::string percentile_block(const char* heading, const RunSummary& s, const Distribution& d) {
  std::string out = fmt::format(" {} \n", heading);
  for (double p : kLegacyPercentiles) {
    auto i = percentile_index(s.percentiles, p);
    if (!i) continue;
    out += fmt::format("     p{}: {:.4f}\n", percentile_label(p),
                       or_missing(percentile_in(d, *i, kNsPerS)));
  }
  return out;
}

}  // namespace

std::string render_evalscope_legacy(const RunInfo& info, const RunSummary& s) {
  const double window_s = static_cast<double>(s.window_ns) / kNsPerS;
  const bool has_tokens = s.total_output_tokens > 0 && window_s > 0;
  // EvalScope 0.5.x: "time per output token" = test time / all output tokens (not TPOT).
  const double time_per_token =
      has_tokens ? window_s / static_cast<double>(s.total_output_tokens) : -1.0;
  std::optional<double> packages = mean_in(s.chunks_per_request, 1);
  if (!packages && !s.streamed && s.succeeded > 0) packages = 1.0;  // one body per request
  std::string out = "Benchmarking summary: \n";
  out += fmt::format(" Time taken for tests: {:.3f} seconds\n", window_s);
  out += fmt::format(" Expected number of requests: {}\n", info.number);
  out += fmt::format(" Number of concurrency: {}\n", info.parallel);
  out += fmt::format(" Total requests: {}\n", s.total);
  out += fmt::format(" Succeed requests: {}\n", s.succeeded);
  out += fmt::format(" Failed requests: {}\n", s.failed);
  out += fmt::format(" Average QPS: {:.3f}\n", s.succeeded > 0 ? s.qps : -1.0);
  out += fmt::format(" Average latency: {:.3f}\n", or_missing(mean_in(s.latency_ns, kNsPerS)));
  out += fmt::format(" Throughput(average output tokens per second): {:.3f}\n",
                     has_tokens ? s.output_throughput : -1.0);
  out += fmt::format(" Average time to first token: {:.3f}\n",
                     or_missing(mean_in(s.ttft_ns, kNsPerS)));
  out += fmt::format(" Average input tokens per request: {:.3f}\n",
                     or_missing(mean_in(s.input_tokens, 1)));
  out += fmt::format(" Average output tokens per request: {:.3f}\n",
                     or_missing(mean_in(s.output_tokens, 1)));
  out += fmt::format(" Average time per output token: {:.5f}\n", time_per_token);
  out += fmt::format(" Average package per request: {:.3f}\n", or_missing(packages));
  out += fmt::format(" Average package latency: {:.3f}\n", or_missing(mean_in(s.itl_ns, kNsPerS)));
  if (s.succeeded == 0) return out + " Too little data to calculate quantiles!\n";
  out += percentile_block("Percentile of time to first token:", s, s.ttft_ns);
  out += percentile_block("Percentile of request latency:", s, s.latency_ns);
  return out;
}

}  // namespace llmperf::report_detail

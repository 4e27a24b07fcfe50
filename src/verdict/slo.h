// SLOs and CI verdicts: the `--slo` grammar, evaluating an SLO against a run's summary, and the
// per-run verdict. Their presentation (text block, JUnit XML) is the report stage's.
//
// Grammar (`--slo 'EXPR'`, repeatable; spaces are allowed between the parts):
//   EXPR   = METRIC [ '.' STAT ] OP NUMBER [ UNIT ]
//   METRIC = per-request distributions, STAT required:
//              ttft, ttfat, ttfb, tpot, itl, latency (alias e2el)
//                                                            time; UNIT required: ms, s or us
//              In an open-loop run (--rate, a trace, --search rate) ttft, ttfat, ttfb and
//              latency are judged from the planned send: the latency a user of the server sees,
//              slot and client waits included. `ttft_from_send` (and ttfat_, ttfb_,
//              latency_from_send) name the actual send, `ttft_from_planned` etc. the planned one.
//              input_tokens, output_tokens                   tokens; UNIT optional: tokens
//            run-level values, no STAT:
//              qps, goodput                                  req/s; UNIT optional: req/s
//              output_throughput, total_throughput           tok/s; UNIT optional: tok/s
//              error_rate (failed/total), success_rate,
//              good_fraction                                 UNIT %; without it a fraction (0.01)
//              failed                                        count of failed requests
//              token_mismatch, request_mismatch              client against the server's
//                                                            /metrics (relative); % or fraction
//              length_miss                                   requests whose usage missed the
//                                                            length they were built to have
//                                                            (LengthMisses); % or fraction
//              cap_reached                                   open loop: share of sends that
//                                                            waited for a free slot; % or fraction
//              rate_sustained                                open loop: the rate the server
//                                                            sustained / the rate the schedule
//                                                            asked for; % or fraction
//   STAT   = mean | std | min | max | pNN | pNN.N  (the percentile must be in --percentiles)
//   OP     = <= | < | >= | > | ==
// Examples: 'ttft.p99<=800ms', 'latency.mean < 2 s', 'error_rate<=1%', 'output_throughput>=1000'.
// Comparisons are made in the SLO's unit and treat values within 1e-9 (relative) as equal, so
// 'ttft.p99<=800ms' passes at exactly 800 ms. A metric the run did not produce (TTFT of a
// non-stream run, an empty distribution, goodput without --goodput, a percentile not computed)
// fails the SLO with a message saying why. A run passes when every SLO passes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/metrics.h"

namespace llmperf {

enum class SloOp { kLe, kLt, kGe, kGt, kEq };

// One parsed `--slo` expression.
struct Slo {
  std::string expression;  // the text as given, trimmed, e.g. "ttft.p99<=800ms"
  std::string metric;      // canonical metric name ("e2el" becomes "latency")
  std::string stat;        // "mean", "std", "min", "max", "p99", "p99.9"; "" for run-level values
  double percentile = -1;  // the percentile point when stat is "pNN", else -1
  SloOp op = SloOp::kLe;
  double threshold = 0;  // the limit, in `unit`
  std::string unit;      // display unit of threshold and actual: "ms", "s", "us", "%", "req/s",
                         // "tok/s", "tokens" or "" (a plain fraction or count)
  double divisor = 1;    // the metric's base value (ns, fraction, ...) / divisor = value in unit
  std::string name() const;  // "ttft.p99", "error_rate"
};

// The outcome of one SLO on one run.
struct SloResult {
  bool passed = false;     // the limit holds (false when the metric is unavailable)
  bool available = false;  // the run produced the metric
  double actual = 0;       // the metric's value in the SLO's unit (0 when unavailable)
  std::string text;        // "ttft.p99 = 812.3 ms, limit <= 800 ms" or why it is unavailable
};

// Parses one `--slo` expression. Throws std::invalid_argument with a message naming --slo and the
// expression, e.g. "--slo 'ttft.p99<=800': missing unit (ms, s or us)".
Slo parse_slo(const std::string& expression);

// Parses "METRIC[.STAT]" alone, as --objective and the study tables name a metric: an Slo without
// operator or threshold, in the metric's natural unit (ms for times, tok/s, req/s, tokens, a plain
// fraction or count). Throws std::invalid_argument naming `flag` and the text.
Slo parse_metric(std::string_view text, std::string_view flag);

// The value of `slo`'s metric in the run, in slo.unit; nullopt (with the reason in *why when
// given) when the run does not have it, as evaluate_slo says; *note, when given, receives what the
// value means where its name alone does not say ("from the planned send"), else "".
std::optional<double> metric_value(const Slo& slo, const RunSummary& summary,
                                   std::string* why = nullptr, std::string* note = nullptr);

// Whether `slo`'s metric is a time judged from the planned send in `summary`: ttft, ttfat, ttfb
// and latency in an open-loop run, and the `_from_planned` names.
bool judged_from_planned_send(const Slo& slo, const RunSummary& summary);

// Whether more of the metric is better: the rates and throughputs, success_rate, good_fraction.
bool higher_is_better(const Slo& slo);

// Evaluates `slo` against a run's summary (pure).
SloResult evaluate_slo(const Slo& slo, const RunSummary& summary);

// Every SLO's outcome for one run.
struct RunVerdict {
  std::string run_name;                            // e.g. "parallel_8_number_100"
  std::vector<std::pair<Slo, SloResult>> results;  // in --slo order
  bool passed() const;                             // every SLO passed (true when none)
};

// Evaluates every SLO against one run.
RunVerdict evaluate_slos(const std::string& run_name, const std::vector<Slo>& slos,
                         const RunSummary& summary);

// Evaluates `slo` on the repeats of one run (--num-runs): the metric's mean over the repeats that
// have it, and its 95 % confidence interval (Student t, metrics/stats/confidence.h). The SLO is
// violated only when the whole interval lies on the wrong side of the limit, as a regression on
// intervals is only one when the intervals do not overlap: a limit inside the interval passes, and
// the text says that the repeats cannot tell. `actual` is the mean. Unavailable in every repeat:
// fails, as evaluate_slo.
SloResult evaluate_slo_on_repeats(const Slo& slo, const std::vector<const RunSummary*>& repeats);

// Every SLO's outcome on the repeats of one run.
RunVerdict evaluate_slos_on_repeats(const std::string& run_name, const std::vector<Slo>& slos,
                                    const std::vector<const RunSummary*>& repeats);

// A short description of the --slo grammar for --help.
std::string slo_grammar_help();

}  // namespace llmperf

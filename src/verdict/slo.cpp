// SLOs: parsing the `--slo` grammar (documented in slo.h and docs/ci.md) and evaluating an
// SLO against a RunSummary. Values are converted from the summary's base units (ns, fractions,
// per-second rates) into the unit the SLO was written in, and compared there.
#include "verdict/slo.h"

#include "core/text.h"
#include "metrics/stats/confidence.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

namespace llmperf {
namespace {

// What kind of value a metric is, which decides its STAT and UNIT rules.
enum class Kind {
  kTime,      // per-request distribution in ns; STAT and a time unit required
  kTokens,    // per-request distribution of token counts; STAT required
  kReqRate,   // run-level req/s
  kTokRate,   // run-level tok/s
  kFraction,  // run-level fraction in [0, 1]; % or a plain fraction
  kCount,     // run-level count
};

// Which send a time is measured from. In an open-loop run a request may wait for a free slot
// (--parallel) or for the client after its planned send; the latency a user of the server sees
// counts that wait, so the plain names judge from the planned send there.
enum class Clock {
  kNone,         // not a time from a send
  kUserSees,     // from the planned send in an open-loop run, from the send otherwise
  kFromSend,     // always from the actual send (`ttft_from_send`)
  kFromPlanned,  // always from the planned send (`ttft_from_planned`); open loop only
};

struct MetricDef {
  const char* name;                   // canonical name
  Kind kind;                          // value kind
  Distribution RunSummary::*dist;     // the distribution, for per-request metrics (from the send)
  bool stream_only;                   // only stream requests have it (TTFT, TPOT, ITL)
  Clock clock = Clock::kNone;         // which send a time counts from
  Distribution RunSummary::*planned = nullptr;  // the same time from the planned send, if any
};

constexpr MetricDef kMetrics[] = {
    {"ttft", Kind::kTime, &RunSummary::ttft_ns, true, Clock::kUserSees,
     &RunSummary::ttft_from_planned_ns},
    {"ttfat", Kind::kTime, &RunSummary::ttfat_ns, true, Clock::kUserSees,
     &RunSummary::ttfat_from_planned_ns},
    {"ttfb", Kind::kTime, &RunSummary::ttfb_ns, false, Clock::kUserSees,
     &RunSummary::ttfb_from_planned_ns},
    {"tpot", Kind::kTime, &RunSummary::tpot_ns, true},
    {"itl", Kind::kTime, &RunSummary::itl_ns, true},
    {"latency", Kind::kTime, &RunSummary::latency_ns, false, Clock::kUserSees,
     &RunSummary::latency_from_planned_ns},
    // The same times on a clock the SLO names.
    {"ttft_from_send", Kind::kTime, &RunSummary::ttft_ns, true, Clock::kFromSend},
    {"ttfat_from_send", Kind::kTime, &RunSummary::ttfat_ns, true, Clock::kFromSend},
    {"ttfb_from_send", Kind::kTime, &RunSummary::ttfb_ns, false, Clock::kFromSend},
    {"latency_from_send", Kind::kTime, &RunSummary::latency_ns, false, Clock::kFromSend},
    {"ttft_from_planned", Kind::kTime, &RunSummary::ttft_from_planned_ns, true,
     Clock::kFromPlanned},
    {"ttfat_from_planned", Kind::kTime, &RunSummary::ttfat_from_planned_ns, true,
     Clock::kFromPlanned},
    {"ttfb_from_planned", Kind::kTime, &RunSummary::ttfb_from_planned_ns, false,
     Clock::kFromPlanned},
    {"latency_from_planned", Kind::kTime, &RunSummary::latency_from_planned_ns, false,
     Clock::kFromPlanned},
    {"input_tokens", Kind::kTokens, &RunSummary::input_tokens, false},
    {"output_tokens", Kind::kTokens, &RunSummary::output_tokens, false},
    {"qps", Kind::kReqRate, nullptr, false},
    {"goodput", Kind::kReqRate, nullptr, false},
    {"output_throughput", Kind::kTokRate, nullptr, false},
    {"total_throughput", Kind::kTokRate, nullptr, false},
    {"error_rate", Kind::kFraction, nullptr, false},
    {"success_rate", Kind::kFraction, nullptr, false},
    {"good_fraction", Kind::kFraction, nullptr, false},
    {"failed", Kind::kCount, nullptr, false},
    // Client against the server's /metrics: the relative difference of the totals.
    {"token_mismatch", Kind::kFraction, nullptr, false},
    {"request_mismatch", Kind::kFraction, nullptr, false},
    // Requests that missed a length they were built to have (LengthMisses).
    {"length_miss", Kind::kFraction, nullptr, false},
    // Open loop: the share of sends that found every slot busy (the server fell behind the rate).
    {"cap_reached", Kind::kFraction, nullptr, false},
    // Open loop: the rate the server sustained over the rate the schedule asked for
    // (RunSummary::sustained_rate / scheduled_rate).
    {"rate_sustained", Kind::kFraction, nullptr, false},
};

// An open-loop run: its requests had planned send times.
bool open_loop(const RunSummary& s) { return s.open_loop.sends > 0; }

constexpr double kRelativeEpsilon = 1e-9;

const MetricDef* find_metric(const std::string& name) {
  const std::string canonical = name == "e2el" ? "latency" : name;
  for (const MetricDef& def : kMetrics) {
    if (canonical == def.name) return &def;
  }
  return nullptr;
}

std::string known_metrics() {
  std::string out;
  for (const MetricDef& def : kMetrics) {
    if (!out.empty()) out += ", ";
    out += def.name;
  }
  return out;
}

const char* op_text(SloOp op) {
  switch (op) {
    case SloOp::kLe:
      return "<=";
    case SloOp::kLt:
      return "<";
    case SloOp::kGe:
      return ">=";
    case SloOp::kGt:
      return ">";
    case SloOp::kEq:
      return "==";
  }
  return "?";
}

// Reads a leading operator from `rest`, advancing it.
std::optional<SloOp> take_op(std::string_view& rest) {
  static constexpr std::pair<const char*, SloOp> kOps[] = {
      {"<=", SloOp::kLe}, {">=", SloOp::kGe}, {"==", SloOp::kEq},
      {"<", SloOp::kLt},  {">", SloOp::kGt},
  };
  for (const auto& [text, op] : kOps) {
    const std::string_view t(text);
    if (rest.substr(0, t.size()) == t) {
      rest.remove_prefix(t.size());
      return op;
    }
  }
  return std::nullopt;
}

// Fills slo.unit and slo.divisor from the unit text, or returns why it is wrong.
std::optional<std::string> apply_unit(const MetricDef& def, std::string_view unit, Slo& slo) {
  switch (def.kind) {
    case Kind::kTime:
      if (unit.empty()) return "missing unit (ms, s or us)";
      if (unit == "ms") {
        slo.divisor = 1e6;
      } else if (unit == "s") {
        slo.divisor = 1e9;
      } else if (unit == "us" || unit == "\xC2\xB5s") {
        slo.divisor = 1e3;
        unit = "us";
      } else {
        return fmt::format("unit '{}' does not apply to {} (use ms, s or us)", unit, def.name);
      }
      slo.unit = unit;
      return std::nullopt;
    case Kind::kTokens:
      if (!unit.empty() && unit != "tokens" && unit != "tok") {
        return fmt::format("unit '{}' does not apply to {} (use tokens or none)", unit, def.name);
      }
      slo.unit = "tokens";
      return std::nullopt;
    case Kind::kReqRate:
    case Kind::kTokRate: {
      const char* expected = def.kind == Kind::kReqRate ? "req/s" : "tok/s";
      if (!unit.empty() && unit != expected) {
        return fmt::format("unit '{}' does not apply to {} (use {} or none)", unit, def.name,
                           expected);
      }
      slo.unit = expected;
      return std::nullopt;
    }
    case Kind::kFraction:
      if (unit == "%") {
        slo.unit = "%";
        slo.divisor = 0.01;
        return std::nullopt;
      }
      if (!unit.empty()) {
        return fmt::format("unit '{}' does not apply to {} (use % or a plain fraction)", unit,
                           def.name);
      }
      if (slo.threshold < 0 || slo.threshold > 1) {
        return fmt::format("{} without % is a fraction between 0 and 1; write {}% for percent",
                           def.name, fmt::format("{}", slo.threshold));
      }
      return std::nullopt;
    case Kind::kCount:
      if (!unit.empty()) return fmt::format("{} is a count and takes no unit", def.name);
      return std::nullopt;
  }
  return std::nullopt;
}

// Parses STAT into slo.stat / slo.percentile, or returns why it is wrong.
std::optional<std::string> apply_stat(std::string_view stat, Slo& slo) {
  if (stat == "mean" || stat == "std" || stat == "min" || stat == "max") {
    slo.stat = stat;
    return std::nullopt;
  }
  const std::string bad = fmt::format(
      "unknown statistic '{}' (use mean, std, min, max or a percentile such as p99 or p99.9)",
      stat);
  if (stat.size() < 2 || stat.front() != 'p') return bad;
  const std::string_view digits = stat.substr(1);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return (c >= '0' && c <= '9') || c == '.'; })) {
    return bad;
  }
  double p = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, p);
  if (ec != std::errc() || ptr != end) return bad;
  if (p < 0 || p > 100) return fmt::format("percentile '{}' is outside 0..100", stat);
  slo.percentile = p;
  slo.stat = fmt::format("p{}", p);
  return std::nullopt;
}

bool near(double a, double b) {
  return std::fabs(a - b) <= kRelativeEpsilon * std::max({std::fabs(a), std::fabs(b), 1e-300});
}

bool holds(double actual, SloOp op, double limit) {
  const bool equal = near(actual, limit);
  switch (op) {
    case SloOp::kLe:
      return equal || actual < limit;
    case SloOp::kLt:
      return !equal && actual < limit;
    case SloOp::kGe:
      return equal || actual > limit;
    case SloOp::kGt:
      return !equal && actual > limit;
    case SloOp::kEq:
      return equal;
  }
  return false;
}

// About four significant digits, no exponent, no trailing zeros: 812.3, 0.01235, 1500.
std::string format_value(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  const double magnitude = std::fabs(value);
  if (value == std::trunc(value) && magnitude < 1e15) return fmt::format("{:.0f}", value);
  int decimals = magnitude > 0 ? 3 - static_cast<int>(std::floor(std::log10(magnitude))) : 1;
  decimals = std::clamp(decimals, 1, 9);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string with_unit(const std::string& number, const std::string& unit) {
  if (unit.empty()) return number;
  if (unit == "%") return number + "%";
  return number + " " + unit;
}

// The metric's value in its base unit (ns, tokens, req/s, tok/s, fraction, count), or why the run
// does not have it.
struct BaseValue {
  std::optional<double> value;  // absent when unavailable
  std::string why;              // reason when unavailable
  std::string note;             // what the value means, when its name alone does not say
};

BaseValue unavailable(std::string why) { return BaseValue{std::nullopt, std::move(why), {}}; }

BaseValue distribution_value(const Slo& slo, const MetricDef& def, const RunSummary& s) {
  if (def.stream_only && !s.streamed) {
    return unavailable("the run did not stream (non-stream requests have no " + slo.metric + ")");
  }
  if (def.clock == Clock::kFromPlanned && !open_loop(s)) {
    return unavailable("only an open-loop run (--rate, a trace) has a planned send");
  }
  const bool from_planned = def.clock == Clock::kUserSees && open_loop(s);
  const Distribution& d = from_planned ? s.*(def.planned) : s.*(def.dist);
  if (d.empty()) return unavailable("no successful request has a " + slo.metric + " value");
  const std::string note = from_planned ? "from the planned send" : "";
  if (slo.stat == "mean") return {d.mean, {}, note};
  if (slo.stat == "std") return {d.std, {}, note};
  if (slo.stat == "min") return {d.min, {}, note};
  if (slo.stat == "max") return {d.max, {}, note};
  for (size_t i = 0; i < s.percentiles.size() && i < d.percentiles.size(); ++i) {
    if (s.percentiles[i] == slo.percentile) return {d.percentiles[i], {}, note};
  }
  return unavailable(slo.stat + " not computed; add it to --percentiles");
}

BaseValue base_value(const Slo& slo, const MetricDef& def, const RunSummary& s) {
  if (s.total <= 0) return unavailable("the run measured no requests");
  if (def.dist != nullptr) return distribution_value(slo, def, s);
  const std::string name = def.name;
  const bool needs_goodput = name == "goodput" || name == "good_fraction";
  if (needs_goodput && !s.goodput_enabled) return unavailable("add --goodput to compute it");
  const bool needs_window = def.kind == Kind::kReqRate || def.kind == Kind::kTokRate;
  if (needs_window && s.window_ns <= 0) return unavailable("the run window is empty");
  const auto total = static_cast<double>(s.total);
  double value = 0;
  if (name == "token_mismatch" || name == "request_mismatch") {
    if (!s.server.available) {
      return unavailable(s.server.unavailable_reason.empty()
                             ? "the server's /metrics were not read"
                             : "the server's /metrics were not read: " + s.server.unavailable_reason);
    }
    const std::optional<double> mismatch =
        name == "token_mismatch" ? s.server.token_mismatch() : s.server.request_mismatch();
    if (!mismatch) {
      return unavailable(name == "token_mismatch"
                             ? "the server exports no token counters, or usage was missing"
                             : "the server exports no finished-request counter");
    }
    value = *mismatch;
  } else if (name == "length_miss") {
    const std::optional<double> share = s.length_misses.share();
    if (!share) {
      return unavailable("no successful request had a length target that usage could verify");
    }
    value = *share;
  } else if (name == "cap_reached") {
    if (s.open_loop.sends == 0) return unavailable("only an open-loop run (--rate) has it");
    value = s.open_loop.cap_reached_share();
  } else if (name == "rate_sustained") {
    if (!open_loop(s)) return unavailable("only an open-loop run (--rate, a trace) has it");
    if (s.scheduled_rate <= 0) return unavailable("the schedule planned fewer than two sends");
    if (s.succeeded < 2) return unavailable("fewer than two requests succeeded");
    value = s.sustained_rate / s.scheduled_rate;
    return {value, {},
            fmt::format("the server sustained {:.3g} of the {:.3g} req/s asked", s.sustained_rate,
                        s.scheduled_rate)};
  } else if (name == "qps") {
    value = s.qps;
  } else if (name == "goodput") {
    value = s.goodput_rps;
  } else if (name == "output_throughput") {
    value = s.output_throughput;
  } else if (name == "total_throughput") {
    value = s.total_throughput;
  } else if (name == "error_rate") {
    value = static_cast<double>(s.failed) / total;
  } else if (name == "success_rate") {
    value = static_cast<double>(s.succeeded) / total;
  } else if (name == "good_fraction") {
    value = s.good_fraction;
  } else if (name == "failed") {
    value = static_cast<double>(s.failed);
  }
  if (!std::isfinite(value)) return unavailable("the value is not finite");
  return {value, {}, {}};
}

}  // namespace

std::string Slo::name() const { return stat.empty() ? metric : metric + "." + stat; }

namespace {

// Reads "METRIC[.STAT]" from the front of `rest` into `slo`, advancing `rest`; the metric's
// definition. Throws what `fail` makes.
template <typename Fail>
const MetricDef& take_metric(std::string_view& rest, Slo& slo, const Fail& fail) {
  size_t n = 0;
  while (n < rest.size() && ((rest[n] >= 'a' && rest[n] <= 'z') ||
                             (rest[n] >= '0' && rest[n] <= '9') || rest[n] == '_')) {
    ++n;
  }
  const std::string metric(rest.substr(0, n));
  rest.remove_prefix(n);
  if (metric.empty()) {
    throw fail("expected a metric name at the start (one of " + known_metrics() + ")");
  }
  const MetricDef* def = find_metric(metric);
  if (def == nullptr)
    throw fail(fmt::format("unknown metric '{}' (use {})", metric, known_metrics()));
  slo.metric = def->name;

  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    size_t m = 0;
    while (m < rest.size() && rest[m] != '<' && rest[m] != '>' && rest[m] != '=' &&
           rest[m] != ' ' && rest[m] != '!' && rest[m] != ':') {
      ++m;
    }
    const std::string_view stat = rest.substr(0, m);
    rest.remove_prefix(m);
    if (def->dist == nullptr) {
      throw fail(fmt::format("{} is a run-level value and takes no statistic (write e.g. {}>=...)",
                             slo.metric, slo.metric));
    }
    if (auto why = apply_stat(stat, slo)) throw fail(*why);
  } else if (def->dist != nullptr) {
    throw fail(fmt::format("{} needs a statistic, e.g. {}.p99 or {}.mean", slo.metric, slo.metric,
                           slo.metric));
  }
  return *def;
}

}  // namespace

Slo parse_metric(std::string_view text, std::string_view flag) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("{} '{}': {}", flag, text, why));
  };
  Slo slo;
  slo.expression = trim(text);
  std::string_view rest = trim(text);
  const MetricDef& def = take_metric(rest, slo, fail);
  if (!trim(rest).empty()) {
    throw fail(fmt::format("unexpected '{}' after '{}'", trim(rest), slo.name()));
  }
  // The metric's natural unit: ms for times, a plain fraction or count, tokens, req/s, tok/s.
  const std::string_view unit = def.kind == Kind::kTime ? "ms" : "";
  if (auto why = apply_unit(def, unit, slo)) throw fail(*why);
  return slo;
}

std::optional<double> metric_value(const Slo& slo, const RunSummary& summary, std::string* why,
                                   std::string* note) {
  const MetricDef* def = find_metric(slo.metric);
  if (def == nullptr) {
    if (why != nullptr) *why = "unknown metric";
    return std::nullopt;
  }
  const BaseValue base = base_value(slo, *def, summary);
  if (!base.value) {
    if (why != nullptr) *why = base.why;
    return std::nullopt;
  }
  if (note != nullptr) *note = base.note;
  return *base.value / slo.divisor;
}

bool judged_from_planned_send(const Slo& slo, const RunSummary& summary) {
  const MetricDef* def = find_metric(slo.metric);
  return def != nullptr && (def->clock == Clock::kFromPlanned ||
                            (def->clock == Clock::kUserSees && open_loop(summary)));
}

bool higher_is_better(const Slo& slo) {
  const MetricDef* def = find_metric(slo.metric);
  if (def == nullptr) return false;
  if (def->kind == Kind::kReqRate || def->kind == Kind::kTokRate) return true;
  return slo.metric == "success_rate" || slo.metric == "good_fraction";
}

Slo parse_slo(const std::string& expression) {
  const std::string_view text = trim(expression);
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--slo '{}': {}", expression, why));
  };
  if (text.empty()) throw fail("empty expression (expected e.g. 'ttft.p99<=800ms')");

  Slo slo;
  slo.expression = text;
  std::string_view rest = text;
  const MetricDef* def = &take_metric(rest, slo, fail);

  rest = trim(rest);
  const std::optional<SloOp> op = take_op(rest);
  if (!op) {
    throw fail(fmt::format("expected an operator (<=, <, >=, >, ==) after '{}'", slo.name()));
  }
  slo.op = *op;

  rest = trim(rest);
  const char* end = rest.data() + rest.size();
  auto [ptr, ec] = std::from_chars(rest.data(), end, slo.threshold);
  if (rest.empty() || ec != std::errc() || !std::isfinite(slo.threshold)) {
    throw fail(fmt::format("expected a number after '{}'", op_text(slo.op)));
  }
  rest.remove_prefix(static_cast<size_t>(ptr - rest.data()));
  if (auto why = apply_unit(*def, trim(rest), slo)) throw fail(*why);
  return slo;
}

SloResult evaluate_slo(const Slo& slo, const RunSummary& summary) {
  SloResult result;
  const std::string limit = fmt::format("limit {} {}", op_text(slo.op),
                                        with_unit(fmt::format("{}", slo.threshold), slo.unit));
  std::string why;
  std::string note;
  const std::optional<double> actual = metric_value(slo, summary, &why, &note);
  if (!actual) {
    result.text = fmt::format("{} unavailable: {}; {}", slo.name(), why, limit);
    return result;
  }
  result.available = true;
  result.actual = *actual;
  result.passed = holds(result.actual, slo.op, slo.threshold);
  result.text = fmt::format("{} = {}{}, {}", slo.name(),
                            with_unit(format_value(result.actual), slo.unit),
                            note.empty() ? "" : " (" + note + ")", limit);
  return result;
}

SloResult evaluate_slo_on_repeats(const Slo& slo, const std::vector<const RunSummary*>& repeats) {
  const std::string limit = fmt::format("limit {} {}", op_text(slo.op),
                                        with_unit(fmt::format("{}", slo.threshold), slo.unit));
  std::vector<double> values;
  std::string why;
  for (const RunSummary* summary : repeats) {
    if (const std::optional<double> value = metric_value(slo, *summary, &why)) {
      values.push_back(*value);
    }
  }
  SloResult result;
  if (values.empty()) {
    result.text = fmt::format("{} unavailable in every repeat: {}; {}", slo.name(), why, limit);
    return result;
  }
  const MeanInterval interval = mean_interval(values);
  result.available = true;
  result.actual = interval.mean;
  const bool low_holds = holds(interval.ci95_low, slo.op, slo.threshold);
  const bool high_holds = holds(interval.ci95_high, slo.op, slo.threshold);
  // Violated when no point of the interval meets the limit; for ==, when the limit is outside it.
  const bool inside = interval.ci95_low <= slo.threshold && slo.threshold <= interval.ci95_high;
  result.passed = slo.op == SloOp::kEq ? inside || low_holds : low_holds || high_holds || inside;
  const bool undecided = result.passed && !(low_holds && high_holds);
  result.text = fmt::format(
      "{} = {} (mean of {} repeats, 95 % interval [{}, {}]), {}{}", slo.name(),
      with_unit(format_value(interval.mean), slo.unit), values.size(),
      format_value(interval.ci95_low), format_value(interval.ci95_high), limit,
      undecided ? "; the limit is inside the interval: the repeats cannot tell, not a violation"
                : "");
  return result;
}

RunVerdict evaluate_slos_on_repeats(const std::string& run_name, const std::vector<Slo>& slos,
                                    const std::vector<const RunSummary*>& repeats) {
  RunVerdict verdict;
  verdict.run_name = run_name;
  for (const Slo& slo : slos) {
    verdict.results.emplace_back(slo, evaluate_slo_on_repeats(slo, repeats));
  }
  return verdict;
}

bool RunVerdict::passed() const {
  return std::all_of(results.begin(), results.end(),
                     [](const auto& entry) { return entry.second.passed; });
}

RunVerdict evaluate_slos(const std::string& run_name, const std::vector<Slo>& slos,
                         const RunSummary& summary) {
  RunVerdict verdict;
  verdict.run_name = run_name;
  for (const Slo& slo : slos) verdict.results.emplace_back(slo, evaluate_slo(slo, summary));
  return verdict;
}

std::string slo_grammar_help() {
  return "SLO grammar: METRIC[.STAT] OP NUMBER[UNIT], e.g. 'ttft.p99<=800ms', 'error_rate<=1%',\n"
         "'output_throughput>=1000'. Per-request metrics (STAT = mean|std|min|max|pNN):\n"
         "ttft, ttfat (time to first answer token, after reasoning), ttfb, tpot, itl,\n"
         "latency|e2el (unit ms|s|us required; in an open-loop run ttft, ttfat, ttfb and\n"
         "latency count from the planned send, as a user sees them: name ttft_from_send etc.\n"
         "for the actual send, ttft_from_planned etc. for the planned one), input_tokens,\n"
         "output_tokens. Run-level: qps, goodput (req/s), output_throughput, total_throughput\n"
         "(tok/s), error_rate, success_rate, good_fraction (% or a fraction), failed (count),\n"
         "token_mismatch, request_mismatch (client against the server's /metrics; % or a\n"
         "fraction), length_miss (requests whose usage differs from the input, or with\n"
         "--ignore-eos the output, they were built to have; % or a fraction), cap_reached\n"
         "(open loop: sends that found every --parallel slot busy; % or a fraction),\n"
         "rate_sustained (open loop: the rate the server sustained over the rate asked).\n"
         "OP: <= < >= > ==. Any violation exits with code 3.";
}

}  // namespace llmperf

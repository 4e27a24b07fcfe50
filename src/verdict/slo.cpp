// SLOs: parsing the `--slo` grammar (documented in slo.h and docs/ci.md) and evaluating an
// SLO against a RunSummary. Values are converted from the summary's base units (ns, fractions,
// per-second rates) into the unit the SLO was written in, and compared there.
#include "verdict/slo.h"

#include "core/text.h"
#include "metrics/catalogue.h"
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

using Kind = MetricKind;

constexpr double kRelativeEpsilon = 1e-9;

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
std::optional<std::string> apply_unit(const MetricInfo& def, std::string_view unit, Slo& slo) {
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

}  // namespace

std::string Slo::name() const { return stat.empty() ? metric : metric + "." + stat; }

namespace {

// Reads "METRIC[.STAT]" from the front of `rest` into `slo`, advancing `rest`; the metric's
// definition. Throws what `fail` makes.
template <typename Fail>
const MetricInfo& take_metric(std::string_view& rest, Slo& slo, const Fail& fail) {
  size_t n = 0;
  while (n < rest.size() && ((rest[n] >= 'a' && rest[n] <= 'z') ||
                             (rest[n] >= '0' && rest[n] <= '9') || rest[n] == '_')) {
    ++n;
  }
  const std::string metric(rest.substr(0, n));
  rest.remove_prefix(n);
  if (metric.empty()) {
    throw fail("expected a metric name at the start (one of " + metric_names() + ")");
  }
  const MetricInfo* def = find_metric_info(metric);
  if (def == nullptr)
    throw fail(fmt::format("unknown metric '{}' (use {})", metric, metric_names()));
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
    if (!def->per_request()) {
      throw fail(fmt::format("{} is a run-level value and takes no statistic (write e.g. {}>=...)",
                             slo.metric, slo.metric));
    }
    if (auto why = apply_stat(stat, slo)) throw fail(*why);
  } else if (def->per_request()) {
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
  const MetricInfo& def = take_metric(rest, slo, fail);
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
  const MetricInfo* def = find_metric_info(slo.metric);
  if (def == nullptr) {
    if (why != nullptr) *why = "unknown metric";
    return std::nullopt;
  }
  const MetricReading reading = read_metric(*def, {slo.stat, slo.percentile}, summary);
  if (!reading.value) {
    if (why != nullptr) *why = reading.why;
    return std::nullopt;
  }
  if (note != nullptr) *note = reading.note;
  return *reading.value / slo.divisor;
}

bool judged_from_planned_send(const Slo& slo, const RunSummary& summary) {
  const MetricInfo* def = find_metric_info(slo.metric);
  return def != nullptr && reads_from_planned_send(*def, summary);
}

bool higher_is_better(const Slo& slo) {
  const MetricInfo* def = find_metric_info(slo.metric);
  return def != nullptr && def->higher_is_better;
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
  const MetricInfo* def = &take_metric(rest, slo, fail);

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

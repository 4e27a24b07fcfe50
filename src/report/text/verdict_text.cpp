// Text for stdout about verdicts: the goodput line, the SLO block (PASS/FAIL per SLO and the run's
// overall verdict) and the side-by-side baseline table. Presentation only.
#include <fmt/format.h>

#include "report/internal.h"
#include "verdict/baseline.h"
#include "verdict/slo.h"

namespace llmperf {
namespace {

using report_detail::format_number;
using report_detail::verdict_name;

std::string change_text(const BaselineRow& row) {
  if (!row.change) return "-";
  if (row.change_in_points) return fmt::format("{:+.2f} pp", *row.change);
  return fmt::format("{:+.1f}%", *row.change);
}

std::string percent_text(double fraction) { return format_number(fraction * 100) + "%"; }

std::string bounds_text(const GoodputSpec& spec) {
  std::string out;
  const auto add = [&](const char* key, const std::optional<int64_t>& ns) {
    if (!ns) return;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} <= {} ms", key, format_number(static_cast<double>(*ns) / 1e6));
  };
  add("TTFT", spec.ttft_ns);
  add("TTFAT", spec.ttfat_ns);
  add("TPOT", spec.tpot_ns);
  add("E2EL", spec.e2el_ns);
  return out;
}

}  // namespace

std::string render_goodput_text(const RunSummary& s) {
  if (!s.goodput_enabled) return "";
  return fmt::format("Goodput ({}): {} good of {} requests ({}), {} req/s\n",
                     bounds_text(s.goodput_spec), s.good_requests, s.total,
                     percent_text(s.good_fraction), format_number(s.goodput_rps));
}

std::string render_verdicts_text(const RunSummary& summary, const RunVerdict& verdict) {
  std::string out = render_goodput_text(summary);
  if (verdict.results.empty()) return out;
  std::vector<std::vector<std::string>> rows;
  size_t failed = 0;
  for (const auto& [slo, result] : verdict.results) {
    failed += result.passed ? 0 : 1;
    rows.push_back({result.passed ? "PASS" : "FAIL", slo.expression, result.text});
  }
  out += report_detail::render_table({"SLO", "Expression", "Result"}, rows, {1, 2});
  if (failed == 0) {
    out += fmt::format("SLO verdict: PASS ({} of {} met)\n", verdict.results.size(),
                       verdict.results.size());
  } else {
    out += fmt::format("SLO verdict: FAIL ({} of {} violated)\n", failed, verdict.results.size());
  }
  return out;
}

std::string render_baseline_table(const BaselineComparison& c) {
  const std::string tolerance = format_number(c.tolerance * 100) + "%";
  std::string out = fmt::format("Baseline: {}", c.baseline_path);
  if (!c.baseline_description.empty()) out += fmt::format(" ({})", c.baseline_description);
  out += fmt::format(", tolerance {}\n", tolerance);

  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> regressions;
  for (const BaselineRow& row : c.rows) {
    rows.push_back({row.metric, format_number(row.baseline), format_number(row.current),
                    change_text(row), verdict_name(row.verdict)});
    if (row.verdict == MetricVerdict::kRegression) regressions.push_back(row.metric);
  }
  out += report_detail::render_table({"Metric", "Baseline", "Current", "Change", "Verdict"}, rows,
                                     {4});
  if (regressions.empty()) {
    out += fmt::format("Baseline verdict: PASS (no regression beyond {})\n", tolerance);
  } else {
    std::string names;
    for (const std::string& name : regressions) names += (names.empty() ? "" : ", ") + name;
    out += fmt::format("Baseline verdict: FAIL ({} regression{} beyond {}: {})\n",
                       regressions.size(), regressions.size() == 1 ? "" : "s", tolerance, names);
  }
  return out;
}

namespace report_detail {

const char* verdict_name(MetricVerdict verdict) {
  switch (verdict) {
    case MetricVerdict::kOk:
      return "ok";
    case MetricVerdict::kRegression:
      return "REGRESSION";
    case MetricVerdict::kImproved:
      return "improved";
    case MetricVerdict::kNotJudged:
      return "-";
  }
  return "-";
}

}  // namespace report_detail
}  // namespace llmperf

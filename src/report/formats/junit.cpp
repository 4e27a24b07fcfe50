// JUnit XML for CI systems: one <testsuite> per run and one <testcase> per SLO, so a failed SLO
// shows up as a failed test. Follows the common JUnit schema (Jenkins, GitLab, GitHub actions):
// <testsuites> / <testsuite name tests failures errors skipped time> / <testcase classname name
// time> with <failure message type> or <system-out>. --baseline db:'s judgements follow, one suite
// per run (render_junit in report.h).
#include <fmt/format.h>

#include "report/html/xml_escape.h"
#include "verdict/history_baseline.h"
#include "verdict/slo.h"

namespace llmperf {
namespace {

size_t failures(const RunVerdict& verdict) {
  size_t count = 0;
  for (const auto& entry : verdict.results) count += entry.second.passed ? 0 : 1;
  return count;
}

// --baseline db:'s judgements of one run as a <testsuite>; adds its tests and failures.
std::string history_suite(const HistoryComparison& c, size_t& tests, size_t& failed) {
  const std::string run = xml_escape(c.run_name);
  std::string cases;
  size_t suite_tests = 0, suite_failed = 0, skipped = 0;
  const auto add_case = [&](const std::string& name, const std::string& body) {
    ++suite_tests;
    cases += fmt::format("    <testcase classname=\"llmperf.{}.baseline_db\" name=\"{}\" time=\"0\">\n{}"
                         "    </testcase>\n", run, xml_escape(name), body);
  };
  if (!c.error.empty()) {
    ++suite_failed;
    const std::string text = xml_escape(c.error);
    add_case("history", fmt::format("      <failure message=\"{}\" type=\"baseline_unreadable\">{}"
                                     "</failure>\n", text, text));
  }
  for (const HistoryJudgement& row : c.rows) {
    const std::string text = xml_escape(row.text);
    if (row.verdict == MetricVerdict::kRegression) {
      ++suite_failed;
      add_case(row.metric, fmt::format("      <failure message=\"{}\" type=\"baseline_regression\">"
                                       "{}</failure>\n", text, text));
    } else if (row.verdict == MetricVerdict::kNotJudged) {
      ++skipped;
      add_case(row.metric, fmt::format("      <skipped message=\"{}\"/>\n", text));
    } else {
      add_case(row.metric, fmt::format("      <system-out>{}</system-out>\n", text));
    }
  }
  tests += suite_tests;
  failed += suite_failed;
  return fmt::format(
             "  <testsuite name=\"llmperf {} baseline db\" tests=\"{}\" failures=\"{}\" "
             "errors=\"0\" skipped=\"{}\" time=\"0\">\n",
             run, suite_tests, suite_failed, skipped) +
         cases + "  </testsuite>\n";
}

}  // namespace

std::string render_junit(const std::vector<RunVerdict>& verdicts,
                         const std::vector<HistoryComparison>& history) {
  size_t tests = 0;
  size_t failed = 0;
  for (const RunVerdict& verdict : verdicts) {
    tests += verdict.results.size();
    failed += failures(verdict);
  }
  std::string history_suites;
  for (const HistoryComparison& c : history) history_suites += history_suite(c, tests, failed);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"llmperf\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                     tests, failed);
  for (const RunVerdict& verdict : verdicts) {
    const std::string run = xml_escape(verdict.run_name);
    out += fmt::format(
        "  <testsuite name=\"llmperf {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
        "skipped=\"0\" time=\"0\">\n",
        run, verdict.results.size(), failures(verdict));
    for (const auto& [slo, result] : verdict.results) {
      out += fmt::format("    <testcase classname=\"llmperf.{}\" name=\"{}\" time=\"0\">\n", run,
                         xml_escape(slo.expression));
      const std::string text = xml_escape(result.text);
      if (result.passed) {
        out += fmt::format("      <system-out>{}</system-out>\n", text);
      } else {
        const char* type = result.available ? "slo_violation" : "slo_unavailable";
        out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", text, type,
                           text);
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += history_suites;
  out += "</testsuites>\n";
  return out;
}

}  // namespace llmperf

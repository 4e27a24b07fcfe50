// JUnit XML for CI systems: one <testsuite> per run and one <testcase> per SLO, so a failed SLO
// shows up as a failed test. Follows the common JUnit schema (Jenkins, GitLab, GitHub actions):
// <testsuites> / <testsuite name tests failures errors skipped time> / <testcase classname name
// time> with <failure message type> or <system-out>.
#include <fmt/format.h>

#include "report/html/xml_escape.h"
#include "verdict/slo.h"

namespace llmperf {
namespace {

size_t failures(const RunVerdict& verdict) {
  size_t count = 0;
  for (const auto& entry : verdict.results) count += entry.second.passed ? 0 : 1;
  return count;
}

}  // namespace

std::string render_junit(const std::vector<RunVerdict>& verdicts) {
  size_t tests = 0;
  size_t failed = 0;
  for (const RunVerdict& verdict : verdicts) {
    tests += verdict.results.size();
    failed += failures(verdict);
  }
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
  out += "</testsuites>\n";
  return out;
}

}  // namespace llmperf

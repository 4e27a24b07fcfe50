// JUnit XML for CI systems: one <testsuite> per run and one <testcase> per SLO, so a failed SLO
// shows up as a failed test. Follows the common JUnit schema (Jenkins, GitLab, GitHub actions):
// <testsuites> / <testsuite name tests failures errors skipped time> / <testcase classname name
// time> with <failure message type> or <system-out>.
#include <fmt/format.h>

#include "llmperf/slo.h"

namespace llmperf {
namespace {

// XML 1.0 text and attribute escaping. Control characters that XML 1.0 forbids become '?';
// tab, newline and carriage return are written as character references so attributes keep them.
std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) ? '?' : c;
    }
  }
  return out;
}

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

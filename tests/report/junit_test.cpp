// JUnit XML: document structure (one testsuite per run, one testcase per SLO, a failure element
// per violated SLO), counts in the attributes, XML escaping, and validation with `xmllint` when it
// is installed.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "report/report.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos;
       pos = text.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

RunSummary summary_with(int64_t failed) {
  RunSummary s;
  s.total = 100;
  s.failed = failed;
  s.succeeded = 100 - failed;
  s.window_ns = 1'000'000'000;
  s.qps = static_cast<double>(s.succeeded);
  return s;
}

std::vector<RunVerdict> two_runs() {
  const std::vector<Slo> slos = {parse_slo("error_rate<=1%"), parse_slo("qps>=90"),
                                 parse_slo("ttft.p99<=800ms")};
  return {evaluate_slos("parallel_8_number_100", slos, summary_with(0)),
          evaluate_slos("parallel_16_number_100", slos, summary_with(20))};
}

// Checks the document with `xmllint --noout` when xmllint is installed (skipped otherwise).
void expect_valid_xml(const std::string& xml) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return;
  const fs::path path = fs::temp_directory_path() / ("llmperf_junit_" + std::to_string(getpid()));
  std::ofstream(path) << xml;
  const std::string command = "xmllint --noout '" + path.string() + "'";
  const bool accepted = std::system(command.c_str()) == 0;
  fs::remove(path);
  EXPECT_TRUE(accepted) << xml;
}

TEST(Junit, OneSuitePerRunOneCasePerSlo) {
  const std::string xml = render_junit(two_runs());
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0), 0U) << xml;
  EXPECT_EQ(count(xml, "<testsuites "), 1U);
  EXPECT_EQ(count(xml, "</testsuites>"), 1U);
  EXPECT_EQ(count(xml, "<testsuite "), 2U);
  EXPECT_EQ(count(xml, "<testcase "), 6U);
  EXPECT_EQ(count(xml, "</testcase>"), 6U);
  // Run 1 fails only ttft (unavailable); run 2 fails all three.
  EXPECT_EQ(count(xml, "<failure "), 4U);
  EXPECT_EQ(count(xml, "<system-out>"), 2U);
  EXPECT_NE(xml.find("<testsuites name=\"llmperf\" tests=\"6\" failures=\"4\""), std::string::npos);
  EXPECT_NE(
      xml.find("<testsuite name=\"llmperf parallel_8_number_100\" tests=\"3\" failures=\"1\""),
      std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find("<testsuite name=\"llmperf parallel_16_number_100\" tests=\"3\" failures=\"3\""),
      std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"llmperf.parallel_16_number_100\" "
                     "name=\"error_rate&lt;=1%\" time=\"0\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find("<failure message=\"error_rate = 20%, limit &lt;= 1%\" type=\"slo_violation\">"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("type=\"slo_unavailable\""), std::string::npos);

  expect_valid_xml(xml);
}

TEST(Junit, EscapesEverySpecialCharacter) {
  RunVerdict verdict;
  verdict.run_name = "a&b<c>\"d'e";
  Slo slo = parse_slo("qps>=1");
  slo.expression = "x<y & \"q\" 'r' >z";
  SloResult result;
  result.text = "bad <&> \"text\"\nline 2\x01";
  verdict.results.emplace_back(slo, result);
  const std::string xml = render_junit({verdict});
  EXPECT_NE(xml.find("name=\"llmperf a&amp;b&lt;c&gt;&quot;d&#39;e\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"x&lt;y &amp; &quot;q&quot; &#39;r&#39; &gt;z\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("bad &lt;&amp;&gt; &quot;text&quot;&#10;line 2?"), std::string::npos) << xml;
  EXPECT_EQ(xml.find('\x01'), std::string::npos);

  expect_valid_xml(xml);
}

TEST(Junit, EmptyInputsAreValid) {
  const std::string none = render_junit({});
  EXPECT_NE(none.find("<testsuites name=\"llmperf\" tests=\"0\" failures=\"0\""),
            std::string::npos);
  RunVerdict no_slos;
  no_slos.run_name = "run";
  const std::string empty_suite = render_junit({no_slos});
  EXPECT_NE(empty_suite.find("tests=\"0\" failures=\"0\""), std::string::npos);
  expect_valid_xml(none);
  expect_valid_xml(empty_suite);
}

TEST(Junit, HistoryBaselineJudgementsAreASuitePerRun) {
  RunVerdict verdict;
  verdict.run_name = "parallel_1_number_10";
  const std::string without = render_junit({verdict});
  EXPECT_EQ(render_junit({verdict}, {}), without);  // nothing changes without --baseline db:
  std::vector<HistoryValue> history;
  for (int i = 0; i < 5; ++i) history.push_back({"r" + std::to_string(i), "t", 200.0 + i});
  HistoryComparison comparison;
  comparison.run_name = "parallel_1_number_10";
  comparison.rows.push_back(judge_against_history("ttft.p99", "ms", history, 900, {}));
  comparison.rows.push_back(judge_against_history("tpot.p99", "ms", history, 201, {}));
  comparison.rows.push_back(judge_against_history("itl.p99", "ms", {}, 1, {}));
  const std::string xml = render_junit({verdict}, {comparison});
  EXPECT_NE(xml.find("<testsuites name=\"llmperf\" tests=\"3\" failures=\"1\""),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<testsuite name=\"llmperf parallel_1_number_10 baseline db\" tests=\"3\" "
                     "failures=\"1\" errors=\"0\" skipped=\"1\""),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("type=\"baseline_regression\">ttft.p99 = 900 ms: REGRESSION"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"itl.p99 = 1 ms: not judged"), std::string::npos) << xml;
  comparison.rows.clear();
  comparison.error = "h.db: not a history database";
  const std::string unreadable = render_junit({}, {comparison});
  EXPECT_NE(unreadable.find("type=\"baseline_unreadable\""), std::string::npos) << unreadable;
  expect_valid_xml(xml);
  expect_valid_xml(unreadable);
}

}  // namespace
}  // namespace llmperf

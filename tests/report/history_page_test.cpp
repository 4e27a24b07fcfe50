// `llmperf history`'s outputs (report/history/history_page.h) from hand-made runs: the trend
// table (oldest first, units in the headers, "-" for a missing value), the SLO limit read from a
// run's stored config and converted to the figure's unit, and history.html: one chart per metric
// with the runs' dots linked to their report.html, the rolling median, the noise band and the SLO
// line, every text escaped, nothing fetched (no scripts, sources, links or imports); rendered in headless
// Chromium (skipped, with a message, when /usr/bin/chromium is absent).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "chromium_support.h"
#include "report/history/history_page.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

std::string history_page_read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// 12 runs of TTFT p99 near 200 ms (the last at 300 ms), throughput near 5000 tok/s, the error
// rate 0; the first run's directory holds a report.html, the runs have --slo 'ttft.p99<=0.25s'
// and 'error_rate<=1%' in their config; one run's name is markup.
std::vector<HistoryEntry> history_page_runs(const fs::path& dir) {
  std::vector<HistoryEntry> runs;
  for (int i = 0; i < 12; ++i) {
    HistoryEntry run;
    run.id = i + 1;
    run.run_id = "run-" + std::to_string(i);
    run.started_at = "2026-11-" + std::to_string(10 + i) + "T08:00:00Z";
    run.started_unix = 1.8e9 + i * 86400.0;
    run.name = i == 3 ? "<b>smoke</b>" : "smoke";
    run.run_label = "parallel_4_number_100";
    run.directory = (dir / ("run" + std::to_string(i))).string();
    run.config = R"({"slo": ["ttft.p99<=0.25s", "error_rate<=1%"]})";
    run.tags = {{"env", "staging"}, {"commit", "c" + std::to_string(i)}};
    const double ttft = i == 11 ? 300 : 200 + (i % 3) * 4;
    run.figures["ttft.p99"] = {ttft, "ms"};
    run.figures["output_throughput"] = {5000.0 - i, "tok/s"};
    run.figures["error_rate"] = {0.0, ""};
    if (i != 5) run.figures["tpot.p99"] = {20.0, "ms"};
    runs.push_back(std::move(run));
  }
  fs::create_directories(dir / "run0");
  std::ofstream(dir / "run0" / "report.html") << "<html></html>";
  fs::create_directories(dir / "run1");
  return runs;
}

class HistoryPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_history_page_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    runs_ = history_page_runs(dir_);
    options_.db = "ci/history.db";
    options_.name = "smoke";
    html_ = render_history_html(runs_, options_, dir_.string());
    std::ofstream(dir_ / "history.html") << html_;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::vector<HistoryEntry> runs_;
  HistoryCommandOptions options_;
  std::string html_;
};

TEST_F(HistoryPageTest, TableHasOneRowPerRunOldestFirst) {
  const std::string table = render_history_table(runs_, default_history_metrics());
  EXPECT_NE(table.find("ttft.p99 (ms)"), std::string::npos) << table;
  EXPECT_NE(table.find("output_throughput (tok/s)"), std::string::npos) << table;
  EXPECT_NE(table.find("env=staging,commit=c0"), std::string::npos) << table;
  EXPECT_LT(table.find("2026-11-10T08:00:00Z"), table.find("2026-11-21T08:00:00Z"));
  EXPECT_NE(table.find("parallel_4_number_100"), std::string::npos);
  EXPECT_EQ(render_history_table({}, default_history_metrics()), "No run matches.\n");
}

TEST_F(HistoryPageTest, SloLimitIsConvertedToTheFigureUnit) {
  const std::string config = R"({"slo": ["ttft.p99<=0.25s", "error_rate<=1%", "qps>=2"]})";
  EXPECT_DOUBLE_EQ(*history_slo_limit(config, "ttft.p99", "ms"), 250);
  EXPECT_DOUBLE_EQ(*history_slo_limit(config, "error_rate", ""), 0.01);
  EXPECT_DOUBLE_EQ(*history_slo_limit(config, "qps", "req/s"), 2);
  EXPECT_FALSE(history_slo_limit(config, "tpot.p99", "ms"));
  EXPECT_FALSE(history_slo_limit("not json", "ttft.p99", "ms"));
  EXPECT_FALSE(history_slo_limit(R"({"slo": ["nonsense"]})", "ttft.p99", "ms"));
}

TEST_F(HistoryPageTest, PageHasAChartPerMetricWithLinksBandAndSlo) {
  EXPECT_EQ(html_.find("<script"), std::string::npos);
  for (const char* fetch : {"src=", "href=\"http", "@import", "url(", "<link"}) {
    EXPECT_EQ(html_.find(fetch), std::string::npos) << fetch;  // nothing fetched
  }
  EXPECT_EQ(html_.find("<b>smoke</b>"), std::string::npos);  // escaped
  size_t charts = 0;
  for (size_t at = html_.find("<svg"); at != std::string::npos; at = html_.find("<svg", at + 1)) {
    ++charts;
  }
  EXPECT_EQ(charts, default_history_metrics().size());
  EXPECT_NE(html_.find("<a href=\"run0/report.html\">"), std::string::npos);  // report.html
  EXPECT_NE(html_.find("<a href=\"run1\">"), std::string::npos);  // no report.html: the directory
  EXPECT_EQ(html_.find("href=\"run2"), std::string::npos);       // not on disk: not linked
  EXPECT_NE(html_.find("<title>run-11 · 2026-11-21T08:00:00Z"), std::string::npos);
  EXPECT_NE(html_.find("rolling median"), std::string::npos);
  EXPECT_NE(html_.find("noise band (± 3 × MAD)"), std::string::npos);
  EXPECT_NE(html_.find("SLO limit"), std::string::npos);
  EXPECT_NE(html_.find("ci/history.db · 12 run(s), name smoke"), std::string::npos);
}

TEST_F(HistoryPageTest, PageRendersInChromium) {
  if (!fs::exists(testing::kChromium)) {
    GTEST_SKIP() << "SKIPPED: " << testing::kChromium << " is not installed (bash scripts/setup.sh "
                 << "installs it); history.html was not rendered";
  }
  const fs::path html = dir_ / "history.html";
  const fs::path png = dir_ / "history.png";
  const std::string dom = testing::run_chromium(html, png, dir_ / "profile");
  ASSERT_TRUE(fs::exists(png)) << "Chromium wrote no screenshot of " << html;
  const std::string bytes = history_page_read(png);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_GT(bytes.size(), 30'000U) << png;  // a blank page compresses to a few KB
  for (const char* text : {"Run history", "ttft.p99 (ms)", "output_throughput (tok/s)",
                           "rolling median", "SLO limit", "run-11", "&lt;b&gt;smoke&lt;/b&gt;"}) {
    EXPECT_NE(dom.find(text), std::string::npos) << text;
  }
  EXPECT_NE(dom.find("<a href=\"run0/report.html\">"), std::string::npos);
}

}  // namespace
}  // namespace llmperf

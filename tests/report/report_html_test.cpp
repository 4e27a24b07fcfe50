// report.html for a run and a sweep: self-contained (no scripts, no external resources), every
// label escaped, and rendered by headless Chromium to a non-blank PNG whose DOM holds the expected
// chart titles. The Chromium part is skipped, with a message, only when /usr/bin/chromium is
// absent.
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "chromium_support.h"

#include "plan/stage_options.h"
#include "metrics/metrics.h"
#include "report/report.h"
#include "run_files_support.h"
#include "test_units.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;


std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// 40 streamed requests, 4 in flight, 5 output tokens each; every 10th fails with HTTP 503.
std::vector<RequestRecord> records() {
  std::vector<RequestRecord> out;
  for (int i = 0; i < 40; ++i) {
    RequestRecord r;
    r.id = static_cast<uint64_t>(i);
    r.sent_ns = r.planned_ns = (i / 4) * 120 * kMs + (i % 4) * kMs;
    if (i % 10 == 9) {
      r.error = ErrorKind::kHttp;
      r.http_status = 503;
      r.error_message = "HTTP 503: <overloaded> & busy";
      r.first_byte_ns = r.end_ns = r.sent_ns + 5 * kMs;
    } else {
      r.first_byte_ns = r.sent_ns + 20 * kMs;
      r.first_content_ns = r.sent_ns + (30 + i % 7) * kMs;
      for (int c = 0; c < 5; ++c) r.chunk_ns.push_back(r.first_content_ns + c * (10 + i % 3) * kMs);
      r.last_event_ns = r.chunk_ns.back();
      r.end_ns = r.last_event_ns + kMs;
      r.input_tokens = 20;
      r.output_tokens = 5;
      r.input_source = r.output_source = TokenSource::kUsage;
      r.http_status = 200;
    }
    out.push_back(std::move(r));
  }
  return out;
}

class ReportHtmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_html_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    config_.target.model = "通义千问 <Qwen> & \"co\"";
    config_.target.url = "http://127.0.0.1:8000/v1/chat/completions";
    config_.target.api_key = "sk-SECRET-123456";
    RunInfo info;
    info.parallel = 4;
    info.number = 40;
    info.output_dir = (dir_ / "parallel_4_number_40").string();
    info.started_at = "2026-11-21T12:48:33Z";
    const auto recs = records();
    SweepRow row{info, summarize(recs, MetricsOptions{})};
    write_run_with_records(report_options(config_), row.info, row.summary, recs);
    SweepRow second = row;
    second.info.parallel = 8;
    write_sweep_outputs(dir_.string(), {row, second});
  }
  void TearDown() override { fs::remove_all(dir_); }

  void expect_renders(const fs::path& html, const std::vector<std::string>& titles) {
    if (!fs::exists(testing::kChromium)) {
      GTEST_SKIP() << "SKIPPED: " << testing::kChromium << " is not installed (bash scripts/setup.sh "
                   << "installs it); report.html was not rendered";
    }
    const fs::path png = dir_ / (html.parent_path().filename().string() + ".png");
    const std::string dom = testing::run_chromium(html, png, dir_ / "profile");
    ASSERT_TRUE(fs::exists(png)) << "Chromium wrote no screenshot of " << html;
    const std::string bytes = read(png);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    // A blank 1280x2000 page compresses to a few KB; charts, text and tables take far more.
    EXPECT_GT(bytes.size(), 40'000U) << png;
    std::set<char> distinct(bytes.begin() + static_cast<long>(bytes.size() / 2),
                            bytes.begin() + static_cast<long>(bytes.size() / 2) + 512);
    EXPECT_GT(distinct.size(), 64U) << "the compressed image data looks uniform";

    for (const auto& title : titles) EXPECT_NE(dom.find(title), std::string::npos) << title;
  }

  Config config_;
  fs::path dir_;
};

TEST_F(ReportHtmlTest, RunPageIsSelfContainedAndEscaped) {
  const std::string html = read(dir_ / "parallel_4_number_40" / "report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://www.w3.org/2000/svg\" href"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("sk-SECRET-123456"), std::string::npos);
  EXPECT_NE(html.find("通义千问 &lt;Qwen&gt; &amp; &quot;co&quot;"), std::string::npos);
  EXPECT_EQ(html.find("<Qwen>"), std::string::npos);
  EXPECT_NE(html.find("HTTP 503: &lt;overloaded&gt; &amp; busy"), std::string::npos);
  EXPECT_NE(html.find("Noto Sans CJK SC"), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  for (const char* title :
       {"TTFT distribution (CDF)", "ITL distribution (CDF)", "Latency distribution (CDF)",
        "Completed requests", "Output tokens/s over the run", "Requests in flight over the run",
        "Failures by kind"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
}

TEST_F(ReportHtmlTest, RunPageRendersInChromium) {
  expect_renders(dir_ / "parallel_4_number_40" / "report.html",
                 {"TTFT distribution (CDF)", "Requests in flight over the run", "Failures by kind",
                  "通义千问"});
}

TEST_F(ReportHtmlTest, SweepPageRendersInChromium) {
  const std::string html = read(dir_ / "report.html");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("Sweep table"), std::string::npos);
  expect_renders(dir_ / "report.html", {"Request throughput", "Token throughput",
                                        "End-to-end latency", "Time to first token",
                                        "Time per output token", "Failed requests", "Sweep table"});
}

}  // namespace
}  // namespace llmperf

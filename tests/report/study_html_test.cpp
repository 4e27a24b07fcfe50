// study.html: self-contained (no scripts, no external resources), drawn by report.html's chart code
// (its page shell and SVG charts), every text from a log or a command escaped, with the charts of
// the metrics across the trials (trial labels on the x axis), the objective against each parameter,
// the two Pareto fronts (the front's points joined and labelled) and the failed configurations with
// their log tails; and rendered by headless Chromium to a non-blank PNG whose DOM holds the chart
// titles. The Chromium part is skipped, with a message, only when /usr/bin/chromium is absent.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "chromium_support.h"

#include "report/study/study_files.h"
#include "report/study/study_html.h"
#include "study/study_file.h"
#include "study/trial.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;


StudyInfo study_html_info() {
  StudyInfo info;
  info.spec.serve =
      "vllm serve q --port {port} --max-num-batched-tokens {mnbt} "
      "--enable-chunked-prefill {cp} --gpu-memory-utilization {gmu}";
  info.spec.params = {"cp=true,false", "mnbt=64,128,256,512,2048,4096,8192", "gmu=float:0.8:0.9:2"};
  info.started = "2026-12-01T10:00:00Z";
  info.version = "llmperf 0.1.0";
  info.objective = "output_throughput";
  info.unit = "tok/s";
  info.strategy = "grid";
  return info;
}

// The chunked-prefill study of the field report: 14 configurations; without chunked prefill the
// budgets below the model's length (2048) refuse to start; with it a smaller budget gives a longer
// TTFT and a shorter ITL. The largest budget misses the TTFT SLO.
std::vector<TrialRecord> study_html_trials() {
  const char* budgets[] = {"64", "128", "256", "512", "2048", "4096", "8192"};
  std::vector<TrialRecord> trials;
  int64_t index = 0;
  for (const char* cp : {"true", "false"}) {
    for (const char* mnbt : budgets) {
      TrialRecord t;
      t.trial = index;
      t.label = std::to_string(index) + "-" + (std::string(cp) == "true" ? "enable" : "disable") +
                "-" + mnbt;
      const std::string gmu = index % 2 ? "0.9" : "0.8";
      t.params = {{"cp", cp}, {"mnbt", mnbt}, {"gmu", gmu}};
      t.server_command = "vllm serve q --port 4100 --max-num-batched-tokens " + std::string(mnbt) +
                         " --enable-chunked-prefill " + cp + " --served-model-name \"<q & a>\"";
      const double budget = std::stod(mnbt);
      if (std::string(cp) == "false" && budget < 2048) {
        t.status = TrialStatus::kStartFailed;
        t.reason = "ValueError: max_num_batched_tokens (" + std::string(mnbt) +
                   ") is smaller than max_model_len (2048)";
        t.log_tail = {"INFO 12-01 loading weights", "<script>alert('log')</script>", t.reason};
        t.server_log = "trial_" + t.label + "/server.log";
      } else {
        t.status = budget == 8192 ? TrialStatus::kSloViolated : TrialStatus::kOk;
        if (budget == 8192) t.reason = "ttft.p99 = 2500 ms, limit <= 2000 ms";
        const double output = 600 + 150 * std::log2(budget / 64) + (t.trial > 6 ? 50 : 0);
        const double ttft = 3000 / std::sqrt(budget / 64) + budget / 4;
        t.objective = output;
        t.metrics = {{"ttft.p50", ttft / 2},
                     {"ttft.p99", ttft},
                     {"itl.p50", 8 + budget / 1024},
                     {"itl.p99", 20 + budget / 512},
                     {"tpot.p50", 9 + budget / 1024},
                     {"tpot.p99", 18 + budget / 512},
                     {"output_throughput", output},
                     {"total_throughput", output * 2.5},
                     {"concurrency", 100},
                     {"failed", 0}};
        t.gpu = {{0, 19344 + static_cast<int64_t>(budget), 46068}};
      }
      trials.push_back(std::move(t));
      ++index;
    }
  }
  return trials;
}

std::string study_html_read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class StudyHtmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_study_html_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    write_study_outputs(dir_.string(), study_html_info(), study_html_trials());
    html_ = study_html_read(dir_ / "study.html");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string html_;
};

TEST_F(StudyHtmlTest, PageIsSelfContainedAndEscaped) {
  EXPECT_EQ(html_.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_EQ(html_.find("<script"), std::string::npos);
  EXPECT_EQ(html_.find("<link"), std::string::npos);
  EXPECT_EQ(html_.find("@import"), std::string::npos);
  EXPECT_EQ(html_.find("url("), std::string::npos);
  EXPECT_EQ(html_.find("nan"), std::string::npos);
  EXPECT_EQ(html_.find("inf\""), std::string::npos);
  EXPECT_NE(html_.find("&lt;script&gt;alert(&#39;log&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html_.find("--served-model-name &quot;&lt;q &amp; a&gt;&quot;"), std::string::npos);
  EXPECT_EQ(html_.find("<q & a>"), std::string::npos);
  // report.html's page shell and chart code.
  EXPECT_NE(html_.find("Noto Sans CJK SC"), std::string::npos);
  EXPECT_NE(html_.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
}

TEST_F(StudyHtmlTest, PageHasEveryChartTheTableAndTheBestConfiguration) {
  for (const char* title :
       {"TTFT across the trials", "ITL across the trials", "TPOT across the trials",
        "Throughput across the trials", "The objective across the trials", "GPU memory at its peak",
        "The objective against cp", "The objective against mnbt", "The objective against gmu",
        "Output tok/s per user against output tok/s", "Output tok/s against TTFT p99",
        "Configurations that did not end ok", "Best configuration"}) {
    EXPECT_NE(html_.find(title), std::string::npos) << title;
  }
  // The trials in label order on the x axis (turned: fourteen do not fit side by side).
  const size_t first = html_.find(">0-enable-64</text>");
  const size_t last = html_.find(">13-disable-8192</text>");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  EXPECT_LT(first, last);
  EXPECT_NE(html_.find("rotate(-40"), std::string::npos);
  // The categories of mnbt in the order of its choices.
  const size_t mnbt = html_.find("The objective against mnbt</text>");
  ASSERT_NE(mnbt, std::string::npos);
  EXPECT_LT(html_.find(">64</text>", mnbt), html_.find(">8192</text>", mnbt));
  // The best: trial 12 (disable-4096), not 13 (higher, but it missed the SLO).
  EXPECT_NE(html_.find("<b>12-disable-4096</b>"), std::string::npos);
  // The failed configurations: reason and the log's last lines.
  EXPECT_NE(html_.find("ValueError: max_num_batched_tokens (64) is smaller than max_model_len "
                       "(2048)"),
            std::string::npos);
  EXPECT_NE(html_.find("trial_7-disable-64/server.log"), std::string::npos);
  // The per-user front's points are labelled (Series::labels: class "pl").
  EXPECT_NE(html_.find("class=\"pl\""), std::string::npos);
}

// Issue 37: the best configuration's command as a user can paste it, {port} left as it is.
TEST_F(StudyHtmlTest, BestServerCommandIsTheOneToPaste) {
  std::vector<TrialRecord> trials = study_html_trials();
  for (TrialRecord& t : trials) t.server_command_template = "vllm serve q --port {port} -x";
  const std::string html = render_study_html(study_html_info(), trials);
  EXPECT_NE(html.find("<p>The server command (<code>{port}</code>: the port to serve on):</p>"
                      "<pre style=\"white-space:pre-wrap\">vllm serve q --port {port} -x</pre>"),
            std::string::npos);
}

// Issue 39: the ties within noise and their tie-break under the best configuration, and the
// Pareto front of output tok/s per GPU against output tok/s per user with GPU counts.
TEST_F(StudyHtmlTest, TiesAndThePerGpuFrontAreShown) {
  std::vector<TrialRecord> trials = study_html_trials();
  EXPECT_EQ(html_.find("tied within noise"), std::string::npos);
  EXPECT_EQ(html_.find("<h2>Per GPU</h2>"), std::string::npos);
  for (TrialRecord& t : trials) {
    if (!t.objective) continue;
    t.ci95_low = *t.objective - 100;
    t.ci95_high = *t.objective + 100;
    t.gpus = t.trial % 2 ? 1 : 2;
    t.metrics["output_throughput_per_gpu"] = *t.objective / *t.gpus;
  }
  const std::string html = render_study_html(study_html_info(), trials);
  // Trial 12 (1550, [1450, 1650]) leads; trials 11 (1400), 5 (1350) and 4 (1200) reach it
  // within their +-100. 11 and 5 run on 1 GPU, and 11 used less GPU memory (21392 MiB): the best.
  EXPECT_NE(html.find("<li>tied within noise: 11-disable-2048, 5-enable-4096, 4-enable-2048, "
                      "12-disable-4096 (their 95 % intervals of output_throughput overlap "
                      "12-disable-4096&#39;s [1450, 1650])</li>"),
            std::string::npos)
      << html.substr(html.find("Best configuration"), 1000);
  EXPECT_NE(html.find("<li>tie-break gpus:min,gpu_memory:min: 11-disable-2048 (gpu_memory 21392 "
                      "MiB), over the leader 12-disable-4096</li>"),
            std::string::npos);
  EXPECT_NE(html.find("<b>11-disable-2048</b>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Per GPU</h2>"), std::string::npos);
  EXPECT_NE(html.find("Output tok/s per GPU against output tok/s per user</text>"),
            std::string::npos);
  EXPECT_NE(html.find("95 % CI"), std::string::npos);
}

TEST_F(StudyHtmlTest, RenderIsTheFileWritten) {
  EXPECT_EQ(render_study_html(study_html_info(), study_html_trials()), html_);
}

TEST_F(StudyHtmlTest, StudyPageRendersInChromium) {
  if (!fs::exists(testing::kChromium)) {
    GTEST_SKIP() << "SKIPPED: " << testing::kChromium << " is not installed (bash scripts/setup.sh "
                 << "installs it); study.html was not rendered";
  }
  const fs::path html = dir_ / "study.html";
  const fs::path png = dir_ / "study.png";
  const std::string dom = testing::run_chromium(html, png, dir_ / "profile");
  ASSERT_TRUE(fs::exists(png)) << "Chromium wrote no screenshot of " << html;
  const std::string bytes = study_html_read(png);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  // A blank 1280x2000 page compresses to a few KB; charts, text and tables take far more.
  EXPECT_GT(bytes.size(), 40'000U) << png;
  std::set<char> distinct(bytes.begin() + static_cast<long>(bytes.size() / 2),
                          bytes.begin() + static_cast<long>(bytes.size() / 2) + 512);
  EXPECT_GT(distinct.size(), 64U) << "the compressed image data looks uniform";

  for (const char* title :
       {"TTFT across the trials", "The objective against mnbt",
        "Output tok/s per user against output tok/s", "Output tok/s against TTFT p99",
        "Configurations that did not end ok", "12-disable-4096"}) {
    EXPECT_NE(dom.find(title), std::string::npos) << title;
  }
  EXPECT_EQ(dom.find("<script>alert"), std::string::npos);
}

}  // namespace
}  // namespace llmperf

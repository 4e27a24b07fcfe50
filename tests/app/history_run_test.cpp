// A summary.json as the history database's run (app/history_run.h): identity, tags,
// figures, SLO and baseline verdicts, the server block, no credentials, and a run id that depends
// on the run alone (the same for a re-import, different for another run, a repeat or a merge).
#include "app/history_run.h"

#include <gtest/gtest.h>

#include <string>

#include "report/files/summary_figures.h"

namespace llmperf {
namespace {

constexpr const char* kHistoryRunSummary = R"({
  "schema": "llmperf.summary/1",
  "llmperf_version": "0.1.0",
  "run": {"parallel": 4, "number": 20, "started_at": "2026-11-27T03:00:47Z", "duration_s": 2.5,
          "output_dir": "outputs/20261127_040047/smoke/parallel_4_number_20",
          "monotonic_anchor_ns": 5, "anchor_unix_ns": 1795748447250000000},
  "config": {"url": "http://user:***@host:8000/v1/chat/completions", "model": "qwen",
             "name": "smoke", "tags": {"commit": "abc123", "deploy": "42"}},
  "requests": {"total": 20, "succeeded": 20, "failed": 0},
  "qps": 8,
  "slo": {"passed": false, "results": [
    {"expression": "ttft.p99<=800ms", "passed": false, "detail": "812.5 ms > 800 ms"},
    {"expression": "error_rate<=1%", "passed": true, "detail": "0 %"}]},
  "server": {"identity": {"engine": "vllm", "version": "0.6.3"}},
  "metrics": {"ttft_ms": {"count": 20, "mean": 120.5, "std": 3, "min": 100, "max": 900,
                          "percentiles": {"p50": 118, "p99": 812.5}}}
})";

TEST(HistoryRun, IdentityTagsFiguresVerdictsAndServerComeFromTheSummary) {
  const SummaryFile file = parse_summary_file(kHistoryRunSummary);
  HistoryRunOrigin origin;
  origin.source = "import";
  origin.invocation = "inv";
  origin.directory = "/data/runs/parallel_4_number_20/";
  const HistoryRun run = history_run(file, origin);
  EXPECT_EQ(run.run_id.size(), 16u);
  EXPECT_EQ(run.started_at, "2026-11-27T03:00:47Z");
  EXPECT_DOUBLE_EQ(run.started_unix, 1795748447.25);
  EXPECT_EQ(run.name, "smoke");
  EXPECT_EQ(run.run_label, "parallel_4_number_20");
  EXPECT_EQ(run.invocation, "inv");
  EXPECT_EQ(run.model, "qwen");
  EXPECT_EQ(run.url, "http://host:8000/v1/chat/completions");  // no userinfo, masked or not
  EXPECT_EQ(run.source, "import");
  EXPECT_EQ(run.directory, "/data/runs/parallel_4_number_20/");
  EXPECT_EQ(nlohmann::json::parse(run.config)["tags"]["commit"], "abc123");
  ASSERT_TRUE(run.server);
  EXPECT_EQ(nlohmann::json::parse(*run.server)["identity"]["engine"], "vllm");
  EXPECT_EQ(run.llmperf_version, "0.1.0");
  ASSERT_EQ(run.tags.size(), 2u);
  EXPECT_EQ(run.tags[0], (std::pair<std::string, std::string>{"commit", "abc123"}));
  EXPECT_EQ(run.tags[1], (std::pair<std::string, std::string>{"deploy", "42"}));
  const std::vector<SummaryFigure> figures = summary_figures(file);
  ASSERT_EQ(run.figures.size(), figures.size());
  for (size_t i = 0; i < figures.size(); ++i) {
    EXPECT_EQ(run.figures[i].metric, figures[i].metric);
    EXPECT_EQ(run.figures[i].statistic, figures[i].statistic);
    EXPECT_EQ(run.figures[i].value, figures[i].value);
    EXPECT_EQ(run.figures[i].unit, figures[i].unit);
  }
  ASSERT_EQ(run.verdicts.size(), 2u);
  EXPECT_EQ(run.verdicts[0].kind, "slo");
  EXPECT_EQ(run.verdicts[0].rule, "ttft.p99<=800ms");
  EXPECT_FALSE(run.verdicts[0].passed);
  EXPECT_EQ(run.verdicts[0].detail, "812.5 ms > 800 ms");
  EXPECT_TRUE(run.verdicts[1].passed);
  EXPECT_TRUE(run.requests_jsonl.empty());
}

TEST(HistoryRun, ABaselineComparisonGivesAVerdictPerJudgedMetric) {
  const SummaryFile file = parse_summary_file(kHistoryRunSummary);
  BaselineComparison comparison;
  comparison.baseline_path = "base/summary.json";
  comparison.tolerance = 0.1;
  comparison.rows = {{"QPS (req/s)", 10.0, 8.0, -20.0, false, true, MetricVerdict::kRegression},
                     {"TTFT p99 (ms)", 800.0, 812.5, 1.6, false, false, MetricVerdict::kOk},
                     {"ITL p99 (ms)", {}, 3.0, {}, false, false, MetricVerdict::kNotJudged}};
  HistoryRunOrigin origin;
  const HistoryRun run = history_run(file, origin, &comparison);
  ASSERT_EQ(run.verdicts.size(), 4u);  // 2 SLOs, 2 judged metrics
  EXPECT_EQ(run.verdicts[2].kind, "baseline");
  EXPECT_EQ(run.verdicts[2].rule, "QPS (req/s)");
  EXPECT_FALSE(run.verdicts[2].passed);
  EXPECT_NE(run.verdicts[2].detail.find("regression"), std::string::npos) << run.verdicts[2].detail;
  EXPECT_NE(run.verdicts[2].detail.find("base/summary.json"), std::string::npos);
  EXPECT_TRUE(run.verdicts[3].passed);
  // Without a directory given: the summary's own, made absolute.
  EXPECT_TRUE(run.directory.starts_with("/")) << run.directory;
  EXPECT_TRUE(run.directory.ends_with("outputs/20261127_040047/smoke/parallel_4_number_20"));
}

TEST(HistoryRun, TheRunIdDependsOnTheRunAlone) {
  const SummaryFile file = parse_summary_file(kHistoryRunSummary);
  const std::string id = history_run_id(file);
  EXPECT_EQ(history_run_id(parse_summary_file(kHistoryRunSummary)), id);
  SummaryFile moved = file;  // `llmperf report` in another place rewrites run.output_dir
  moved.run.output_dir = "/elsewhere/parallel_4_number_20";
  EXPECT_EQ(history_run_id(moved), id);
  SummaryFile later = file;
  later.run.anchor_unix_ns += 1;
  EXPECT_NE(history_run_id(later), id);
  SummaryFile repeat = file;
  repeat.run.output_dir += "/repeat_2";
  EXPECT_EQ(history_run_label(repeat), "parallel_4_number_20/repeat_2");
  EXPECT_NE(history_run_id(repeat), id);
  SummaryFile merged = file;
  merged.shard.count = 2;
  merged.shard.merged = true;
  EXPECT_NE(history_run_id(merged), id);
}

TEST(HistoryRun, AnOldSummaryWithoutAnchorTakesItsStartFromStartedAt) {
  const SummaryFile file = parse_summary_file(
      R"({"schema": "llmperf.summary/1", "run": {"started_at": "2026-11-01T00:00:00Z"}})");
  const HistoryRun run = history_run(file, {});
  EXPECT_EQ(run.started_unix, 1793491200.0);
  EXPECT_EQ(run.config, "{}");
  EXPECT_FALSE(run.server);
  EXPECT_TRUE(run.tags.empty());
}

}  // namespace
}  // namespace llmperf

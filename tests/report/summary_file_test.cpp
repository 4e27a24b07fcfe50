// summary.json's one reader and writer (report/summary_file.h): write -> read -> write gives the
// same bytes, for a summary made here with every optional block present and for the fixtures in
// tests/fixtures/outputs/; the typed parts read back as written; the config block keeps its bytes
// and key order; the reader's errors and its leniency with values of another type.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/stage_options.h"
#include "report/internal.h"
#include "report/summary_file.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A distribution of `count` values around `mean` (ns or tokens), with awkward decimals.
Distribution dist(double mean, size_t count = 7) {
  Distribution d;
  d.count = count;
  d.mean = mean;
  d.std = mean / 3;
  d.min = mean / 7;
  d.max = mean * 2.5;
  d.percentiles = {mean * 0.9, mean, mean * 1.1, mean * 2.25};
  return d;
}

// The flags of a run with every block the config records in use, a prompt cut mid-character.
Config full_config() {
  Config c;
  c.target.model = "qwen";
  c.output.name = "nightly";
  c.target.api_key = "sk-secret-key-123";
  c.target.headers = {{"Authorization", "Bearer sk-secret-key-123"}, {"X-Team", "perf"}};
  c.workload.prompt = "caf\xc3";
  c.load.rate = {2.5};
  c.load.arrival = "gamma";
  c.load.burstiness = 0.5;
  c.verdicts.slo = {"ttft.p99<=800ms", "success_rate>=99%"};
  c.verdicts.goodput = {"ttft:500", "tpot:50"};
  c.load.duration_s = 30;
  c.load.warmup_num = 2;
  c.output.percentiles = {50, 90, 99, 99.9};
  c.output.vllm.metadata = {{"tp", "2"}, {"dp", "1"}};
  return c;
}

// A run and its summary with every optional block of summary.json present.
struct FullRun {
  ReportOptions options;
  RunInfo info;
  RunSummary summary;
};

FullRun full_run() {
  FullRun run;
  run.options = report_options(full_config());
  run.options.api_kind = ApiKind::kEmbeddings;

  RunInfo& info = run.info;
  info.parallel = 8;
  info.number = 100;
  info.rate = 2.5;
  info.output_dir = "out/nightly/rate_2.5";
  info.started_at = "2026-11-21T12:48:33Z";
  info.anchor_steady_ns = 123'456'789'012;
  info.anchor_unix_ns = 1'795'000'000'123'456'789;
  info.duration_s = 40.123456789;
  info.interrupted = true;
  info.input_tokens = 300;
  info.output_tokens = 64;
  info.dataset.records_read = 120;
  info.dataset.accepted = 100;
  info.dataset.malformed = 2;
  info.dataset.malformed_lines = {3, 17};
  info.dataset.first_malformed_reason = "not JSON";
  info.workload.counted = true;
  info.workload.synthetic = true;
  info.workload.tokenizer = {"server /tokenize (vLLM/SGLang)", "chat template included", true};
  info.workload.prompts = 100;
  info.workload.prepare_s = 0.25;
  info.workload.trace.on = true;
  info.workload.trace.entries = 100;
  info.workload.trace.span_s = 12.5;
  info.ramp = RampUp{"linear", 1, 4};
  info.slo = {{"ttft.p99<=800ms", true, "612 ms <= 800 ms"},
              {"success_rate>=99%", false, "97 % < 99 %"}};
  info.server.engine = "vLLM";
  info.server.version = "0.11.0";
  info.server.models = {"qwen"};
  info.server.details = {{"owned_by", "vllm"}};
  info.shard.index = 1;
  info.shard.count = 3;
  info.shard.source = "--shard";
  info.shard.run_id = "0123456789abcdef";

  RunSummary& s = run.summary;
  s.percentiles = {50, 90, 99, 99.9};
  s.total = 100;
  s.succeeded = 97;
  s.failed = 3;
  s.warmup = 2;
  s.resent = 1;
  s.failures_by_kind = {{"http_503", 2}, {"timeout", 1}};
  s.failure_examples = {{"http_503", "HTTP 503: \"busy\" \xe2\x80\x94 retry"}, {"timeout", "read"}};
  s.window_ns = 38'765'432'101;
  s.qps = 97 / 38.765432101;
  s.output_throughput = 1234.5678;
  s.total_throughput = 9876.54321;
  s.input_chars_throughput = 1.0 / 3;
  s.output_chars_throughput = 2.0 / 3;
  s.peak_output_throughput = 2048;
  s.peak_concurrency = 8;
  s.total_input_tokens = 29'100;
  s.total_output_tokens = 6'208;
  s.input_provenance.from_usage = 97;
  s.output_provenance.from_usage = 90;
  s.output_provenance.estimated = 7;
  s.total_input_chars = 120'000;
  s.total_output_chars = 25'000;
  s.input_exactness.requests = 97;
  s.input_exactness.verified = 97;
  s.input_exactness.matched = 95;
  s.input_exactness.min_target = 300;
  s.input_exactness.max_target = 300;
  s.input_exactness.differences = {{-1, 2}};
  s.length_misses.checked = 97;
  s.length_misses.missed = 2;
  for (Distribution RunSummary::*d :
       {&RunSummary::latency_ns, &RunSummary::ttft_ns, &RunSummary::ttfat_ns, &RunSummary::ttfb_ns,
        &RunSummary::tpot_ns, &RunSummary::itl_ns, &RunSummary::input_tokens,
        &RunSummary::output_tokens, &RunSummary::chunks_per_request,
        &RunSummary::output_tps_per_request, &RunSummary::total_tps_per_request,
        &RunSummary::latency_from_planned_ns, &RunSummary::ttft_from_planned_ns,
        &RunSummary::ttfat_from_planned_ns, &RunSummary::ttfb_from_planned_ns,
        &RunSummary::schedule_lag_ns, &RunSummary::ttft_prefix_first_ns,
        &RunSummary::ttft_prefix_repeated_ns}) {
    s.*d = dist(123'456'789.123);
  }
  s.itl_ns.percentiles_approximate = true;
  s.achieved_rate = 2.4;
  s.open_loop.sends = 100;
  s.open_loop.slot_waits = 3;
  s.open_loop.slot_wait_ns = dist(1e6);
  s.open_loop.client_lag_ns = dist(2e5);
  s.rate_segments.push_back(RateSegment{});
  s.rate_segments.back().requests = 10;
  s.rate_segments.back().ttft_p50_ns = 1.5e8;
  s.prefix_groups_used = 4;
  s.sessions.conversations = 5;
  s.sessions.completed = 4;
  s.sessions.turns_done = dist(3);
  s.reasoning.requests = 10;
  s.reasoning.reasoning_tokens = 500;
  s.reasoning.duration_ns = dist(4e8);
  s.pooling = true;
  s.total_items = 200;
  s.items_throughput = 5.1;
  s.goodput_enabled = true;
  s.goodput_spec.ttft_ns = 500'000'000;
  s.good_requests = 90;
  s.goodput_rps = 2.3;
  s.good_fraction = 0.9;
  s.client.measured = true;
  s.client.stamp_delay_ns = dist(5e4);
  s.client.cpu_s = 1.25;
  s.client.threads = 2;
  s.client.threads_reason = "auto";
  s.client.client_bound = true;
  s.client.warnings = {"stamp delay p99 above 1 ms"};
  s.server.url = "http://127.0.0.1:8000/metrics";
  s.server.available = true;
  s.server.scrapes = 40;
  s.server.requests = 100;
  s.http.new_connections = 4;
  s.http.reused_connections = 96;
  s.http.protocols = {{"http/1.1", 100}};
  s.http.fresh.requests = 4;
  s.http.fresh.tls_ns = dist(2e6);
  s.http.reused.requests = 96;
  s.http.reused.wait_ns = dist(3e7);
  return run;
}

std::string rewritten(const std::string& text) {
  return summary_file_text(parse_summary_file(text));
}

TEST(SummaryFile, FullSummaryRoundTripsByteForByte) {
  const FullRun run = full_run();
  const std::string written =
      summary_file_text(report_detail::summary_file(run.options, run.info, run.summary));

  // Every block is present: no top-level key and no metric is null.
  const ordered_json j = ordered_json::parse(written);
  for (const auto& [key, value] : j.items()) EXPECT_FALSE(value.is_null()) << key;
  for (const auto& [key, value] : j["metrics"].items()) EXPECT_FALSE(value.is_null()) << key;
  EXPECT_EQ(j["shard"]["index"], 1);
  EXPECT_EQ(j["open_loop"]["ramp_up"]["strategy"], "linear");
  EXPECT_EQ(j["metrics"]["itl_ms"]["percentiles_relative_error"], PooledSamples::kRelativeError);
  EXPECT_EQ(j["config"]["prompt"], "caf\xef\xbf\xbd");  // U+FFFD
  EXPECT_EQ(written.back(), '\n');

  EXPECT_EQ(rewritten(written), written);

  // A merged shard's block has other keys.
  FullRun merged = full_run();
  merged.info.shard.merged = true;
  merged.info.shard.starts_unix_ns = {1'795'000'000'000'000'000, 1'795'000'000'002'500'000};
  const std::string merged_text =
      summary_file_text(report_detail::summary_file(merged.options, merged.info, merged.summary));
  EXPECT_EQ(ordered_json::parse(merged_text)["shard"]["start_spread_ms"], 2.5);
  EXPECT_EQ(rewritten(merged_text), merged_text);
}

TEST(SummaryFile, StoppedEarlyFollowsRunAndRoundTrips) {
  FullRun run = full_run();
  const std::string plain =
      summary_file_text(report_detail::summary_file(run.options, run.info, run.summary));
  EXPECT_EQ(plain.find("stopped_early"), std::string::npos);  // absent when the run went to its end
  run.info.stopped_early = EarlyStopDecision{"max_error_rate", 120, "13 of the last 100 failed"};
  const std::string written =
      summary_file_text(report_detail::summary_file(run.options, run.info, run.summary));
  const ordered_json j = ordered_json::parse(written);
  auto key = j.begin();
  while (key.key() != "run") ++key;
  ++key;
  EXPECT_EQ(key.key(), "stopped_early");
  EXPECT_EQ(j["stopped_early"]["reason"], "max_error_rate");
  EXPECT_EQ(j["stopped_early"]["after_requests"], 120);
  EXPECT_EQ(rewritten(written), written);
  const RunInfo back = run_info_from_summary(parse_summary_file(written), "dir");
  ASSERT_TRUE(back.stopped_early);
  EXPECT_EQ(back.stopped_early->detail, "13 of the last 100 failed");
}

TEST(SummaryFile, TypedPartsReadBackAsWritten) {
  const FullRun run = full_run();
  const SummaryFile f = parse_summary_file(
      summary_file_text(report_detail::summary_file(run.options, run.info, run.summary)));
  EXPECT_EQ(f.run.parallel, 8);
  EXPECT_EQ(f.run.number, 100);
  EXPECT_EQ(f.run.rate, 2.5);
  EXPECT_EQ(f.run.input_tokens, 300);
  EXPECT_EQ(f.run.anchor_unix_ns, 1'795'000'000'123'456'789);
  EXPECT_TRUE(f.run.interrupted);
  EXPECT_EQ(f.requests.failed, 3);
  EXPECT_EQ(f.requests.resent, 1);
  EXPECT_EQ(f.shard.count, 3);
  EXPECT_EQ(f.shard.source, "--shard");
  EXPECT_EQ(f.tokens.output_source, "mixed");
  EXPECT_EQ(f.tokens.input_total, 29'100);
  EXPECT_DOUBLE_EQ(*f.window_s, 38.765432101);
  ASSERT_TRUE(f.metrics.ttft_ms);
  EXPECT_EQ(f.metrics.ttft_ms->count, 7);
  EXPECT_DOUBLE_EQ(*f.metrics.ttft_ms->mean, 123.456789123);
  EXPECT_DOUBLE_EQ(*f.metrics.ttft_ms->percentile("p99"), 123.456789123 * 1.1);
  EXPECT_DOUBLE_EQ(*f.metrics.latency_s->percentile("p99.9"), 0.123456789123 * 2.25);
  EXPECT_FALSE(f.metrics.latency_s->percentile("p95"));
  EXPECT_TRUE(f.metrics.itl_ms->percentiles_relative_error);
  EXPECT_FALSE(f.metrics.ttft_ms->percentiles_relative_error);
  EXPECT_TRUE(f.client_bound);
}

// The report options come back from the config block, which is kept as written.
TEST(SummaryFile, ReportOptionsComeFromTheSavedConfigBlock) {
  const FullRun run = full_run();
  const SummaryFile f = parse_summary_file(
      summary_file_text(report_detail::summary_file(run.options, run.info, run.summary)));
  const ReportOptions options = report_options(f);
  EXPECT_EQ(options.model, "qwen");
  EXPECT_EQ(options.name, "nightly");
  EXPECT_EQ(options.arrival, "gamma");
  EXPECT_EQ(options.burstiness, 0.5);
  EXPECT_EQ(options.percentiles, (std::vector<double>{50, 90, 99, 99.9}));
  EXPECT_TRUE(options.secrets.empty());  // the block holds them masked
  EXPECT_EQ(options.vllm.metadata,
            (std::vector<std::pair<std::string, std::string>>{{"tp", "2"}, {"dp", "1"}}));
  EXPECT_EQ(options.config_json, run.options.config_json);
  const ordered_json config = ordered_json::parse(options.config_json);
  EXPECT_EQ(config["rate"], ordered_json::array({2.5}));
  EXPECT_EQ(config["slo"], ordered_json::array({"ttft.p99<=800ms", "success_rate>=99%"}));
  EXPECT_EQ(config["goodput"], ordered_json::array({"ttft:500", "tpot:50"}));
  EXPECT_EQ(config["api_key"], "***");
}

// The fixtures are older, smaller files: rewriting adds the keys they lack (once), keeps their
// config block byte for byte, and then rewrites to the same bytes.
TEST(SummaryFile, FixturesRewriteStably) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(LLMPERF_FIXTURES_DIR "/outputs")) {
    if (entry.path().filename() != "summary.json") continue;
    ++files;
    const std::string fixture = read_text(entry.path());
    const SummaryFile f = parse_summary_file(fixture);
    const std::string once = summary_file_text(f);
    EXPECT_EQ(rewritten(once), once) << entry.path();
    const ordered_json before = ordered_json::parse(fixture);
    const ordered_json after = ordered_json::parse(once);
    EXPECT_EQ(after["config"].dump(2), before["config"].dump(2)) << entry.path();
    EXPECT_EQ(after["run"]["started_at"], before["run"]["started_at"]) << entry.path();
    EXPECT_EQ(after["run"]["parallel"], before["run"]["parallel"]) << entry.path();
  }
  EXPECT_EQ(files, 3);
}

void expect_refused(const std::string& text, const std::string& fragment) {
  try {
    parse_summary_file(text);
    FAIL() << "no error for " << text;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(SummaryFile, RefusesWhatIsNotAnLlmperfSummary) {
  expect_refused("{not json", "not valid JSON");
  expect_refused("{\"qps\": 1e999}", "not valid JSON");
  expect_refused("[1, 2]", "no \"schema\"");
  expect_refused("{\"qps\": 1}", "no \"schema\"");
  expect_refused("{\"schema\": \"llmperf.summary/2\"}", "unsupported schema \"llmperf.summary/2\"");
}

// A value of another type reads as absent (its default); a missing block as null.
TEST(SummaryFile, ValuesOfAnotherTypeReadAsAbsent) {
  const SummaryFile f = parse_summary_file(R"({
    "schema": "llmperf.summary/1",
    "run": {"parallel": "eight", "number": 1e30, "rate": "fast", "started_at": 5},
    "requests": {"total": 10, "failed": 2.5},
    "qps": true,
    "metrics": {"ttft_ms": {"count": 3, "mean": "x", "percentiles": {"p99": null, "p50": 4}},
                "latency_s": 7}
  })");
  EXPECT_EQ(f.run.parallel, 1);
  EXPECT_EQ(f.run.number, 0);
  EXPECT_FALSE(f.run.rate);
  EXPECT_EQ(f.run.started_at, "");
  EXPECT_EQ(f.requests.total, 10);
  EXPECT_EQ(f.requests.failed, 0);
  EXPECT_FALSE(f.qps);
  ASSERT_TRUE(f.metrics.ttft_ms);
  EXPECT_EQ(f.metrics.ttft_ms->count, 3);
  EXPECT_FALSE(f.metrics.ttft_ms->mean);
  EXPECT_FALSE(f.metrics.ttft_ms->percentile("p99"));
  EXPECT_EQ(f.metrics.ttft_ms->percentile("p50"), 4);
  EXPECT_FALSE(f.metrics.latency_s);
  EXPECT_TRUE(f.config.is_null());
  EXPECT_TRUE(f.server.is_null());
}

}  // namespace
}  // namespace llmperf

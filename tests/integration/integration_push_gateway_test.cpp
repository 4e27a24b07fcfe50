// --push-gateway against Debian's real Prometheus Pushgateway (prometheus-pushgateway, started on
// a free loopback port without persistence): llmperf runs against llmperf-mock with a short
// --push-interval, and the gateway's /metrics then holds llmperf's series under job="llmperf" with
// the name and run_id labels (the run id has a '/', so its path used the @base64 form), with final
// counts equal to the run's summary.json. And with the gateway down: the run succeeds, warns once,
// never shows the gateway's password, and counts every push as failed.
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "http/curl_transport.h"
#include "http/http_pool.h"
#include "llmperf_run.h"
#include "app/tune/ports.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kPushGatewayBin = "/usr/bin/prometheus-pushgateway";

HttpReply push_get(const std::string& url) {
  init_transport();
  HttpPoolOptions options;
  options.connect_timeout_ms = 1000;
  options.total_timeout_ms = 5000;
  HttpPool pool(options);
  HttpCall call;
  call.url = url;
  call.get = true;
  return pool.run_one(call);
}

// The Pushgateway on a free loopback port, in memory only; ready() once it answers /-/ready.
class PushGatewayProcess {
 public:
  PushGatewayProcess()
      : port_(pick_free_port()),
        process_({kPushGatewayBin, "--web.listen-address=127.0.0.1:" + std::to_string(port_),
                  "--persistence.file="}) {}
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Polls /-/ready for up to 20 s.
  bool ready() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (push_get(base() + "/-/ready").status == 200) return true;
      if (process_.wait(0) != -1) return false;  // it exited
      usleep(100'000);                           // poll again (the gateway has no ready signal)
    }
    return false;
  }
  std::string stderr_text() const { return process_.stderr_text(); }

 private:
  int port_;
  BackgroundProcess process_;
};

// The value of the one series of `text` (the gateway's /metrics) named `name` whose labels
// include every one of `labels` ("key=\"value\""); NaN-free double, or -1 when absent.
double push_series_value(const std::string& text, const std::string& name,
                         const std::vector<std::string>& labels) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name + "{", 0) != 0) continue;
    const size_t close = line.find("} ");
    if (close == std::string::npos) continue;
    const std::string label_text = line.substr(name.size(), close - name.size() + 1);
    bool all = true;
    for (const std::string& label : labels) {
      all = all && label_text.find(label) != std::string::npos;
    }
    if (all) return std::stod(line.substr(close + 2));
  }
  return -1;
}

TEST(IntegrationPushGateway, FinalFiguresInTheGatewayEqualTheSummary) {
  if (!fs::exists(kPushGatewayBin)) {
    GTEST_SKIP() << "SKIPPED: " << kPushGatewayBin
                 << " not found (Debian package prometheus-pushgateway; scripts/setup.sh --test "
                    "installs it)";
  }
  PushGatewayProcess gateway;
  ASSERT_TRUE(gateway.ready()) << gateway.stderr_text();
  MockServer mock({"--ttft-ms", "20", "--itl-ms", "5", "--output-tokens", "16", "--fault-http-rate",
                   "0.2", "--seed", "5"});
  const BenchRun run = run_llmperf(concat(
      base_args(mock),
      {"--stream", "--parallel", "2", "-n", "24", "--warmup-num", "1", "--push-gateway",
       gateway.base() + "/", "--push-interval", "0.1", "--name", "push-test", "--no-timestamp",
       "--tag", "commit=abc/123", "--tag", "name=ignored"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& s = run.summary;
  ASSERT_TRUE(s.contains("push_gateway")) << s.dump(2);
  const json& push = s["push_gateway"];
  EXPECT_EQ(push["url"], gateway.base());
  EXPECT_EQ(push["interval_s"], 0.1);
  EXPECT_GE(push["pushes"].get<int64_t>(), 2);  // during the run, and the final one
  EXPECT_EQ(push["failed"], 0);
  EXPECT_TRUE(contains(run.process.out, "Pushgateway: ")) << run.process.out;
  EXPECT_FALSE(contains(run.process.err, "--push-gateway: a push")) << run.process.err;

  const HttpReply metrics = push_get(gateway.base() + "/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.error;
  const std::string& text = metrics.body;
  // The grouping key's labels (the run id has a '/': it went in the @base64 form).
  // --tag commit=abc/123 is a label of its own; a tag named as a key's label (name) is left out.
  const std::vector<std::string> group = {"job=\"llmperf\"", "name=\"push-test\"",
                                          "run_id=\"push-test/parallel_2_number_24\"",
                                          "commit=\"abc/123\""};
  const auto value = [&](const std::string& name, std::vector<std::string> labels = {}) {
    labels.insert(labels.end(), group.begin(), group.end());
    return push_series_value(text, name, labels);
  };
  const json& requests = s["requests"];
  EXPECT_EQ(value("llmperf_requests_total", {"outcome=\"succeeded\""}),
            requests["succeeded"].get<double>())
      << text;
  EXPECT_EQ(value("llmperf_requests_total", {"outcome=\"failed\""}),
            requests["failed"].get<double>());
  EXPECT_GT(requests["failed"].get<int64_t>(), 0) << "the mock failed none: pick another --seed";
  EXPECT_EQ(value("llmperf_requests_total", {"outcome=\"cancelled\""}), 0);
  EXPECT_EQ(value("llmperf_input_tokens_total"), s["tokens"]["input_total"].get<double>());
  EXPECT_EQ(value("llmperf_output_tokens_total"), s["tokens"]["output_total"].get<double>());
  EXPECT_EQ(value("llmperf_requests_in_flight"), 0);
  EXPECT_EQ(value("llmperf_run_finished"), 1);
  EXPECT_EQ(value("llmperf_ttft_seconds_count"), s["metrics"]["ttft_ms"]["count"].get<double>());
  EXPECT_EQ(value("llmperf_latency_seconds_count"), requests["succeeded"].get<double>());
  EXPECT_NEAR(
      value("llmperf_ttft_seconds_sum") / s["metrics"]["ttft_ms"]["count"].get<double>() * 1e3,
      s["metrics"]["ttft_ms"]["mean"].get<double>(), 1e-6);
  // The gateway saw no failed push to the group.
  EXPECT_EQ(value("push_failure_time_seconds"), 0);
  EXPECT_GT(value("push_time_seconds"), 0);
}

TEST(IntegrationPushGateway, AGatewayThatIsDownNeitherFailsNorSlowsTheRun) {
  const int port = pick_free_port();  // nothing listens there
  MockServer mock({"--ttft-ms", "5", "--itl-ms", "5", "--output-tokens", "10"});
  const std::string secret = "s3cretPushPass";
  const BenchRun run = run_llmperf(
      concat(base_args(mock), {"--stream", "--parallel", "1", "-n", "10", "--push-gateway",
                               "http://pusher:" + secret + "@127.0.0.1:" + std::to_string(port),
                               "--push-interval", "0.1"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 10);
  const json& push = run.summary["push_gateway"];
  EXPECT_EQ(push["url"], "http://127.0.0.1:" + std::to_string(port));
  EXPECT_GE(push["pushes"].get<int64_t>(), 1);
  EXPECT_EQ(push["failed"], push["pushes"]);
  // One warning, whatever the number of failed pushes; no credentials anywhere.
  const std::string warning = "--push-gateway: a push to";
  const size_t first = run.process.err.find(warning);
  ASSERT_NE(first, std::string::npos) << run.process.err;
  EXPECT_EQ(run.process.err.find(warning, first + 1), std::string::npos) << run.process.err;
  EXPECT_FALSE(contains(run.process.err, secret));
  EXPECT_FALSE(contains(run.process.out, secret));
  EXPECT_TRUE(contains(run.process.out, "failed: the figures there are incomplete"))
      << run.process.out;
  for (const auto& entry : fs::directory_iterator(only_run_dir(run))) {
    EXPECT_FALSE(contains(read_file(entry.path().string()), secret)) << entry.path();
  }
}

}  // namespace
}  // namespace llmperf::testing

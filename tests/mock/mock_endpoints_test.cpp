// llmperf-mock's vLLM-style endpoints over loopback: /metrics counters equal the usage of the
// replies and its TTFT histogram equals the event log's truth bucket by bucket; the prefix cache
// (cached_tokens in usage, its /metrics counters, the prefill it saves in TTFT); /version,
// /v1/models' max_model_len, the Server header, the profiler endpoints and their 404s when off.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "mock_http.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;

// The usage object of a JSON body or of the SSE event that carries one.
json usage_of(const HttpReply& reply) {
  if (!reply.body.starts_with("data: ")) return json::parse(reply.body).at("usage");
  std::istringstream in(reply.body);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("data: {")) continue;
    const json event = json::parse(line.substr(6));
    if (event.contains("usage") && !event["usage"].is_null()) return event["usage"];
  }
  ADD_FAILURE() << "no usage in " << reply.body;
  return json::object();
}

// Sample lines of a Prometheus exposition: "name{labels}" -> value.
std::map<std::string, double> samples_of(const std::string& text) {
  std::map<std::string, double> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.starts_with("#")) continue;
    const std::size_t space = line.rfind(' ');
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

std::string series(std::string_view name, std::string_view extra_label = {}) {
  return fmt::format(R"({}{{engine="0",{}{}model_name="mock-model"}})", name, extra_label,
                     extra_label.empty() ? "" : ",");
}

TEST(MockEndpoints, MetricsCountersEqualUsageAndTtftEqualsTheEventLog) {
  const std::string dir = make_temp_dir();
  const std::string event_log = dir + "/events.log";
  MockServer mock(
      {"--ttft-ms", "15", "--itl-ms", "2", "--output-tokens", "12", "--event-log", event_log});
  const std::vector<std::pair<std::string, std::string>> requests = {
      {"/v1/chat/completions",
       R"({"messages":[{"role":"user","content":"hello world"}],"max_tokens":5})"},
      {"/v1/chat/completions",
       R"({"messages":[{"role":"user","content":"tell me a story"}],"stream":true,)"
       R"("stream_options":{"include_usage":true}})"},
      {"/v1/completions", R"({"prompt":"abc def","stream":true,"max_tokens":50,)"
                          R"("stream_options":{"include_usage":true}})"},
  };
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  for (const auto& request : requests) {
    const HttpReply reply = http_call(mock.port(), "POST", request.first, request.second);
    ASSERT_EQ(reply.status, 200) << reply.body;
    const json usage = usage_of(reply);
    EXPECT_FALSE(usage.contains("prompt_tokens_details")) << usage;  // no prefix cache
    prompt_tokens += usage.at("prompt_tokens").get<std::int64_t>();
    completion_tokens += usage.at("completion_tokens").get<std::int64_t>();
  }

  const HttpReply metrics = http_call(mock.port(), "GET", "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_TRUE(has_header(metrics, "Content-Type: text/plain; version=0.0.4; charset=utf-8"));
  std::map<std::string, double> s = samples_of(metrics.body);
  EXPECT_EQ(s[series("vllm:prompt_tokens_total")], static_cast<double>(prompt_tokens));
  EXPECT_EQ(s[series("vllm:generation_tokens_total")], static_cast<double>(completion_tokens));
  EXPECT_EQ(completion_tokens, 5 + 12 + 12);
  EXPECT_EQ(s.at(series("vllm:prefix_cache_queries_total")), 0.0);
  EXPECT_EQ(s.at(series("vllm:prefix_cache_hits_total")), 0.0);
  // max_tokens 5 < 12 ends at "length"; no max_tokens ends at "length"; max_tokens 50 at "stop".
  EXPECT_EQ(s[series("vllm:request_success_total", R"(finished_reason="length")")], 2.0);
  EXPECT_EQ(s[series("vllm:request_success_total", R"(finished_reason="stop")")], 1.0);
  EXPECT_EQ(s[series("vllm:request_success_total", R"(finished_reason="abort")")], 0.0);
  EXPECT_EQ(s[series("vllm:num_requests_running")], 0.0);
  EXPECT_EQ(s[series("vllm:kv_cache_usage_perc")], 0.0);
  EXPECT_EQ(s[series("vllm:time_to_first_token_seconds_count")], 3.0);
  EXPECT_EQ(s[series("vllm:inter_token_latency_seconds_count")], 11.0 + 11.0);
  EXPECT_EQ(s[series("vllm:e2e_request_latency_seconds_count")], 3.0);

  EXPECT_EQ(http_call(mock.port(), "POST", "/start_profile").status, 200);
  EXPECT_EQ(http_call(mock.port(), "POST", "/stop_profile").status, 200);
  EXPECT_TRUE(mock.process().wait_for_stderr("llmperf-mock: profiler stopped", 10));
  mock.process().signal(SIGTERM);
  ASSERT_EQ(mock.process().wait(20), 0);

  // The event log's TTFT of each request: its first evt minus its recv.
  std::map<std::int64_t, std::int64_t> received;
  std::map<std::int64_t, std::int64_t> first_write;
  std::vector<std::string> profile_lines;
  std::istringstream log(read_file(event_log));
  for (std::string kind; log >> kind;) {
    std::int64_t seq = 0;
    std::int64_t index = 0;
    std::int64_t ns = 0;
    if (kind == "recv") {
      log >> seq >> ns;
      received[seq] = ns;
    } else if (kind == "evt") {
      log >> seq >> index >> ns;
      if (index == 0) first_write[seq] = ns;
    } else {
      log >> ns;
      profile_lines.push_back(kind);
    }
  }
  EXPECT_EQ(profile_lines, (std::vector<std::string>{"start_profile", "stop_profile"}));
  ASSERT_EQ(first_write.size(), 3u);
  std::vector<std::int64_t> ttft_ns;
  std::int64_t ttft_sum_ns = 0;
  for (const auto& write : first_write) {
    ttft_ns.push_back(write.second - received.at(write.first));
    ttft_sum_ns += ttft_ns.back();
  }
  EXPECT_EQ(s[series("vllm:time_to_first_token_seconds_sum")],
            static_cast<double>(ttft_sum_ns) / 1e9);
  for (const auto& [key, count] : s) {
    const std::string prefix = R"(vllm:time_to_first_token_seconds_bucket{engine="0",le=")";
    if (!key.starts_with(prefix)) continue;
    const std::string le = key.substr(prefix.size(), key.find('"', prefix.size()) - prefix.size());
    const double bound_ns = le == "+Inf" ? HUGE_VAL : std::round(std::stod(le) * 1e9);
    const auto truth = std::count_if(ttft_ns.begin(), ttft_ns.end(), [bound_ns](std::int64_t t) {
      return static_cast<double>(t) <= bound_ns;
    });
    EXPECT_EQ(count, static_cast<double>(truth)) << "le=" << le;
  }
  std::filesystem::remove_all(dir);
}

// The same long chat prompt three times in a row (stream, stream, non-stream): the first misses
// the prefix cache and pays the prefill of every prompt token, the others hit all but the last
// partial block, and the mock's own TTFT histogram shows the prefill they skipped.
TEST(MockEndpoints, ARepeatedPromptHitsThePrefixCacheAndSkipsItsPrefill) {
  constexpr std::int64_t kBlock = 16;
  constexpr double kPrefillS = 200e-6;  // per uncached prompt token
  constexpr double kTtftS = 0.001;
  MockServer mock({"--prefix-cache-tokens", "65536", "--cache-block-tokens", "16",
                   "--prefill-us-per-token", "200", "--ttft-ms", "1", "--output-tokens", "4"});
  std::string content;
  for (int i = 0; i < 500; ++i) content += fmt::format(" item{}", i);  // " ite" "m123": 2 each
  json request = {{"messages", json::array({{{"role", "user"}, {"content", content}}})},
                  {"stream", true},
                  {"stream_options", {{"include_usage", true}}}};

  std::vector<std::int64_t> prompt;
  std::vector<std::int64_t> cached;
  std::vector<double> ttft_s;  // each request's share of the TTFT histogram's sum
  double ttft_sum_s = 0;
  std::map<std::string, double> s;
  for (int turn = 0; turn < 3; ++turn) {
    request["stream"] = turn < 2;
    const HttpReply reply = http_call(mock.port(), "POST", "/v1/chat/completions", request.dump());
    ASSERT_EQ(reply.status, 200) << reply.body;
    const json usage = usage_of(reply);
    prompt.push_back(usage.at("prompt_tokens").get<std::int64_t>());
    cached.push_back(usage.at("prompt_tokens_details").at("cached_tokens").get<std::int64_t>());
    s = samples_of(http_call(mock.port(), "GET", "/metrics").body);
    const double sum_s = s.at(series("vllm:time_to_first_token_seconds_sum"));
    ttft_s.push_back(sum_s - ttft_sum_s);
    ttft_sum_s = sum_s;
  }

  const std::int64_t p = prompt[0];
  EXPECT_GE(p, 1000);
  EXPECT_EQ(prompt, std::vector<std::int64_t>(3, p));
  EXPECT_EQ(cached[0], 0);
  // Every full block but the one holding the last token (which is always computed).
  EXPECT_EQ(cached[1], (p - 1) / kBlock * kBlock);
  EXPECT_GE(cached[1], p - kBlock);
  EXPECT_EQ(cached[2], cached[1]);
  EXPECT_EQ(s.at(series("vllm:prefix_cache_queries_total")), static_cast<double>(3 * p));
  EXPECT_EQ(s.at(series("vllm:prefix_cache_hits_total")),
            static_cast<double>(cached[0] + cached[1] + cached[2]));

  // A timer never fires early, so each TTFT is at least --ttft-ms + the prefill of its uncached
  // tokens (the first: over 200 ms); the repeats skip nearly all of it (wide margin for a busy
  // machine).
  for (std::size_t i = 0; i < 3; ++i) {
    const double floor_s = kTtftS + kPrefillS * static_cast<double>(prompt[i] - cached[i]);
    EXPECT_GE(ttft_s[i], floor_s - 1e-6) << "request " << i;
  }
  EXPECT_GE(ttft_s[0], 0.2);
  EXPECT_LT(ttft_s[1], ttft_s[0] - 0.1);
  EXPECT_LT(ttft_s[2], ttft_s[0] - 0.1);
}

TEST(MockEndpoints, VersionModelsAndServerHeaderAreVllmShaped) {
  MockServer mock({"--max-model-len", "4096"});
  const HttpReply version = http_call(mock.port(), "GET", "/version");
  EXPECT_EQ(version.status, 200);
  EXPECT_TRUE(version.body.starts_with(R"({"version":"llmperf-mock )")) << version.body;
  EXPECT_TRUE(version.body.ends_with(R"("})")) << version.body;
  const HttpReply models = http_call(mock.port(), "GET", "/v1/models");
  EXPECT_EQ(json::parse(models.body).at("data").at(0).at("max_model_len"), 4096);
  for (const HttpReply& reply :
       {version, models, http_call(mock.port(), "GET", "/metrics"),
        http_call(mock.port(), "GET", "/no-such-path"), http_call(mock.port(), "GET", "/health")}) {
    EXPECT_TRUE(has_header(reply, "Server: llmperf-mock")) << reply.head;
  }
  EXPECT_EQ(http_call(mock.port(), "GET", "/start_profile").status, 405);
  const HttpReply start = http_call(mock.port(), "POST", "/start_profile");
  EXPECT_EQ(start.status, 200);
  EXPECT_EQ(start.body, "");
}

TEST(MockEndpoints, DisabledMetricsAndProfilerAnswer404) {
  MockServer mock({"--no-metrics", "--no-profiler"});
  EXPECT_EQ(http_call(mock.port(), "GET", "/metrics").status, 404);
  for (const char* path : {"/start_profile", "/stop_profile"}) {
    const HttpReply reply = http_call(mock.port(), "POST", path);
    EXPECT_EQ(reply.status, 404) << path;
    EXPECT_EQ(reply.body, R"({"detail":"Not Found"})") << path;
    EXPECT_TRUE(has_header(reply, "Content-Type: application/json")) << path;
  }
  EXPECT_EQ(mock.process().stderr_text().find("profiler"), std::string::npos);
}

}  // namespace
}  // namespace llmperf::testing

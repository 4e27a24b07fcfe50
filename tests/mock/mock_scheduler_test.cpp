// llmperf-mock's scheduler mode over loopback, the binary run as a child process: it refuses to
// start as vLLM does (exit 1, the ValueError line among its start-up lines, never listening), it
// answers 400 at once to a prompt that cannot fit (without chunked prefill the budget is at least
// max_model_len, so such a prompt is beyond max_model_len), real streams show the field report's
// trend between two token budgets (longer TTFT, shorter ITL with the smaller one), and /metrics
// shows the requests that run and those that wait for a seat.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "mock_http.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

std::vector<std::string> sched_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(MockScheduler, RefusesToStartWhenMaxModelLenExceedsTheBudgetWithoutChunkedPrefill) {
  for (const std::vector<std::string>& off :
       {std::vector<std::string>{"--enable-chunked-prefill", "false"},
        std::vector<std::string>{"--no-enable-chunked-prefill"}}) {
    std::vector<std::string> argv = {LLMPERF_MOCK_BIN, "--port", "0", "--max-num-batched-tokens",
                                     "535"};
    argv.insert(argv.end(), off.begin(), off.end());
    const ProcessResult result = run_process(argv, 20);
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_EQ(result.out, "");  // it never listened
    const std::vector<std::string> lines = sched_lines(result.err);
    const auto error = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
      return line.starts_with("ValueError: ");
    });
    ASSERT_NE(error, lines.end()) << result.err;
    EXPECT_EQ(*error,
              "ValueError: max_num_batched_tokens (535) is smaller than max_model_len (32768). "
              "This effectively limits the maximum sequence length to max_num_batched_tokens and "
              "makes vLLM reject longer sequences. Please increase max_num_batched_tokens or "
              "decrease max_model_len.");
    // A tuner has to find it among the lines a server logs at start-up, as with vLLM.
    EXPECT_GE(error - lines.begin(), 3) << result.err;
    EXPECT_TRUE(lines.front().starts_with("INFO ")) << result.err;
  }
}

TEST(MockScheduler, StartsWhenTheBudgetCoversMaxModelLenOrPrefillIsChunked) {
  MockServer chunked({"--max-num-batched-tokens", "535"});
  EXPECT_EQ(http_call(chunked.port(), "GET", "/health").status, 200);
  MockServer whole(
      {"--max-num-batched-tokens", "535", "--no-enable-chunked-prefill", "--max-model-len", "535"});
  EXPECT_EQ(http_call(whole.port(), "GET", "/health").status, 200);
}

// A completions body whose prompt is `prompt_tokens` token ids (the mock counts one per id).
std::string sched_body(std::int64_t prompt_tokens, std::int64_t max_tokens, bool stream) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(prompt_tokens));
  std::iota(ids.begin(), ids.end(), 100);
  nlohmann::json body = {
      {"prompt", ids}, {"max_tokens", max_tokens}, {"ignore_eos", true}, {"stream", stream}};
  return body.dump();
}

TEST(MockScheduler, APromptThatCannotFitIsAnswered400AtOnce) {
  MockServer mock({"--max-num-batched-tokens", "512", "--no-enable-chunked-prefill",
                   "--max-model-len", "512", "--step-ms", "1", "--step-us-per-token", "1"});
  const HttpReply refused =
      http_call(mock.port(), "POST", "/v1/completions", sched_body(600, 8, true));
  EXPECT_EQ(refused.status, 400);
  const nlohmann::json error = nlohmann::json::parse(refused.body).at("error");
  EXPECT_EQ(error.at("type"), "BadRequestError");
  EXPECT_EQ(error.at("code"), 400);
  EXPECT_EQ(error.at("message"),
            "This model's maximum context length is 512 tokens. However, you requested 608 tokens "
            "(600 in the messages, 8 in the completion). Please reduce the length of the messages "
            "or completion.");
  // One that fits the budget (and max_model_len) is served.
  const HttpReply served =
      http_call(mock.port(), "POST", "/v1/completions", sched_body(500, 8, false));
  ASSERT_EQ(served.status, 200) << served.body;
  const nlohmann::json usage = nlohmann::json::parse(served.body).at("usage");
  EXPECT_EQ(usage.at("prompt_tokens"), 500);
  EXPECT_EQ(usage.at("completion_tokens"), 8);
}

// One streamed request seen from the client: when it was sent and when each content event came.
struct SchedStream {
  int fd = -1;
  std::int64_t sent_ns = 0;
  std::string raw;                     // everything received
  std::size_t scan_from = 0;           // where to look for the next content event in raw
  std::vector<std::int64_t> token_ns;  // steady_clock ns of the read that completed each event
  bool closed = false;
};

std::int64_t sched_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Opens `count` connections and sends each a streamed completions request; no reads yet.
std::vector<SchedStream> sched_send(int port, int count, const std::string& body) {
  std::vector<SchedStream> streams(static_cast<std::size_t>(count));
  const std::string request = fmt::format(
      "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
      body.size(), body);
  for (SchedStream& s : streams) {
    s.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(s.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    s.sent_ns = sched_now_ns();
    EXPECT_EQ(send(s.fd, request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
  }
  return streams;
}

// Reads every stream, stamping each completions content event when the read that completes it
// returns, until `enough` holds or every stream is closed (20 s at most).
void sched_read(std::vector<SchedStream>& streams,
                const std::function<bool(const std::vector<SchedStream>&)>& enough) {
  constexpr std::string_view kContent = R"({"index":0,"text":")";
  const std::int64_t deadline = sched_now_ns() + 20'000'000'000;
  while (!enough(streams)) {
    std::vector<pollfd> fds;
    std::vector<SchedStream*> open;
    for (SchedStream& s : streams) {
      if (s.closed) continue;
      fds.push_back({s.fd, POLLIN, 0});
      open.push_back(&s);
    }
    if (fds.empty()) return;
    const int timeout_ms = static_cast<int>((deadline - sched_now_ns()) / 1'000'000);
    if (timeout_ms <= 0 || poll(fds.data(), fds.size(), timeout_ms) <= 0) {
      ADD_FAILURE() << "the streams did not end in time";
      return;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      SchedStream& s = *open[i];
      char buffer[65536];
      const ssize_t n = recv(s.fd, buffer, sizeof buffer, 0);
      const std::int64_t now = sched_now_ns();
      if (n <= 0) {
        s.closed = true;
        close(s.fd);
        continue;
      }
      s.raw.append(buffer, static_cast<std::size_t>(n));
      for (std::size_t at; (at = s.raw.find(kContent, s.scan_from)) != std::string::npos;) {
        s.token_ns.push_back(now);
        s.scan_from = at + kContent.size();
      }
    }
  }
}

void sched_close_all(std::vector<SchedStream>& streams) {
  for (SchedStream& s : streams) {
    if (!s.closed) close(s.fd);
    s.closed = true;
  }
}

// Mean TTFT and mean ITL (pooled gaps) of a burst, in ms.
struct SchedBurst {
  double mean_ttft_ms = 0;
  double mean_itl_ms = 0;
};

// 16 prompts of 1000 tokens sent at once, 8 tokens each, against a budget of `budget` tokens
// with chunked prefill; steps cost 5 ms + 10 us per batched token. In the model (step by step):
// with 256 tokens a step lasts about 7.5 ms and the prompts queue for their prefill (mean TTFT
// about 270 ms, ITL about 7.3 ms); with 2048 two prompts are prefilled per 25.5 ms step (mean
// TTFT about 125 ms, but tokens of early requests wait for those long steps: ITL about 15 ms).
SchedBurst sched_burst(std::int64_t budget) {
  MockServer mock({"--max-num-batched-tokens", std::to_string(budget), "--step-ms", "5",
                   "--step-us-per-token", "10"});
  std::vector<SchedStream> streams = sched_send(mock.port(), 16, sched_body(1000, 8, true));
  sched_read(streams, [](const std::vector<SchedStream>&) { return false; });
  SchedBurst burst;
  double ttft_sum = 0;
  double itl_sum = 0;
  int gaps = 0;
  for (const SchedStream& s : streams) {
    EXPECT_NE(s.raw.find("HTTP/1.1 200 OK\r\n"), std::string::npos) << s.raw.substr(0, 200);
    EXPECT_EQ(s.token_ns.size(), 8u);
    if (s.token_ns.empty()) continue;
    ttft_sum += static_cast<double>(s.token_ns.front() - s.sent_ns);
    for (std::size_t i = 1; i < s.token_ns.size(); ++i) {
      itl_sum += static_cast<double>(s.token_ns[i] - s.token_ns[i - 1]);
      ++gaps;
    }
  }
  burst.mean_ttft_ms = ttft_sum / 16 / 1e6;
  burst.mean_itl_ms = gaps > 0 ? itl_sum / gaps / 1e6 : 0;
  return burst;
}

TEST(MockScheduler, ASmallerTokenBudgetGivesALongerTtftAndAShorterItlInRealStreams) {
  const SchedBurst small = sched_burst(256);
  const SchedBurst large = sched_burst(2048);
  // The model says about x2 both ways; the margins leave room for a loaded machine.
  EXPECT_GT(small.mean_ttft_ms, 1.4 * large.mean_ttft_ms)
      << "TTFT " << small.mean_ttft_ms << " ms at 256 vs " << large.mean_ttft_ms << " ms at 2048";
  EXPECT_LT(1.4 * small.mean_itl_ms, large.mean_itl_ms)
      << "ITL " << small.mean_itl_ms << " ms at 256 vs " << large.mean_itl_ms << " ms at 2048";
  // Not faster than the model allows: every step costs at least 5 ms.
  EXPECT_GT(small.mean_itl_ms, 5.0);
  EXPECT_GT(large.mean_ttft_ms, 25.0);
}

// Sample lines of a Prometheus exposition: "name{labels}" -> value.
std::map<std::string, double> sched_samples(const std::string& text) {
  std::map<std::string, double> out;
  for (const std::string& line : sched_lines(text)) {
    if (line.empty() || line.starts_with("#")) continue;
    const std::size_t space = line.rfind(' ');
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

double sched_gauge(int port, std::string_view name) {
  const HttpReply reply = http_call(port, "GET", "/metrics");
  const auto samples = sched_samples(reply.body);
  const auto it = samples.find(fmt::format(R"({}{{engine="0",model_name="mock-model"}})", name));
  if (it == samples.end()) {
    ADD_FAILURE() << "no " << name << " in " << reply.body;
    return -1;
  }
  return it->second;
}

TEST(MockScheduler, MetricsShowTheRequestsRunningAndThoseWaitingForASeat) {
  MockServer mock({"--max-num-seqs", "2", "--step-ms", "5", "--step-us-per-token", "0"});
  // Two seats, five requests of 100 tokens (at least 0.5 s each): three wait, without headers.
  std::vector<SchedStream> streams = sched_send(mock.port(), 5, sched_body(10, 100, true));
  sched_read(streams, [](const std::vector<SchedStream>& all) {
    return std::count_if(all.begin(), all.end(),
                         [](const SchedStream& s) { return !s.token_ns.empty(); }) == 2;
  });
  EXPECT_EQ(sched_gauge(mock.port(), "vllm:num_requests_running"), 2);
  EXPECT_EQ(sched_gauge(mock.port(), "vllm:num_requests_waiting"), 3);
  EXPECT_GT(sched_gauge(mock.port(), "vllm:kv_cache_usage_perc"), 0);
  int with_headers = 0;
  for (const SchedStream& s : streams) with_headers += s.raw.starts_with("HTTP/1.1 200") ? 1 : 0;
  EXPECT_EQ(with_headers, 2);
  sched_read(streams, [](const std::vector<SchedStream>&) { return false; });
  for (const SchedStream& s : streams) EXPECT_EQ(s.token_ns.size(), 100u);
  sched_close_all(streams);
  EXPECT_EQ(sched_gauge(mock.port(), "vllm:num_requests_running"), 0);
  EXPECT_EQ(sched_gauge(mock.port(), "vllm:num_requests_waiting"), 0);
}

}  // namespace
}  // namespace llmperf::testing

// End-to-end tests of the APIs beyond chat and completions (issue 15): the real llmperf binary
// against llmperf-mock's /v1/embeddings, /v1/rerank and /v1/responses, reasoning-aware metrics
// (TTFAT, the time to the first answer token) in chat and the Responses API, and synthetic images
// in prompts. The mock's usage is exact (llmperf-mock --help: embeddings count every input as a
// completions prompt, rerank 1 + query + document per document, each image --image-tokens), and
// its reasoning chunks come at absolute deadlines --itl-ms apart, so every count and the reasoning
// time follow from the flags. Request bodies with images are read by a loopback server that
// records what it receives.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "llmperf_run.h"
#include "loopback_listener.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// --url <mock><path> --model --dataset <dataset> --sleep-interval 0 plus `extra`.
std::vector<std::string> random_args(const std::string& base, const std::string& path,
                                     const std::vector<std::string>& extra,
                                     const std::string& dataset = "random") {
  return concat({"--url", base + path, "--model", "mock-model", "--dataset", dataset,
                 "--sleep-interval", "0"},
                extra);
}

// The client's part of the text summary: everything before the server's section (whose
// histograms have rows of their own, TTFT among them).
std::string client_summary(const std::string& out) { return out.substr(0, out.find("\nServer:")); }

// A field of a requests.jsonl line, null when the line leaves it out.
json field(const json& record, const char* key) {
  return record.contains(key) ? record.at(key) : json();
}

// The one run of a finished llmperf, with its records; fails the test when there is none.
std::vector<json> records_of(const BenchRun& run) {
  EXPECT_EQ(run.run_dirs.size(), 1u) << diagnostics(run);
  if (run.run_dirs.empty()) return {};
  return read_requests(run.run_dirs.front());
}

// ---------------------------------------------------------------------------------------------
// Embeddings and rerank

TEST(IntegrationEndpoints, EmbeddingsCountInputsAndTheirTokensWithoutTtft) {
  constexpr int64_t kRequests = 12, kBatch = 4, kInput = 32;
  MockServer mock({});
  const BenchRun run = run_llmperf(
      random_args(mock.base(), "/v1/embeddings",
                  {"--input-tokens", std::to_string(kInput), "--batch-size", std::to_string(kBatch),
                   "--parallel", "2", "-n", std::to_string(kRequests)}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(static_cast<int64_t>(records.size()), kRequests);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["items"], kBatch) << r.dump();
    EXPECT_EQ(r["stream"], false);
    // Every input is a completions prompt fitted to kInput tokens, BOS included.
    EXPECT_EQ(r["input_tokens"], kBatch * kInput) << r.dump();
    EXPECT_EQ(r["input_token_source"], "usage");
    EXPECT_EQ(r["output_tokens"], 0);
    EXPECT_TRUE(r["ttft_ms"].is_null()) << r.dump();
  }
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], kRequests);
  EXPECT_EQ(s["items"]["kind"], "inputs") << s["items"].dump();
  EXPECT_EQ(s["items"]["total"], kRequests * kBatch);
  EXPECT_GT(s["items"]["per_s"].get<double>(), 0.0);
  EXPECT_EQ(s["tokens"]["input_total"], kRequests * kBatch * kInput);
  EXPECT_TRUE(s["metrics"]["ttft_ms"].is_null()) << s["metrics"]["ttft_ms"].dump();
  EXPECT_TRUE(s["metrics"]["ttfat_ms"].is_null());
  EXPECT_EQ(s["metrics"]["latency_s"]["count"], kRequests);
  const std::string text = client_summary(run.process.out);
  EXPECT_TRUE(contains(text, "Inputs/s")) << text;
  EXPECT_TRUE(contains(text, "embeddings, batch 4")) << text;
  EXPECT_FALSE(contains(text, "TTFT")) << text;
}

TEST(IntegrationEndpoints, EmbeddingsReplyWithAVectorMissingFailsAsItemCount) {
  constexpr int kRequests = 12;
  MockServer mock({"--fault-embedding-missing-rate", "1"});
  const BenchRun run = run_llmperf(
      random_args(mock.base(), "/v1/embeddings",
                  {"--input-tokens", "32", "--batch-size", "4", "--parallel", "2", "-n", "12"}));
  // Failed requests are results, not a failed run (as in integration_fault_test).
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(records.size(), static_cast<size_t>(kRequests));
  for (const json& r : records) {
    EXPECT_FALSE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["error_kind"], "item_count") << r.dump();
    EXPECT_EQ(r["http_status"], 200);
  }
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], 0);
  EXPECT_EQ(s["requests"]["failed"], kRequests);
  EXPECT_EQ(s["failures_by_kind"], json({{"item_count", kRequests}}));
  EXPECT_TRUE(
      contains(s["failure_examples"]["item_count"].get<std::string>(), "3 vectors for 4 inputs"))
      << s["failure_examples"].dump();
  EXPECT_EQ(s["items"]["total"], 0);  // only answered inputs count
  EXPECT_TRUE(contains(run.process.out, "item_count")) << run.process.out;
}

// --documents 3 documents of --input-tokens 16 and a query of as many, each fitted as a
// completions prompt (BOS included), at `path`, with `extra` flags.
void expect_rerank_run(const std::string& path, const std::vector<std::string>& extra) {
  SCOPED_TRACE(path);
  constexpr int64_t kRequests = 12, kDocuments = 3, kInput = 16;
  MockServer mock({});
  const BenchRun run = run_llmperf(random_args(
      mock.base(), path,
      concat({"--input-tokens", std::to_string(kInput), "--documents", std::to_string(kDocuments),
              "--parallel", "2", "-n", std::to_string(kRequests)},
             extra)));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  // The mock counts 1 (BOS) + query + document per document; query and document each hold
  // kInput - 1 tokens besides their BOS.
  const int64_t per_request = kDocuments * (1 + 2 * (kInput - 1));
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(static_cast<int64_t>(records.size()), kRequests);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["items"], kDocuments) << r.dump();
    EXPECT_EQ(r["input_tokens"], per_request) << r.dump();
    EXPECT_EQ(r["input_token_source"], "usage");
    EXPECT_TRUE(r["ttft_ms"].is_null());
  }
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], kRequests);
  EXPECT_EQ(s["items"]["kind"], "documents") << s["items"].dump();
  EXPECT_EQ(s["items"]["total"], kRequests * kDocuments);
  EXPECT_EQ(s["tokens"]["input_total"], kRequests * per_request);
  const std::string text = client_summary(run.process.out);
  EXPECT_TRUE(contains(text, "Documents/s")) << text;
  EXPECT_TRUE(contains(text, "rerank, 3 documents")) << text;
  EXPECT_FALSE(contains(text, "TTFT")) << text;
}

TEST(IntegrationEndpoints, RerankCountsDocumentsAndTheMocksPairTokens) {
  expect_rerank_run("/v1/rerank", {});
}

TEST(IntegrationEndpoints, RerankByEvalScopesApiNameAtABarePath) {
  // /rerank alone names no API: --api does.
  expect_rerank_run("/rerank", {"--api", "openai_rerank"});
}

// ---------------------------------------------------------------------------------------------
// Reasoning: TTFT at the first reasoning chunk, TTFAT at the first answer chunk

constexpr int64_t kTtftMs = 30, kItlMs = 10, kReasoning = 5, kOutput = 20, kReasoningRequests = 12;

std::vector<std::string> reasoning_mock_args() {
  return {
      "--ttft-ms",          std::to_string(kTtftMs),    "--itl-ms",        std::to_string(kItlMs),
      "--reasoning-tokens", std::to_string(kReasoning), "--output-tokens", std::to_string(kOutput)};
}

BenchRun run_reasoning(const MockServer& mock, const std::string& path,
                       const std::vector<std::string>& extra) {
  return run_llmperf(
      random_args(mock.base(), path,
                  concat({"--input-tokens", "40", "--output-tokens", std::to_string(kOutput),
                          "--parallel", "3", "-n", std::to_string(kReasoningRequests)},
                         extra)));
}

// Every streamed request reasoned for kReasoning chunks, then answered; TTFAT - TTFT is those
// chunks' gaps, and summary.json adds them up.
void expect_streamed_reasoning(const BenchRun& run) {
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(static_cast<int64_t>(records.size()), kReasoningRequests);
  std::vector<double> reasoning_ms;
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["output_tokens"], kOutput) << r.dump();
    EXPECT_EQ(r["reasoning_tokens"], kReasoning) << r.dump();
    EXPECT_EQ(r["reasoning_token_source"], "usage");
    EXPECT_EQ(r["reasoning_chunks"], kReasoning);
    EXPECT_EQ(r["first_answer_chunk"], kReasoning);
    ASSERT_TRUE(r["ttft_ms"].is_number() && field(r, "ttfat_ms").is_number()) << r.dump();
    const double ttft = r["ttft_ms"].get<double>();
    const double ttfat = r["ttfat_ms"].get<double>();
    // TTFAT is the first answer chunk's time (chunk_ns holds each chunk's time from the send).
    ASSERT_EQ(r["chunk_ns"].size(), static_cast<size_t>(kOutput));
    EXPECT_NEAR(ttfat, r["chunk_ns"][kReasoning].get<double>() / 1e6, 1e-6) << r.dump();
    // TTFT is the first (reasoning) chunk's time, TTFAT the first answer chunk's.
    EXPECT_NEAR(ttft, r["chunk_ns"][0].get<double>() / 1e6, 1e-6) << r.dump();
    // The mock's deadlines are absolute from the moment it received the request, which the send
    // precedes: the answer cannot come sooner than this, however late the first chunk was.
    EXPECT_GE(ttfat, kTtftMs + kReasoning * kItlMs) << r.dump();
    reasoning_ms.push_back(ttfat - ttft);
  }
  // The typical request reasoned for about kReasoning gaps of kItlMs. The chunks are counted
  // exactly above; this holds the clock. How late each chunk comes depends on the machine (a first
  // chunk 20 ms late, with both cores busy under the sanitizers, shortens that request's reasoning
  // time by as much), so only the median is held, loosely: a clock in the wrong unit would be far
  // off.
  std::nth_element(reasoning_ms.begin(), reasoning_ms.begin() + reasoning_ms.size() / 2,
                   reasoning_ms.end());
  const double median = reasoning_ms[reasoning_ms.size() / 2];
  EXPECT_GE(median, kReasoning * kItlMs - 15);
  EXPECT_LE(median, kReasoning * kItlMs + 40);
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["succeeded"], kReasoningRequests);
  const json& reasoning = s["reasoning"];
  ASSERT_TRUE(reasoning.is_object()) << s.dump(1).substr(0, 2000);
  EXPECT_EQ(reasoning["requests"], kReasoningRequests);
  EXPECT_EQ(reasoning["reasoning_tokens_total"], kReasoningRequests * kReasoning);
  EXPECT_EQ(reasoning["answer_tokens_total"], kReasoningRequests * (kOutput - kReasoning));
  EXPECT_EQ(reasoning["token_source"], "usage");
  const json& m = s["metrics"];
  EXPECT_EQ(m["ttfat_ms"]["count"], kReasoningRequests);
  EXPECT_NEAR(m["ttfat_ms"]["mean"].get<double>() - m["ttft_ms"]["mean"].get<double>(),
              reasoning["reasoning_time_ms"]["mean"].get<double>(), 1e-6);
  EXPECT_EQ(reasoning["itl_reasoning_ms"]["count"], kReasoningRequests * (kReasoning - 1));
  EXPECT_EQ(reasoning["itl_answer_ms"]["count"], kReasoningRequests * (kOutput - kReasoning - 1));
  const std::string text = client_summary(run.process.out);
  EXPECT_TRUE(contains(text, "TTFAT (ms)")) << text;
  const std::string tokens = std::to_string(kReasoningRequests * kReasoning) + " / " +
                             std::to_string(kReasoningRequests * (kOutput - kReasoning));
  EXPECT_TRUE(contains(text, "Reasoning / answer tokens")) << text;
  EXPECT_TRUE(contains(text, tokens + " (usage)")) << text;
}

TEST(IntegrationEndpoints, ResponsesStreamReasonsThenAnswersAndTtfatFollows) {
  MockServer mock(reasoning_mock_args());
  const BenchRun run = run_reasoning(mock, "/v1/responses", {});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  expect_streamed_reasoning(run);
  EXPECT_TRUE(contains(run.process.out, "responses API, stream")) << run.process.out;
  // Usage lengths are exact through the Responses API too (input counted as a chat message).
  EXPECT_EQ(run.summary["exactness"]["input"]["matched"], kReasoningRequests);
  EXPECT_EQ(run.summary["exactness"]["output"]["matched"], kReasoningRequests);
}

TEST(IntegrationEndpoints, ResponsesWithoutStreamTakeReasoningTokensFromUsage) {
  MockServer mock(reasoning_mock_args());
  const BenchRun run = run_reasoning(mock, "/v1/responses", {"--no-stream"});
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(static_cast<int64_t>(records.size()), kReasoningRequests);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["stream"], false);
    EXPECT_EQ(r["output_tokens"], kOutput);
    EXPECT_EQ(r["reasoning_tokens"], kReasoning) << r.dump();
    EXPECT_EQ(r["reasoning_token_source"], "usage");
    EXPECT_EQ(r["reasoning_chunks"], 0);
    EXPECT_TRUE(r["ttft_ms"].is_null());
    EXPECT_TRUE(field(r, "ttfat_ms").is_null()) << r.dump();
    EXPECT_TRUE(r["first_answer_ns"].is_null()) << r.dump();
  }
  const json& s = run.summary;
  EXPECT_EQ(s["reasoning"]["reasoning_tokens_total"], kReasoningRequests * kReasoning);
  EXPECT_EQ(s["reasoning"]["answer_tokens_total"], kReasoningRequests * (kOutput - kReasoning));
  EXPECT_TRUE(s["reasoning"]["reasoning_time_ms"].is_null());
  EXPECT_TRUE(s["metrics"]["ttfat_ms"].is_null());
}

TEST(IntegrationEndpoints, ChatReasoningInNewerVllmsFieldCountsForGoodputAndSlo) {
  MockServer mock(concat(reasoning_mock_args(), {"--reasoning-field", "reasoning"}));
  // Every TTFAT is at least 80 ms (see expect_streamed_reasoning): all good under 10 s, and the
  // 1 ms objective fails the run with code 3 (outputs still written).
  const BenchRun run = run_reasoning(mock, "/v1/chat/completions",
                                     {"--goodput", "ttfat:10000", "--slo", "ttfat.p99<=1ms"});
  ASSERT_EQ(run.process.exit_code, 3) << diagnostics(run);
  expect_streamed_reasoning(run);
  const json& s = run.summary;
  EXPECT_EQ(s["goodput"]["ttfat_ms"], 10000.0) << s["goodput"].dump();
  EXPECT_EQ(s["goodput"]["good_requests"], kReasoningRequests);
  EXPECT_EQ(s["goodput"]["good_fraction"], 1.0);
  EXPECT_FALSE(s["slo"]["passed"].get<bool>()) << s["slo"].dump();
  ASSERT_EQ(s["slo"]["results"].size(), 1u);
  EXPECT_EQ(s["slo"]["results"][0]["expression"], "ttfat.p99<=1ms");
  EXPECT_TRUE(contains(run.process.out, "SLO verdict: FAIL")) << run.process.out;

  // A bound between TTFT (about 30 ms) and TTFAT (at least 80 ms): no request is good, and an
  // objective every request meets passes.
  const BenchRun strict = run_reasoning(mock, "/v1/chat/completions",
                                        {"--goodput", "ttfat:70", "--slo", "ttfat.p99<=60000ms"});
  ASSERT_EQ(strict.process.exit_code, 0) << diagnostics(strict);
  EXPECT_EQ(strict.summary["goodput"]["good_requests"], 0) << strict.summary["goodput"].dump();
  EXPECT_EQ(strict.summary["goodput"]["good_fraction"], 0.0);
  EXPECT_TRUE(strict.summary["slo"]["passed"].get<bool>()) << strict.summary["slo"].dump();
}

TEST(IntegrationEndpoints, ResponsesErrorEventFailsEveryRequestAsStreamError) {
  MockServer mock({"--fault-error-event-rate", "1", "--output-tokens", "8"});
  const BenchRun run = run_llmperf(
      random_args(mock.base(), "/v1/responses",
                  {"--input-tokens", "40", "--output-tokens", "8", "--parallel", "3", "-n", "12"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = records_of(run);
  ASSERT_EQ(records.size(), 12u);
  for (const json& r : records) {
    EXPECT_FALSE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["error_kind"], "stream_error") << r.dump();
    EXPECT_TRUE(contains(r["error_message"].get<std::string>(), "injected stream error"))
        << r.dump();
  }
  const json& s = run.summary;
  EXPECT_EQ(s["requests"]["failed"], 12);
  EXPECT_EQ(s["failures_by_kind"], json({{"stream_error", 12}}));
  EXPECT_TRUE(
      contains(s["failure_examples"]["stream_error"].get<std::string>(), "injected stream error"))
      << s["failure_examples"].dump();
}

// ---------------------------------------------------------------------------------------------
// Images

// The input tokens of every request of `run`, which must all be equal and successful.
std::optional<int64_t> common_input_tokens(const BenchRun& run, bool images) {
  std::optional<int64_t> tokens;
  for (const json& r : records_of(run)) {
    EXPECT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["input_token_source"], "usage");
    // The server counts images its own way: a prompt that carries them has no target length.
    EXPECT_EQ(r["target_input_tokens"].is_null(), images) << r.dump();
    const int64_t n = r["input_tokens"].get<int64_t>();
    if (!tokens) tokens = n;
    EXPECT_EQ(n, *tokens) << r.dump();
  }
  return tokens;
}

class IntegrationEndpointsImages : public ::testing::TestWithParam<const char*> {};

TEST_P(IntegrationEndpointsImages, EveryImageAddsTheMocksImageTokens) {
  constexpr int64_t kImageTokens = 64, kImages = 2;
  MockServer mock({"--image-tokens", std::to_string(kImageTokens)});
  const std::vector<std::string> lengths = {
      "--input-tokens", "50", "--output-tokens", "8", "--parallel", "2", "-n", "4"};
  const BenchRun plain = run_llmperf(random_args(mock.base(), GetParam(), lengths));
  ASSERT_EQ(plain.process.exit_code, 0) << diagnostics(plain);
  const BenchRun vl =
      run_llmperf(random_args(mock.base(), GetParam(),
                              concat(lengths, {"--image-num", std::to_string(kImages),
                                               "--image-width", "64", "--image-height", "32"}),
                              "random_vl"));
  ASSERT_EQ(vl.process.exit_code, 0) << diagnostics(vl);
  const std::optional<int64_t> text_only = common_input_tokens(plain, false);
  const std::optional<int64_t> with_images = common_input_tokens(vl, true);
  ASSERT_TRUE(text_only && with_images);
  EXPECT_EQ(*text_only, 50);
  EXPECT_EQ(*with_images, *text_only + kImages * kImageTokens);
  EXPECT_EQ(plain.summary["requests"]["succeeded"], 4);
  EXPECT_EQ(vl.summary["requests"]["succeeded"], 4);
}

INSTANTIATE_TEST_SUITE_P(Apis, IntegrationEndpointsImages,
                         ::testing::Values("/v1/chat/completions", "/v1/responses"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           return std::string(param_info.param) == "/v1/responses" ? "Responses"
                                                                                   : "Chat";
                         });

// A loopback HTTP server that records the body of every POST to `path` and answers every
// request 500 with Connection: close, one connection at a time; llmperf's requests are what is
// looked at, not its results.
class CaptureServer {
 public:
  explicit CaptureServer(std::string path) : path_(std::move(path)) {
    listen_fd_ = listen_on_loopback(port_);
    if (listen_fd_ < 0) throw std::runtime_error("capture server: cannot listen on loopback");
    thread_ = std::thread([this] { serve(); });
  }
  ~CaptureServer() {
    shutdown(listen_fd_, SHUT_RDWR);  // wakes accept() with an error
    thread_.join();
    close(listen_fd_);
  }
  CaptureServer(const CaptureServer&) = delete;
  CaptureServer& operator=(const CaptureServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + path_; }
  std::vector<std::string> bodies() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bodies_;
  }

 private:
  void serve() {
    while (true) {
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;
      }
      answer(fd);
      close(fd);
    }
  }

  // Reads one request (head, then Content-Length bytes of body) and answers it.
  void answer(int fd) {
    std::string data;
    size_t head_end = std::string::npos;
    size_t length = 0;
    while (true) {
      if (head_end == std::string::npos) {
        head_end = data.find("\r\n\r\n");
        if (head_end != std::string::npos) length = content_length(data.substr(0, head_end));
      }
      if (head_end != std::string::npos && data.size() >= head_end + 4 + length) break;
      pollfd p{fd, POLLIN, 0};
      char chunk[65536];
      if (poll(&p, 1, 10'000) != 1) return;
      const ssize_t n = recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) return;
      data.append(chunk, static_cast<size_t>(n));
    }
    if (data.rfind("POST " + path_ + " ", 0) == 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      bodies_.push_back(data.substr(head_end + 4, length));
    }
    const std::string body = R"({"error":{"message":"captured","type":"server_error"}})";
    const std::string reply =
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    send(fd, reply.data(), reply.size(), MSG_NOSIGNAL);
  }

  static size_t content_length(std::string head) {
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const size_t at = head.find("\r\ncontent-length:");
    return at == std::string::npos ? 0 : std::stoul(head.substr(at + 17));
  }

  std::string path_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> bodies_;
};

// Standard base64 (RFC 4648) decoded; stops at '=' or any other character outside the alphabet.
std::string base64_decode(const std::string& text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (const char c : text) {
    const size_t value = kAlphabet.find(c);
    if (value == std::string::npos) break;
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

uint32_t big_endian_32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes.at(at + i));
  return v;
}

// The data URL is a PNG of `width` x `height` pixels: signature, then IHDR first (PNG spec 5.2,
// 11.2.2); returns the decoded bytes.
std::string expect_png(const std::string& url, uint32_t width, uint32_t height) {
  const std::string prefix = "data:image/png;base64,";
  EXPECT_EQ(url.rfind(prefix, 0), 0u) << url.substr(0, 64);
  const std::string png = base64_decode(url.substr(prefix.size()));
  EXPECT_GT(png.size(), 33u);
  if (png.size() <= 33) return png;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(big_endian_32(png, 8), 13u);  // IHDR's length
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(big_endian_32(png, 16), width);
  EXPECT_EQ(big_endian_32(png, 20), height);
  EXPECT_EQ(png.substr(png.size() - 8, 4), "IEND");
  return png;
}

TEST(IntegrationEndpoints, ImagesAreSentAsPngDataUrlsOfTheRequestedSize) {
  // Chat: user content [text, image_url x2]; Responses: input [{content: [input_text,
  // input_image x2]}]. One request each, no probe, so every captured body is a run's request.
  // A fixed prompt: synthetic ones would be calibrated against the endpoint first, which here has
  // no tokenize API and answers nothing but errors.
  for (const char* path : {"/v1/chat/completions", "/v1/responses"}) {
    SCOPED_TRACE(path);
    const bool chat = std::string(path) == "/v1/chat/completions";
    CaptureServer capture(path);
    const BenchRun run = run_llmperf(
        concat({"--url", capture.url(), "--model", "mock-model", "--prompt", "Describe both."},
               {"--image-num", "2", "--image-width", "64", "--image-height", "32", "--parallel",
                "1", "-n", "1", "--no-probe", "--no-server-metrics", "--sleep-interval", "0"}));
    ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
    const std::vector<std::string> bodies = capture.bodies();
    ASSERT_EQ(bodies.size(), 1u) << diagnostics(run);
    const json body = json::parse(bodies.front(), nullptr, false);
    ASSERT_FALSE(body.is_discarded()) << bodies.front().substr(0, 400);
    const json& messages = chat ? body["messages"] : body["input"];
    ASSERT_TRUE(messages.is_array() && messages.size() == 1u) << body.dump().substr(0, 400);
    const json& parts = messages[0]["content"];
    ASSERT_TRUE(parts.is_array()) << messages.dump().substr(0, 400);
    std::vector<std::string> pngs;
    int texts = 0;
    for (const json& part : parts) {
      const std::string type = part["type"];
      if (type == (chat ? "text" : "input_text")) {
        EXPECT_EQ(part["text"], "Describe both.");
        ++texts;
        continue;
      }
      ASSERT_EQ(type, chat ? "image_url" : "input_image") << part.dump().substr(0, 200);
      const json& url = chat ? part["image_url"]["url"] : part["image_url"];
      pngs.push_back(expect_png(url.get<std::string>(), 64, 32));
    }
    EXPECT_EQ(texts, 1);
    ASSERT_EQ(pngs.size(), 2u);
    EXPECT_NE(pngs[0], pngs[1]);  // noise of its own in every image
  }
}

}  // namespace
}  // namespace llmperf::testing

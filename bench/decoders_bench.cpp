// Microbenchmark of the Responses API event decoder and the pooling response decoder.
//   Responses: CPU time per event for typical output_text.delta events (OpenAI's field order, and
//   vLLM's with "type" last), a reasoning delta and a response.completed, next to decode_chunk on
//   a chat chunk of similar size.
//   Pooling: MB/s for an embeddings body of 64 vectors x 1024 floats, on the fast path and on
//   nlohmann's fallback (a \u escape in the body sends the whole body there).
// Usage: llmperf-decoders-bench [iterations]   (default 1,000,000; build in Release)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <string_view>

#include "protocol/chunk_decoder.h"
#include "protocol/pooling_response.h"
#include "protocol/responses_decoder.h"

namespace llmperf {
namespace {

constexpr int kRepeats = 3;  // best of

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Best-of-kRepeats CPU nanoseconds per call of `body`.
template <typename Body>
double ns_per_call(long iterations, Body&& body) {
  double best = 1e300;
  for (int r = 0; r < kRepeats; ++r) {
    const double start = cpu_seconds();
    for (long i = 0; i < iterations; ++i) body();
    best = std::min(best, (cpu_seconds() - start) * 1e9 / static_cast<double>(iterations));
  }
  return best;
}

void bench_event(const char* label, std::string_view name, std::string_view data, long iterations) {
  DecodedChunk chunk;
  chunk.want_response_id = false;
  int64_t sink = 0;
  const double ns = ns_per_call(iterations, [&] {
    decode_responses_event(name, data, chunk);
    sink += chunk.output_chars;
  });
  std::printf("  %-44s %4zu bytes  %7.1f ns/event  (check %lld)\n", label, data.size(), ns,
              static_cast<long long>(sink));
}

std::string embeddings_body(int vectors, int dimension, std::string_view model) {
  std::mt19937 rng(7);
  std::normal_distribution<float> value(0.0F, 0.03F);
  std::string body = R"({"object":"list","data":[)";
  char number[32];
  for (int v = 0; v < vectors; ++v) {
    if (v > 0) body += ',';
    body += R"({"object":"embedding","index":)" + std::to_string(v) + R"(,"embedding":[)";
    for (int d = 0; d < dimension; ++d) {
      if (d > 0) body += ',';
      // OpenAI and vLLM print float32 values with up to 9 significant digits
      std::snprintf(number, sizeof number, "%.9g", static_cast<double>(value(rng)));
      body += number;
    }
    body += "]}";
  }
  body += R"(],"model":")";
  body += model;
  body += R"(","usage":{"prompt_tokens":4096,"total_tokens":4096}})";
  return body;
}

void bench_pooling(const char* label, const std::string& body, int iterations) {
  PoolingResponse out;
  double best = 1e300;
  for (int r = 0; r < kRepeats; ++r) {
    const double start = cpu_seconds();
    for (int i = 0; i < iterations; ++i)
      decode_pooling_response(PoolingKind::kEmbeddings, body, out);
    best = std::min(best, (cpu_seconds() - start) / iterations);
  }
  std::printf(
      "  %-44s %.2f MB  %7.2f ms/body  %6.0f MB/s  (items %lld, dimension %lld, bad %lld)\n", label,
      static_cast<double>(body.size()) / 1e6, best * 1e3,
      static_cast<double>(body.size()) / 1e6 / best, static_cast<long long>(out.items),
      static_cast<long long>(out.dimension), static_cast<long long>(out.bad_items));
}

}  // namespace
}  // namespace llmperf

int main(int argc, char** argv) {
  using namespace llmperf;
  const long iterations = argc > 1 ? std::atol(argv[1]) : 1000000;
  std::printf("Responses events (%ld iterations, best of %d, CPU time):\n", iterations, kRepeats);
  bench_event(
      "output_text.delta (OpenAI order)", "response.output_text.delta",
      R"({"type":"response.output_text.delta","sequence_number":14,"item_id":"msg_68a1f3c9e0f18190c2b3a4d5e6f7a8b9","output_index":1,"content_index":0,"delta":" primes","logprobs":[],"obfuscation":"Zp9"})",
      iterations);
  bench_event(
      "output_text.delta (vLLM order, type last)", "response.output_text.delta",
      R"({"content_index":0,"delta":" the","item_id":"msg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d","logprobs":[],"output_index":1,"sequence_number":17,"type":"response.output_text.delta"})",
      iterations);
  bench_event(
      "reasoning_text.delta (vLLM, Chinese)", "response.reasoning_text.delta",
      R"({"content_index":0,"delta":" Chinese: 你好","item_id":"rs_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a","output_index":0,"sequence_number":7,"type":"response.reasoning_text.delta"})",
      iterations);
  bench_event(
      "response.completed (with usage)", "response.completed",
      R"({"type":"response.completed","sequence_number":40,"response":{"id":"resp_68a1f3c2b7e08190","object":"response","created_at":1755444418,"status":"completed","error":null,"incomplete_details":null,"model":"o4-mini","output":[{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":"There are four primes below 10."}],"role":"assistant"}],"usage":{"input_tokens":1310,"input_tokens_details":{"cached_tokens":1152},"output_tokens":212,"output_tokens_details":{"reasoning_tokens":128},"total_tokens":1522}}})",
      iterations / 4);
  {
    const std::string_view chat =
        R"({"id":"chatcmpl-8f2c1a9e4b7d4c0e9a1b2c3d","object":"chat.completion.chunk","created":1718000000,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":{"content":" the"},"logprobs":null,"finish_reason":null}]})";
    DecodedChunk chunk;
    chunk.want_response_id = false;
    int64_t sink = 0;
    const double ns = ns_per_call(iterations, [&] {
      decode_chunk(chat, chunk);
      sink += chunk.output_chars;
    });
    std::printf("  %-44s %4zu bytes  %7.1f ns/event  (check %lld)\n",
                "decode_chunk, chat chunk (reference)", chat.size(), ns,
                static_cast<long long>(sink));
  }
  std::printf("Pooling bodies (best of %d, CPU time):\n", kRepeats);
  bench_pooling("embeddings 64 x 1024 floats", embeddings_body(64, 1024, "BAAI/bge-m3"), 20);
  bench_pooling("same, \\u escape: nlohmann fallback", embeddings_body(64, 1024, "bge-m3-\\u00e9"),
                5);
  return 0;
}

// Microbenchmark of the streaming hot path: SseParser alone, SseParser + decode_chunk, and the
// engine's ResponseHandler (parser, the chat API's adapter, the record's stamps, one response per
// request of 200 events), over an in-memory vLLM-style stream fed in 16 KiB slices (the size curl
// hands to its write callback).
// Usage: llmperf-parse-bench [events]   (default 1,000,000; build in Release to get real figures)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "engine/response_handler.h"
#include "protocol/chunk_decoder.h"
#include "protocol/sse_parser.h"

namespace llmperf {
namespace {

constexpr size_t kSliceBytes = 16 * 1024;
constexpr int kChunksPerRequest = 200;  // role + content + finish + usage + [DONE]
constexpr int kRepeats = 3;             // best of

constexpr std::string_view kTokens[] = {" the",    " model", " answer", ",",
                                        " is",     " 42",    ".",       "\\n\\n",
                                        " Paris",  " 你好",  "世界",    " \\\"quoted\\\"",
                                        " deploy", "ment",   " can",    " I help you"};

// Appends one chat.completion.chunk as vLLM emits it.
void append_chunk(std::string& out, int request, std::string_view delta,
                  std::string_view finish_reason) {
  out += R"(data: {"id":"chatcmpl-8f2c1a9e4b7d4c0e9a1b2c3d)";
  out += std::to_string(100000 + request);
  out += R"(","object":"chat.completion.chunk","created":1718000000,)";
  out += R"("model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":)";
  out += delta;
  out += R"(,"logprobs":null,"finish_reason":)";
  out += finish_reason;
  out += "}]}\n\n";
}

// Appends one request's stream: kChunksPerRequest SSE events.
void append_request(std::string& out, int request) {
  append_chunk(out, request, R"({"role":"assistant","content":""})", "null");
  for (int i = 0; i < kChunksPerRequest - 4; ++i) {
    std::string delta = R"({"content":")";
    delta += kTokens[static_cast<size_t>(request + i) % std::size(kTokens)];
    delta += R"("})";
    append_chunk(out, request, delta, "null");
  }
  append_chunk(out, request, R"({"content":""})", R"("stop")");
  out += R"(data: {"id":"chatcmpl-8f2c1a9e4b7d4c0e9a1b2c3d)" + std::to_string(100000 + request) +
         R"(","object":"chat.completion.chunk","created":1718000000,)"
         R"("model":"Qwen/Qwen2.5-7B-Instruct","choices":[],)"
         R"("usage":{"prompt_tokens":812,"total_tokens":1008,"completion_tokens":196}})"
         "\n\ndata: [DONE]\n\n";
}

// Builds a stream of `events` SSE events made of whole requests.
std::string build_stream(size_t events) {
  std::string out;
  out.reserve(events * 260);
  for (size_t written = 0; written < events; written += kChunksPerRequest) {
    append_request(out, static_cast<int>(written / kChunksPerRequest));
  }
  return out;
}

// Totals that keep the compiler from discarding the work and let runs be cross-checked.
struct Totals {
  uint64_t events = 0;            // events dispatched
  uint64_t data_bytes = 0;        // bytes of event data
  uint64_t output_chunks = 0;     // output-carrying chunks (decode runs only)
  int64_t output_chars = 0;       // code points of output (decode runs only)
  int64_t completion_tokens = 0;  // summed usage.completion_tokens (decode runs only)
};

template <bool kDecode>
Totals run(const std::string& stream) {
  Totals totals;
  SseParser parser;
  DecodedChunk chunk;
  auto on_event = [&](const SseEvent& event) {
    ++totals.events;
    totals.data_bytes += event.data.size();
    if constexpr (kDecode) {
      if (event.data == "[DONE]") return;
      decode_chunk(event.data, chunk);
      chunk.want_response_id = false;  // as ResponseHandler does once it has the id
      totals.output_chunks += chunk.has_output;
      totals.output_chars += chunk.output_chars;
      if (chunk.has_usage) totals.completion_tokens += chunk.completion_tokens;
    }
  };
  for (size_t offset = 0; offset < stream.size(); offset += kSliceBytes) {
    const size_t size = std::min(kSliceBytes, stream.size() - offset);
    parser.feed(stream.data() + offset, size, on_event);
  }
  parser.flush(on_event);
  return totals;
}

// The engine's ResponseHandler over `requests` responses, each the stream of one request (as
// curl hands them: a status line, headers, body slices, the end), into a record per request.
Totals run_handler(const std::string& request_stream, size_t requests) {
  Totals totals;
  ResponseHandler handler;
  RequestRecord record;
  const ApiAdapter& chat = api_adapter(ApiKind::kChat);
  int64_t now = 0;
  for (size_t r = 0; r < requests; ++r) {
    record = RequestRecord{};
    record.stream = true;
    handler.start(&record, nullptr, chat);
    handler.on_header_line("HTTP/1.1 200 OK\r\n", ++now);
    handler.on_header_line("Content-Type: text/event-stream\r\n", now);
    handler.on_header_line("\r\n", now);
    for (size_t offset = 0; offset < request_stream.size(); offset += kSliceBytes) {
      const size_t size = std::min(kSliceBytes, request_stream.size() - offset);
      handler.on_body(request_stream.data() + offset, size, ++now);
    }
    handler.finish(++now, ErrorKind::kNone, "");
    totals.events += kChunksPerRequest;
    totals.output_chunks += record.chunk_ns.size();
    totals.output_chars += record.output_chars;
    totals.completion_tokens += record.output_tokens;
  }
  return totals;
}

// Process CPU time: on a shared machine it is steadier than wall time.
int64_t cpu_ns() { return static_cast<int64_t>(std::clock()) * (1000000000 / CLOCKS_PER_SEC); }

// kDecode: the decoder too; kHandler: the whole ResponseHandler (`stream` is then one request's,
// run `requests` times).
template <bool kDecode, bool kHandler = false>
void report(const char* label, const std::string& stream, size_t requests = 0) {
  int64_t best_wall_ns = INT64_MAX;
  int64_t best_cpu_ns = INT64_MAX;
  Totals totals;
  for (int i = 0; i < kRepeats; ++i) {
    const int64_t wall_start = now_ns();
    const int64_t cpu_start = cpu_ns();
    if constexpr (kHandler) {
      totals = run_handler(stream, requests);
    } else {
      totals = run<kDecode>(stream);
    }
    best_cpu_ns = std::min(best_cpu_ns, cpu_ns() - cpu_start);
    best_wall_ns = std::min(best_wall_ns, now_ns() - wall_start);
  }
  const double events = static_cast<double>(totals.events);
  const double cpu_seconds = static_cast<double>(best_cpu_ns) / 1e9;
  std::printf(
      "%-20s cpu: %10.0f events/s %7.1f ns/event %7.1f MB/s | wall: %7.1f ns/event\n", label,
      events / cpu_seconds, static_cast<double>(best_cpu_ns) / events,
      static_cast<double>(stream.size() * std::max<size_t>(1, requests)) / cpu_seconds / 1e6,
      static_cast<double>(best_wall_ns) / events);
  std::printf("%-20s events=%llu", "", static_cast<unsigned long long>(totals.events));
  if (kDecode) {
    std::printf(" output_chunks=%llu output_chars=%lld completion_tokens=%lld",
                static_cast<unsigned long long>(totals.output_chunks),
                static_cast<long long>(totals.output_chars),
                static_cast<long long>(totals.completion_tokens));
  }
  std::printf("\n");
}

}  // namespace
}  // namespace llmperf

int main(int argc, char** argv) {
  const size_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const std::string stream = llmperf::build_stream(events);
  std::printf("stream: %zu bytes, %zu-byte slices, best of %d\n", stream.size(),
              llmperf::kSliceBytes, llmperf::kRepeats);
  llmperf::report<false>("sse parse", stream);
  llmperf::report<true>("sse parse + decode", stream);
  std::string request;
  llmperf::append_request(request, 0);
  llmperf::report<true, true>(
      "response handler", request,
      (events + llmperf::kChunksPerRequest - 1) / llmperf::kChunksPerRequest);
  return 0;
}

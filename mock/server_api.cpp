// The model list, health, version, metrics and profiler endpoints of llmperf-mock.
#include "server_api.h"

#include "openai_format.h"
#include "server_context.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string_view>

namespace llmperf::mock {
namespace {

#ifdef LLMPERF_VERSION
constexpr std::string_view kMockVersion = LLMPERF_VERSION;
#else
constexpr std::string_view kMockVersion = "0.1.0";  // project(llmperf VERSION ...) in CMakeLists
#endif

constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";
// FastAPI's answer for a route that does not exist, which vLLM gives for disabled endpoints.
constexpr std::string_view kFastApiNotFound = R"({"detail":"Not Found"})";

std::int64_t server_api_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t server_api_unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ApiReply models_reply(ServerContext& context) {
  return {200, fmt::format(R"({{"object":"list","data":[{{"id":"{}","object":"model","created":{},)"
                           R"("owned_by":"llmperf-mock","max_model_len":{}}}]}})",
                           context.model_escaped(), server_api_unix_seconds(),
                           context.options().max_model_len)};
}

ApiReply profiler_reply(ServerContext& context, bool start) {
  if (!context.options().serve_profiler) return {404, std::string(kFastApiNotFound)};
  fmt::print(stderr, "llmperf-mock: profiler {}\n", start ? "started" : "stopped");
  std::fflush(stderr);
  context.event_log().record_profile(start, server_api_now_ns());
  return {200, "", ""};
}

}  // namespace

std::optional<ApiReply> answer_server_api(ServerContext& context, const HttpRequest& request) {
  const std::string_view path = request.path;
  const bool get = request.method == "GET";
  const bool post = request.method == "POST";
  const bool start_profile = path == "/start_profile";
  if (start_profile || path == "/stop_profile") {
    if (post || !context.options().serve_profiler) return profiler_reply(context, start_profile);
  } else if (path == "/metrics") {
    if (!context.options().serve_metrics) return ApiReply{404, std::string(kFastApiNotFound)};
    if (get) {
      return ApiReply{200, context.metrics().render(context.options().model),
                      std::string(kPrometheusContentType)};
    }
  } else if (path == "/v1/models") {
    if (get) return models_reply(context);
  } else if (path == "/health") {
    if (get) return ApiReply{200, "", ""};
  } else if (path == "/version") {
    if (get) return ApiReply{200, fmt::format(R"({{"version":"llmperf-mock {}"}})", kMockVersion)};
  } else {
    return std::nullopt;
  }
  return ApiReply{405, error_body(fmt::format("method {} not allowed on {}", request.method, path),
                                  "invalid_request_error", 405)};
}

}  // namespace llmperf::mock
